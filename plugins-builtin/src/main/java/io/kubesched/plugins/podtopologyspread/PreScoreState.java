package io.kubesched.plugins.podtopologyspread;

import io.kubesched.framework.StateData;
import java.util.Set;

/**
 * What PreScore computes for Score and NormalizeScore (kube's {@code preScoreState}). Never
 * changed after PreScore, so {@link #copy()} returns itself.
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

  PreScoreState(
      SpreadConstraint[] constraints,
      boolean[] hostname,
      Set<String> ignoredNodes,
      ValueCounts[] counts,
      double[] weights) {
    this.constraints = constraints;
    this.hostname = hostname;
    this.ignoredNodes = ignoredNodes;
    this.counts = counts;
    this.weights = weights;
  }
}
