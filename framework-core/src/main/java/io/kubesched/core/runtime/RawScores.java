package io.kubesched.core.runtime;

import io.kubesched.framework.ScorePlugin;
import java.util.List;

/**
 * The raw (not yet normalised) scores of one cycle, per Score plugin run and per node, kept by
 * opportunistic batching; filled by {@link Framework#runScorePlugins(io.kubesched.framework
 * .CycleState, io.kubesched.framework.PodInfo, List, RawScores, int[], RawScores)}.
 */
public final class RawScores {
  List<ScorePlugin> plugins = List.of();
  long[][] scores = new long[0][];

  /** Returns whether these scores come from {@code active} (by identity, in order) over n nodes. */
  boolean matches(List<ScorePlugin> active, int n) {
    if (active.size() != plugins.size()) {
      return false;
    }
    for (int i = 0; i < active.size(); i++) {
      if (active.get(i) != plugins.get(i) || scores[i].length != n) {
        return false;
      }
    }
    return true;
  }

  /** Removes the node at {@code index}, keeping the others in order. */
  void remove(int index) {
    for (int p = 0; p < scores.length; p++) {
      long[] a = scores[p];
      long[] b = new long[a.length - 1];
      System.arraycopy(a, 0, b, 0, index);
      System.arraycopy(a, index + 1, b, index, a.length - index - 1);
      scores[p] = b;
    }
  }
}
