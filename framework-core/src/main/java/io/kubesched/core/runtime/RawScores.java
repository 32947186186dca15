package io.kubesched.core.runtime;

import io.kubesched.framework.ScorePlugin;
import java.util.List;
import java.util.TreeMap;

/**
 * The scores of one cycle kept by opportunistic batching, per Score plugin run and per node: the
 * raw scores (before normalising) and, once weighed, the normalised scores packed a byte each with
 * the weights and each node's total. Filled by {@link Framework#runScorePlugins(
 * io.kubesched.framework.CycleState, io.kubesched.framework.PodInfo, List, RawScores, int[],
 * RawScores)}; the next pod of the batch starts from them.
 *
 * <p>The weighed scores are a base (packed scores and totals, shared with the {@link ScoreTable}s
 * handed out and never written) plus the nodes whose scores changed since, each with its own packed
 * scores and total: a batched pod changes a node or two, so its table shares the base and copies
 * only those. When the changed nodes pass an eighth of the nodes they are folded into a new base.
 */
public final class RawScores {
  List<ScorePlugin> plugins = List.of();
  long[][] scores = new long[0][];
  // Filled once the cycle's scores were weighed (null before, and after a removal).
  String[] names;
  byte[] packed;
  long[] weights;
  long[] totals;
  // The nodes changed since the base, by position: their packed scores (a byte per plugin) and
  // their total.
  TreeMap<Integer, Changed> changed = new TreeMap<>();

  /** A node's scores that differ from the base. */
  record Changed(byte[] packed, long total) {}

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

  /** Returns whether the weighed scores are kept too (so a cycle can update them). */
  boolean weighed() {
    return packed != null;
  }

  /** Keeps the weighed scores of a cycle over {@code n} nodes as the base. */
  void weighed(ScoreTable table, int n) {
    names = table.pluginNames();
    packed = table.packed();
    weights = table.weights();
    totals = new long[n];
    table.totals(totals);
    changed.clear();
  }

  /** Returns plugin {@code p}'s normalised score of node {@code i}, changed or from the base. */
  long score(int p, int i) {
    Changed c = changed.get(i);
    return c != null ? c.packed()[p] : packed[p * totals.length + i];
  }

  /** Returns whether the changed nodes are many enough to fold into a new base. */
  boolean foldDue(int n) {
    return changed.size() > Math.max(8, n / 8);
  }

  /** Folds the changed nodes into a new base (new arrays; the old ones stay as they were). */
  void fold() {
    if (changed.isEmpty()) {
      return;
    }
    int n = totals.length;
    byte[] nextPacked = packed.clone();
    long[] nextTotals = totals.clone();
    changed.forEach(
        (i, c) -> {
          for (int p = 0; p < names.length; p++) {
            nextPacked[p * n + i] = c.packed()[p];
          }
          nextTotals[i] = c.total();
        });
    packed = nextPacked;
    totals = nextTotals;
    changed.clear();
  }

  /** Returns the base with the changed nodes as a table over {@code nodes}. */
  ScoreTable table(io.kubesched.framework.NodeInfo[] nodes) {
    if (changed.isEmpty()) {
      return new ScoreTable(nodes, names, packed, weights, totals);
    }
    int m = changed.size();
    int[] at = new int[m];
    long[] changedTotals = new long[m];
    byte[] changedPacked = new byte[m * names.length];
    int j = 0;
    for (var e : changed.entrySet()) {
      at[j] = e.getKey();
      changedTotals[j] = e.getValue().total();
      byte[] row = e.getValue().packed();
      for (int p = 0; p < row.length; p++) {
        changedPacked[p * m + j] = row[p];
      }
      j++;
    }
    return new ScoreTable(
        nodes,
        names,
        packed,
        weights,
        totals,
        new ScoreTable.Changed(at, changedPacked, changedTotals));
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
    changed.clear();
  }
}
