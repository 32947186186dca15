package io.kubesched.framework;

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
  }
}
