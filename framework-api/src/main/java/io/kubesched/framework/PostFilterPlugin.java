package io.kubesched.framework;

/**
 * A plugin called only when no node fits the pod, typically to preempt lower-priority pods.
 *
 * <h2>Contract</h2>
 *
 * Plugins run in order. {@code Success} (the pod can be made schedulable, usually with a nominated
 * node) or {@code UnschedulableAndUnresolvable} end the phase. {@code Unschedulable} lets the next
 * plugin try. Any other code becomes an Error. The pod's cycle fails either way; a nomination makes
 * it be retried against the nominated node.
 */
public interface PostFilterPlugin extends Plugin {
  /**
   * Tries to make {@code pod} schedulable.
   *
   * @param filteredNodeStatuses why each node failed
   * @return the status and nomination; never {@code null}
   */
  PostFilterResult postFilter(
      CycleState state, PodInfo pod, NodeToStatusReader filteredNodeStatuses);
}
