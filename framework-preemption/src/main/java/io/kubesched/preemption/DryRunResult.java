package io.kubesched.preemption;

import io.kubesched.framework.Status;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a preemption dry run.
 *
 * @param candidates the candidates, those without budget violations first
 * @param nodeStatuses why preemption does not help on each node that was tried and is no candidate
 * @param errors the messages of the nodes whose dry run failed with an error, in no particular
 *     order
 */
public record DryRunResult(
    List<Candidate> candidates, Map<String, Status> nodeStatuses, List<String> errors) {
  /** Copies the components. */
  public DryRunResult {
    candidates = List.copyOf(candidates);
    nodeStatuses = Map.copyOf(nodeStatuses);
    errors = List.copyOf(errors);
  }
}
