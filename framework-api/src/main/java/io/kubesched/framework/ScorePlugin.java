package io.kubesched.framework;

/**
 * A plugin that ranks the feasible nodes.
 *
 * <h2>Contract</h2>
 *
 * Returns a score for the node. Scores are made comparable by {@link ScoreExtensions} (if the
 * plugin implements it), must then lie in [{@link #MIN_NODE_SCORE}, {@link #MAX_NODE_SCORE}], and
 * are multiplied by the plugin's weight from the profile. Throwing fails the cycle with an Error
 * status naming the plugin.
 *
 * <h2>Concurrency</h2>
 *
 * Called in parallel for many nodes; must not allocate per node on hot paths.
 */
public interface ScorePlugin extends Plugin {
  /** The lowest score a node can have after normalisation. */
  long MIN_NODE_SCORE = 0;

  /** The highest score a node can have after normalisation. */
  long MAX_NODE_SCORE = 100;

  /** Returns the raw score of {@code node} for {@code pod}. */
  long score(CycleState state, PodInfo pod, NodeInfo node);
}
