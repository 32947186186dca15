package io.kubesched.framework;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An optional face of a {@link ScorePlugin}: its Score with the pod's cycle state resolved once per
 * cycle, so the per-node call reads no {@link CycleState} entry.
 *
 * <p>Contract: for every node, {@code bindScore(state, pod).score(node)} returns what {@link
 * #score(CycleState, PodInfo, NodeInfo) score(state, pod, node)} returns (and throws what it
 * throws) as long as {@code state} is not written to. The framework binds after PreScore, once per
 * Score run; when {@code bindScore} throws it calls {@link #score} per node instead, so an error
 * surfaces exactly as it would have. The returned scorer may be called from several threads at
 * once.
 */
public interface CycleBoundScore extends ScorePlugin {
  /** Returns {@code pod}'s Score for this cycle, reading {@code state} now; never null. */
  NodeScorer bindScore(CycleState state, PodInfo pod);

  /** One cycle's Score of a plugin. */
  @FunctionalInterface
  interface NodeScorer {
    /** Returns the plugin's raw score for the bound pod on {@code node}. */
    long score(NodeInfo node);

    /**
     * Scores several nodes at once: for every {@code i} in {@code [from, to)}, sets {@code out[i]}
     * to what {@link #score(NodeInfo) score(nodes.get(i))} returns. The framework calls it on
     * slices of the feasible nodes so that a plugin can run one tight loop over them; the default
     * calls {@link #score} node by node. When it throws, the framework calls {@link #score} node by
     * node over the same slice, so an error surfaces exactly as it would have; an implementation
     * must not write outside {@code out[from..to)}.
     *
     * @param columns the snapshot's flat per-node values, or {@code null} when the nodes are not
     *     rows of it
     * @param rows {@code rows[i]} is {@code nodes.get(i)}'s row in {@code columns}; {@code null}
     *     with it
     */
    default void scoreAll(
        List<NodeInfo> nodes,
        int from,
        int to,
        @Nullable NodeColumns columns,
        int @Nullable [] rows,
        long[] out) {
      for (int i = from; i < to; i++) {
        out[i] = score(nodes.get(i));
      }
    }
  }
}
