package io.kubesched.core.runtime;

import com.google.common.collect.ImmutableMap;
import java.util.Map;
import java.util.Objects;

/**
 * The scores of one node (kube's {@code framework.NodePluginScores}): its name, the normalised
 * score of each Score plugin before weighting, and the weighted total.
 *
 * <p>A value class with record semantics ({@code equals}, {@code hashCode} and {@code toString}
 * over the three components). The framework builds the per-plugin map only when {@link #scores()}
 * is asked for (explain tooling): scheduling itself needs only the total, and a map per node per
 * pod would dominate the cost of scoring.
 */
public final class NodePluginScores {
  private final String name;
  private final long totalScore;
  private final String[] plugins;
  private final byte[] byPlugin;
  private final int nodes;
  private final int index;
  private volatile Map<String, Long> scores;

  /**
   * Creates the scores of node {@code name}.
   *
   * @param name the node name
   * @param scores the normalised score of each Score plugin, before weighting, in plugin order
   *     (copied; {@code null} means none)
   * @param totalScore the sum of the weighted scores
   */
  public NodePluginScores(String name, Map<String, Long> scores, long totalScore) {
    this.name = name;
    this.totalScore = totalScore;
    this.plugins = null;
    this.byPlugin = null;
    this.nodes = 0;
    this.index = 0;
    this.scores = scores == null ? ImmutableMap.of() : ImmutableMap.copyOf(scores);
  }

  /**
   * Creates the scores of node {@code name} whose plugin {@code p}'s score is {@code byPlugin[p *
   * nodes + index]}; the arrays are shared by every node of the cycle and must not change.
   */
  NodePluginScores(
      String name, String[] plugins, byte[] byPlugin, int nodes, int index, long totalScore) {
    this.name = name;
    this.totalScore = totalScore;
    this.plugins = plugins;
    this.byPlugin = byPlugin;
    this.nodes = nodes;
    this.index = index;
  }

  /** Returns the node name. */
  public String name() {
    return name;
  }

  /** Returns the normalised score of each Score plugin, before weighting, in plugin order. */
  public Map<String, Long> scores() {
    Map<String, Long> s = scores;
    if (s == null) {
      ImmutableMap.Builder<String, Long> m = ImmutableMap.builderWithExpectedSize(plugins.length);
      for (int p = 0; p < plugins.length; p++) {
        m.put(plugins[p], (long) byPlugin[p * nodes + index]);
      }
      s = m.buildOrThrow();
      scores = s;
    }
    return s;
  }

  /** Returns the sum of the weighted scores. */
  public long totalScore() {
    return totalScore;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NodePluginScores other
        && totalScore == other.totalScore
        && Objects.equals(name, other.name)
        && scores().equals(other.scores());
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, scores(), totalScore);
  }

  @Override
  public String toString() {
    return "NodePluginScores[name="
        + name
        + ", scores="
        + scores()
        + ", totalScore="
        + totalScore
        + "]";
  }
}
