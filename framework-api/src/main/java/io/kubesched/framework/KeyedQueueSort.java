package io.kubesched.framework;

/**
 * A {@link QueueSortPlugin} whose order is that of one {@link QueueSortKey} per pod, so that the
 * active queue compares keys it computed once instead of calling {@link #less} at every step of the
 * heap.
 *
 * <p>The contract: for any two pods, {@code less(a, b) == sortKey(a).isBefore(sortKey(b))}, and the
 * key depends only on what the queue leaves alone while the pod waits in the active queue (its
 * {@link QueuedPodInfo#podInfo()}, {@link QueuedPodInfo#timestamp()}, attempts and initial attempt
 * time). The queue computes the key whenever a pod enters the active queue or is updated there.
 * Called under the queue's lock; must be cheap and must not throw.
 */
public interface KeyedQueueSort extends QueueSortPlugin {
  /** Returns {@code pod}'s key in this plugin's order. */
  QueueSortKey sortKey(QueuedPodInfo pod);
}
