package io.kubesched.core.runtime;

import java.util.List;

/**
 * The outcome of a successful {@link SchedulingAlgorithm#schedulePod} (kube's {@code
 * ScheduleResult}), with the per-node scores kept for explain tooling.
 *
 * @param suggestedHost the chosen node
 * @param evaluatedNodes the nodes evaluated: the feasible ones plus those with a filter status
 * @param feasibleNodes the nodes that passed Filter
 * @param scores the scores of the feasible nodes, empty when the single feasible node was taken
 *     without scoring
 * @param filterStatuses the statuses of the rejected nodes
 */
public record ScheduleResult(
    String suggestedHost,
    int evaluatedNodes,
    int feasibleNodes,
    List<NodePluginScores> scores,
    NodeToStatus filterStatuses) {
  /** Copies the scores. */
  public ScheduleResult {
    scores = ScoreTable.immutable(scores);
    filterStatuses = filterStatuses == null ? new NodeToStatus() : filterStatuses;
  }
}
