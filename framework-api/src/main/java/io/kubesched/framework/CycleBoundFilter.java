package io.kubesched.framework;

/**
 * An optional face of a {@link FilterPlugin}: its Filter with the pod's cycle state resolved once
 * per cycle, so the per-node call reads no {@link CycleState} entry.
 *
 * <p>Contract: for every node, {@code bindFilter(state, pod).filter(node)} returns what {@link
 * #filter(CycleState, PodInfo, NodeInfo) filter(state, pod, node)} returns (and throws what it
 * throws) as long as {@code state} is not written to. The framework binds again after any {@link
 * CycleState#write write} or {@link CycleState#delete delete} on the state and for a {@link
 * CycleState#clone() clone}; when {@code bindFilter} throws it calls {@link #filter} per node
 * instead, so an error surfaces exactly as it would have. The returned check may be called from
 * several threads at once.
 */
public interface CycleBoundFilter extends FilterPlugin {
  /** Returns {@code pod}'s Filter for this cycle, reading {@code state} now; never null. */
  NodeCheck bindFilter(CycleState state, PodInfo pod);

  /** One cycle's Filter of a plugin. */
  @FunctionalInterface
  interface NodeCheck {
    /** Returns the plugin's Filter status for the bound pod on {@code node}. */
    Status filter(NodeInfo node);
  }
}
