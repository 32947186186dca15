package io.kubesched.plugins.interpodaffinity;

import io.kubesched.framework.StateData;

/**
 * What PreScore computes for Score (kube's {@code preScoreState}): score sums by topology pair.
 * Never changed after PreScore.
 */
final class PreScoreState implements StateData {
  final TopologyCounts topologyScore;

  PreScoreState(TopologyCounts topologyScore) {
    this.topologyScore = topologyScore;
  }
}
