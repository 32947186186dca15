package io.kubesched.framework;

/**
 * Score normalisation, implemented next to {@link ScorePlugin}: called once per cycle with all raw
 * scores of the plugin, it rewrites them into [0, 100]. A non-success status fails the cycle.
 */
public interface ScoreExtensions {
  /**
   * Normalises {@code scores} in place; never returns {@code null}. {@code scores} is valid only
   * during the call (the framework reuses its array in later cycles).
   */
  Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores);
}
