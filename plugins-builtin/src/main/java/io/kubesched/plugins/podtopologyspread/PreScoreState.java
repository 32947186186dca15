package io.kubesched.plugins.podtopologyspread;

import io.kubesched.framework.StateData;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What PreScore computes for Score and NormalizeScore (kube's {@code preScoreState}). Never changed
 * after PreScore, so {@link #copy()} returns itself.
 */
final class PreScoreState implements StateData {
  final SpreadConstraint[] constraints;

  /** Whether each constraint's key is the hostname label (counted per node). */
  final boolean[] hostname;

  /** The feasible nodes lacking a topology key (scored 0) when all keys are required. */
  final Set<String> ignoredNodes;

  /** Per constraint: matching pods by topology value, or by node name for hostname keys. */
  final ValueCounts[] counts;

  /** Per constraint: {@code ln(domains + 2)}. */
  final double[] weights;

  /**
   * The nodes PreScore got (by identity) and each one's raw score, computed there from the values
   * it read anyway; {@code null} when not computed. The Score of that very list reads them.
   */
  final java.util.@Nullable List<io.kubesched.framework.NodeInfo> scored;

  final long @Nullable [] rawScores;

  PreScoreState(
      SpreadConstraint[] constraints,
      boolean[] hostname,
      Set<String> ignoredNodes,
      ValueCounts[] counts,
      double[] weights) {
    this(constraints, hostname, ignoredNodes, counts, weights, null, null);
  }

  PreScoreState(
      SpreadConstraint[] constraints,
      boolean[] hostname,
      Set<String> ignoredNodes,
      ValueCounts[] counts,
      double[] weights,
      java.util.@Nullable List<io.kubesched.framework.NodeInfo> scored,
      long @Nullable [] rawScores) {
    this.constraints = constraints;
    this.hostname = hostname;
    this.ignoredNodes = ignoredNodes;
    this.counts = counts;
    this.weights = weights;
    this.scored = scored;
    this.rawScores = rawScores;
  }
}
