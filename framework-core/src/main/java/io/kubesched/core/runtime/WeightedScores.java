package io.kubesched.core.runtime;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import java.util.List;
import java.util.Map;

/**
 * The last step of the Score point (kube's part of {@code RunScorePlugins} after normalising):
 * checks that every normalised score lies in [{@value ScorePlugin#MIN_NODE_SCORE}, {@value
 * ScorePlugin#MAX_NODE_SCORE}] and sums the weighted scores of each node.
 */
final class WeightedScores {
  private WeightedScores() {}

  /**
   * Weighs the normalised scores of one cycle.
   *
   * @param plugins the Score plugins run, in order
   * @param perPlugin the normalised scores of each plugin, in plugin order, over {@code nodes}
   * @param nodes the scored nodes
   * @param weights the weight of every Score plugin, by name
   * @return the scores of each node in node order with Success, or no scores and the Error naming
   *     the first out-of-range score (nodes first, then plugins, as kube reports it)
   */
  static Framework.ScoreOutcome weigh(
      List<ScorePlugin> plugins,
      NodeScores[] perPlugin,
      List<NodeInfo> nodes,
      Map<String, Integer> weights) {
    int n = nodes.size();
    // The normalised scores, checked plugin by plugin to lie within [0, 100], are kept packed a
    // byte each with the weights and each node's total, summed on the way (selectHost reads only
    // the totals); a node's per-plugin map is only built when asked for
    // (NodePluginScores.scores()).
    String[] names = new String[plugins.size()];
    byte[] packed = new byte[plugins.size() * n];
    long[] pluginWeights = new long[plugins.size()];
    long[] totals = new long[n];
    for (int p = 0; p < plugins.size(); p++) {
      ScorePlugin pl = plugins.get(p);
      names[p] = pl.name();
      long[] scores = perPlugin[p].array();
      long weight = weights.get(pl.name());
      pluginWeights[p] = weight;
      int base = p * n;
      for (int i = 0; i < n; i++) {
        long score = scores[i];
        if (score > ScorePlugin.MAX_NODE_SCORE || score < ScorePlugin.MIN_NODE_SCORE) {
          return new Framework.ScoreOutcome(
              List.of(),
              Status.error(
                  "applying score defaultWeights on Score plugins: plugin \""
                      + invalidScorePlugin(plugins, perPlugin, n)
                      + "\" returns an invalid score "
                      + invalidScore(perPlugin, n)
                      + ", it should in the range of ["
                      + ScorePlugin.MIN_NODE_SCORE
                      + ", "
                      + ScorePlugin.MAX_NODE_SCORE
                      + "] after normalizing"));
        }
        packed[base + i] = (byte) score;
        totals[i] += score * weight;
      }
    }
    return new Framework.ScoreOutcome(
        new ScoreTable(
            nodes instanceof FeasibleNodes f ? f.array() : nodes.toArray(new NodeInfo[0]),
            names,
            packed,
            pluginWeights,
            totals),
        Status.success());
  }

  /**
   * Returns the plugin of the first out-of-range score, nodes first then plugins (kube's order).
   */
  private static String invalidScorePlugin(
      List<ScorePlugin> plugins, NodeScores[] perPlugin, int n) {
    int[] at = firstInvalidScore(perPlugin, n);
    return plugins.get(at[0]).name();
  }

  /** Returns the first out-of-range score, nodes first then plugins. */
  private static long invalidScore(NodeScores[] perPlugin, int n) {
    int[] at = firstInvalidScore(perPlugin, n);
    return perPlugin[at[0]].array()[at[1]];
  }

  private static int[] firstInvalidScore(NodeScores[] perPlugin, int n) {
    for (int i = 0; i < n; i++) {
      for (int p = 0; p < perPlugin.length; p++) {
        long score = perPlugin[p].array()[i];
        if (score > ScorePlugin.MAX_NODE_SCORE || score < ScorePlugin.MIN_NODE_SCORE) {
          return new int[] {p, i};
        }
      }
    }
    throw new IllegalStateException("no invalid score");
  }
}
