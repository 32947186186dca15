package io.kubesched.preemption;

import io.kubesched.framework.Status;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a preemption dry run.
 *
 * @param candidates the candidates, those without budget violations first
 * @param nodeStatuses why preemption does not help on each node that was tried and is no candidate;
 *     held as given behind a read-only view (the dry run records hundreds of nodes per attempt and
 *     reads them only when no candidate is found), so the caller must not change it afterwards
 * @param errors the messages of the nodes whose dry run failed with an error, in no particular
 *     order
 */
public record DryRunResult(
    List<Candidate> candidates, Map<String, Status> nodeStatuses, List<String> errors) {
  /** Copies the lists and wraps the statuses read-only. */
  public DryRunResult {
    candidates = List.copyOf(candidates);
    nodeStatuses = Collections.unmodifiableMap(nodeStatuses);
    errors = List.copyOf(errors);
  }
}
