package io.kubesched.framework;

import org.jspecify.annotations.Nullable;

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

    /**
     * Filters several nodes at once: for every {@code k < count}, sets {@code out[k]} to what
     * {@link #filter(NodeInfo) filter(nodes[k])} returns. The framework calls it on the nodes of
     * the snapshot that still pass the plugins before this one, so that a plugin can run one tight
     * loop over them; the default calls {@link #filter} node by node. When it throws, the framework
     * calls {@link #filter} node by node for the same nodes, so an error surfaces exactly as it
     * would have; an implementation must not write anything but {@code out[0..count)}.
     *
     * @param columns the snapshot's flat per-node values, or {@code null} when the nodes are not
     *     rows of it (copies made for nominated pods or preemption, say)
     * @param rows {@code rows[k]} is {@code nodes[k]}'s row in {@code columns}; {@code null} with
     *     it
     */
    default void filterAll(
        NodeInfo[] nodes,
        int count,
        @Nullable NodeColumns columns,
        int @Nullable [] rows,
        Status[] out) {
      for (int k = 0; k < count; k++) {
        out[k] = filter(nodes[k]);
      }
    }

    /**
     * Returns whether {@link #filter} passes every node of {@code columns} (every row's {@link
     * NodeColumns#node node}), as the plugin can tell from values that hold for all rows at once
     * (no row has taints, say). When it does, the framework skips this check on nodes that are rows
     * of {@code columns}; the default answers {@code false}. Called about once per cycle (a few
     * times when threads race); it must not be wrong in the {@code true} direction.
     */
    default boolean passesAllRows(NodeColumns columns) {
      return false;
    }
  }
}
