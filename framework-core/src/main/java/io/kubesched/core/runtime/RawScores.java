package io.kubesched.core.runtime;

import io.kubesched.framework.ScorePlugin;
import java.util.List;

/**
 * The scores of one cycle kept by opportunistic batching, per Score plugin run and per node: the
 * raw scores (before normalising) and, once weighed, the normalised scores packed a byte each, the
 * weights and each node's total. Filled by {@link Framework#runScorePlugins(
 * io.kubesched.framework.CycleState, io.kubesched.framework.PodInfo, List, RawScores, int[],
 * RawScores)}; the next pod of the batch starts from them.
 *
 * <p>The packed scores and totals are shared with the {@link ScoreTable} handed out for that cycle
 * and never written afterwards: a later cycle writes its own copies.
 */
public final class RawScores {
  List<ScorePlugin> plugins = List.of();
  long[][] scores = new long[0][];
  // Filled once the cycle's scores were weighed (null before, and after a removal).
  String[] names;
  byte[] packed;
  long[] weights;
  long[] totals;

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

  /** Returns whether the weighed scores are kept too (so a cycle can update them in place). */
  boolean weighed() {
    return packed != null;
  }

  /** Keeps the weighed scores of a cycle over {@code n} nodes. */
  void weighed(ScoreTable table, int n) {
    names = table.pluginNames();
    packed = table.packed();
    weights = table.weights();
    totals = new long[n];
    table.totals(totals);
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
    // The normalised scores depend on every node's raw score: the next cycle weighs afresh.
    names = null;
    packed = null;
    weights = null;
    totals = null;
  }
}
