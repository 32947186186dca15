package io.kubesched.framework;

/**
 * A plugin told when a node has been chosen for a pod (Reserve) and when that choice is undone
 * (Unreserve), to keep its own bookkeeping in step with the scheduler's cache.
 *
 * <h2>Contract</h2>
 *
 * Reserve plugins run in order and stop at the first failure; then every Reserve plugin's Unreserve
 * runs in reverse order and the pod is retried. {@link #unreserve} must be idempotent and may be
 * called without a preceding {@link #reserve}; it cannot fail.
 */
public interface ReservePlugin extends Plugin {
  /** Reserves {@code nodeName} for {@code pod}; never returns {@code null}. */
  Status reserve(CycleState state, PodInfo pod, String nodeName);

  /** Undoes {@link #reserve}; idempotent. */
  void unreserve(CycleState state, PodInfo pod, String nodeName);
}
