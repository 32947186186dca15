package io.kubesched.core.runtime;

import io.kubesched.framework.NodeInfo;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The scores of one cycle's nodes as a read-only list of {@link NodePluginScores}, backed by the
 * normalised scores packed a byte each and the plugins' weights: scheduling reads only the totals
 * ({@link #totals}), so no object is made per node unless someone reads an element (explain
 * tooling, tests).
 */
final class ScoreTable extends AbstractList<NodePluginScores> implements RandomAccess {
  private final NodeInfo[] nodes;
  private final String[] plugins;
  private final byte[] byPlugin;
  private final long[] weights;
  private final long[] totals;
  private final Changed changed;

  /**
   * Nodes whose scores differ from the shared arrays (opportunistic batching's later pods): their
   * positions, ascending; their packed scores, plugin {@code p}'s score of the {@code j}th at
   * {@code p * at.length + j}; their totals.
   */
  record Changed(int[] at, byte[] packed, long[] totals) {}

  /**
   * Creates the table; the arrays are shared, not copied, and must not change afterwards.
   *
   * @param nodes the scored nodes, in node order (their names are read when asked for)
   * @param plugins the Score plugins' names, in plugin order
   * @param byPlugin the normalised scores, each in [0, 100], plugin after plugin: plugin {@code
   *     p}'s score of node {@code i} at {@code p * nodes.length + i}
   * @param weights each plugin's weight, in plugin order (a node's total is computed when read)
   */
  ScoreTable(NodeInfo[] nodes, String[] plugins, byte[] byPlugin, long[] weights) {
    this(nodes, plugins, byPlugin, weights, null);
  }

  /**
   * Creates the table with each node's weighted total already summed ({@code totals}, shared and
   * never changed afterwards either), or {@code null} to sum them when read.
   */
  ScoreTable(NodeInfo[] nodes, String[] plugins, byte[] byPlugin, long[] weights, long[] totals) {
    this(nodes, plugins, byPlugin, weights, totals, null);
  }

  /**
   * Creates the table of the shared arrays (totals summed, not {@code null}) except for the {@code
   * changed} nodes, whose scores are given apart.
   */
  ScoreTable(
      NodeInfo[] nodes,
      String[] plugins,
      byte[] byPlugin,
      long[] weights,
      long[] totals,
      Changed changed) {
    this.nodes = nodes;
    this.plugins = plugins;
    this.byPlugin = byPlugin;
    this.weights = weights;
    this.totals = totals;
    this.changed = changed;
  }

  /** The plugins' names, in plugin order (shared). */
  String[] pluginNames() {
    return plugins;
  }

  /** The packed normalised scores (shared; see the constructor). */
  byte[] packed() {
    return byPlugin;
  }

  /** The plugins' weights, in plugin order (shared). */
  long[] weights() {
    return weights;
  }

  /** Returns {@code scores} unchanged when it is a table (immutable already), else a copy. */
  static List<NodePluginScores> immutable(List<NodePluginScores> scores) {
    if (scores == null) {
      return List.of();
    }
    return scores instanceof ScoreTable ? scores : List.copyOf(scores);
  }

  @Override
  public NodePluginScores get(int index) {
    int j = changed == null ? -1 : java.util.Arrays.binarySearch(changed.at(), index);
    if (j >= 0) {
      return new NodePluginScores(
          nodes[index].name(),
          plugins,
          changed.packed(),
          changed.at().length,
          j,
          changed.totals()[j]);
    }
    return new NodePluginScores(
        nodes[index].name(), plugins, byPlugin, nodes.length, index, total(index));
  }

  @Override
  public int size() {
    return nodes.length;
  }

  /** Returns the name of node {@code index}. */
  String name(int index) {
    return nodes[index].name();
  }

  /** Sets {@code out[i]} to the weighted total of node {@code i}, for every node. */
  void totals(long[] out) {
    int n = nodes.length;
    if (totals != null) {
      System.arraycopy(totals, 0, out, 0, n);
      if (changed != null) {
        int[] at = changed.at();
        for (int j = 0; j < at.length; j++) {
          out[at[j]] = changed.totals()[j];
        }
      }
      return;
    }
    java.util.Arrays.fill(out, 0, n, 0L);
    for (int p = 0; p < weights.length; p++) {
      long w = weights[p];
      int base = p * n;
      for (int i = 0; i < n; i++) {
        out[i] += byPlugin[base + i] * w;
      }
    }
  }

  /** Returns the weighted total of node {@code index}. */
  long total(int index) {
    int j = changed == null ? -1 : java.util.Arrays.binarySearch(changed.at(), index);
    if (j >= 0) {
      return changed.totals()[j];
    }
    if (totals != null) {
      return totals[index];
    }
    long total = 0;
    int n = nodes.length;
    for (int p = 0; p < weights.length; p++) {
      total += byPlugin[p * n + index] * weights[p];
    }
    return total;
  }
}
