package io.kubesched.core.runtime;

import java.util.Map;

/**
 * The scores of one node (kube's {@code framework.NodePluginScores}).
 *
 * @param name the node name
 * @param scores the normalised score of each Score plugin, before weighting, in plugin order
 * @param totalScore the sum of the weighted scores
 */
public record NodePluginScores(String name, Map<String, Long> scores, long totalScore) {
  /** Copies the scores, keeping their order. */
  public NodePluginScores {
    scores =
        scores == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(scores));
  }
}
