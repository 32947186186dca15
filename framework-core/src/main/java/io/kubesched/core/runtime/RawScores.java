package io.kubesched.core.runtime;

import io.kubesched.framework.ScorePlugin;
import java.util.Arrays;
import java.util.List;

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
 * only those. When the changed nodes pass {@link #foldDue}'s limit they are folded into a new base.
 */
public final class RawScores {
  List<ScorePlugin> plugins = List.of();
  long[][] scores = new long[0][];
  // Filled once the cycle's scores were weighed (null before, and after a removal).
  String[] names;
  byte[] packed;
  long[] weights;
  long[] totals;
  // The nodes changed since the base, ascending by position: their positions, their totals and
  // their packed scores (a byte per plugin, node after node). Sorted arrays rather than a tree map:
  // a batched pod reads and adds one or two, and its table copies them all.
  int changedCount;
  int[] changedAt = new int[0];
  long[] changedTotals = new long[0];
  byte[] changedRows = new byte[0];

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
    changedCount = 0;
  }

  /** Returns plugin {@code p}'s normalised score of node {@code i}, changed or from the base. */
  long score(int p, int i) {
    int j = Arrays.binarySearch(changedAt, 0, changedCount, i);
    return j >= 0 ? changedRows[j * names.length + p] : packed[p * totals.length + i];
  }

  /**
   * Sets node {@code i}'s scores apart from the base: its packed scores {@code row[from..from +
   * plugins)} and its {@code total}.
   */
  void change(int i, byte[] row, int from, long total) {
    int plugins = names.length;
    int j = Arrays.binarySearch(changedAt, 0, changedCount, i);
    if (j < 0) {
      j = -j - 1;
      if (changedCount == changedAt.length) {
        int cap = Math.max(8, changedCount * 2);
        changedAt = Arrays.copyOf(changedAt, cap);
        changedTotals = Arrays.copyOf(changedTotals, cap);
        changedRows = Arrays.copyOf(changedRows, cap * plugins);
      }
      int after = changedCount - j;
      System.arraycopy(changedAt, j, changedAt, j + 1, after);
      System.arraycopy(changedTotals, j, changedTotals, j + 1, after);
      System.arraycopy(changedRows, j * plugins, changedRows, (j + 1) * plugins, after * plugins);
      changedCount++;
      changedAt[j] = i;
    }
    changedTotals[j] = total;
    System.arraycopy(row, from, changedRows, j * plugins, plugins);
  }

  /**
   * Returns whether the changed nodes are many enough to fold into a new base. Every table handed
   * out copies the changed nodes and a fold copies every node: folding after at most 64 keeps both
   * small per pod.
   */
  boolean foldDue(int n) {
    return changedCount > Math.max(8, Math.min(n / 8, 64));
  }

  /** Folds the changed nodes into a new base (new arrays; the old ones stay as they were). */
  void fold() {
    if (changedCount == 0) {
      return;
    }
    int n = totals.length;
    int plugins = names.length;
    byte[] nextPacked = packed.clone();
    long[] nextTotals = totals.clone();
    for (int j = 0; j < changedCount; j++) {
      int i = changedAt[j];
      for (int p = 0; p < plugins; p++) {
        nextPacked[p * n + i] = changedRows[j * plugins + p];
      }
      nextTotals[i] = changedTotals[j];
    }
    packed = nextPacked;
    totals = nextTotals;
    changedCount = 0;
  }

  /** Returns the base with the changed nodes as a table over {@code nodes}. */
  ScoreTable table(io.kubesched.framework.NodeInfo[] nodes) {
    int m = changedCount;
    if (m == 0) {
      return new ScoreTable(nodes, names, packed, weights, totals);
    }
    int plugins = names.length;
    byte[] changedPacked = new byte[m * plugins];
    for (int j = 0; j < m; j++) {
      for (int p = 0; p < plugins; p++) {
        changedPacked[p * m + j] = changedRows[j * plugins + p];
      }
    }
    return new ScoreTable(
        nodes,
        names,
        packed,
        weights,
        totals,
        new ScoreTable.Changed(
            Arrays.copyOf(changedAt, m), changedPacked, Arrays.copyOf(changedTotals, m)));
  }

  /**
   * Takes over {@code previous}'s weighed scores (the batch's last state, which this replaces): its
   * arrays move here and {@code previous} keeps no changed node.
   */
  void takeWeighed(RawScores previous) {
    plugins = previous.plugins;
    scores = previous.scores;
    names = previous.names;
    weights = previous.weights;
    packed = previous.packed;
    totals = previous.totals;
    changedCount = previous.changedCount;
    changedAt = previous.changedAt;
    changedTotals = previous.changedTotals;
    changedRows = previous.changedRows;
    previous.changedCount = 0;
    previous.changedAt = new int[0];
    previous.changedTotals = new long[0];
    previous.changedRows = new byte[0];
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
    changedCount = 0;
  }
}
