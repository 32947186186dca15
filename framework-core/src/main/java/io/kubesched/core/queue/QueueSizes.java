package io.kubesched.core.queue;

/**
 * The number of pods in each part of the {@link SchedulingQueue} at one instant ({@link
 * SchedulingQueue#sizes()}). In-flight pods (popped, not yet done) are in none of them.
 *
 * @param active pods ready to be scheduled (activeQ)
 * @param backoff pods waiting for their backoff to expire (backoffQ)
 * @param unschedulable pods rejected by plugins waiting for a cluster event, gated pods excluded
 * @param gated pods held back by a PreEnqueue plugin
 */
public record QueueSizes(int active, int backoff, int unschedulable, int gated) {

  /** Checks that no size is negative. */
  public QueueSizes {
    if (active < 0 || backoff < 0 || unschedulable < 0 || gated < 0) {
      throw new IllegalArgumentException("queue sizes must not be negative");
    }
  }

  /**
   * Returns the pods that can still be attempted: active, backoff and unschedulable (gated pods are
   * not attempted until a PreEnqueue plugin lets them in).
   */
  public int pending() {
    return active + backoff + unschedulable;
  }
}
