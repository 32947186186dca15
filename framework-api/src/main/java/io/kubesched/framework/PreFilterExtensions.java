package io.kubesched.framework;

/**
 * Incremental updates of a PreFilter plugin's cycle state, implemented next to {@link
 * PreFilterPlugin}: the framework calls them on a cloned state when it evaluates "what if this pod
 * were (not) on the node" for nominated pods and preemption.
 *
 * <p>Both may be called many times on clones and must only change the given state. A non-success
 * status is turned into an Error.
 */
public interface PreFilterExtensions {
  /** Updates {@code state} as if {@code podToAdd} ran on {@code node}. */
  Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node);

  /** Updates {@code state} as if {@code podToRemove} no longer ran on {@code node}. */
  Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node);
}
