package io.kubesched.core;

import io.kubesched.core.runtime.FitError;
import io.kubesched.core.runtime.ScheduleResult;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import java.util.List;

/**
 * Observes the outcome of the node-selection step of every scheduling attempt, for tooling such as
 * the simulator's {@code --explain} trace. Called on the scheduling thread: keep it cheap.
 */
@FunctionalInterface
public interface SchedulingAttemptListener {
  /** A listener that ignores every attempt. */
  SchedulingAttemptListener NONE = (pod, nodes, result, fitError) -> {};

  /**
   * Called after node selection.
   *
   * @param pod the pod
   * @param nodes the nodes of the cycle's snapshot, in the scheduler's order
   * @param result the selection, or {@code null} when no node fit
   * @param fitError why no node fit (after PostFilter), or {@code null}
   */
  void onAttempt(PodInfo pod, List<NodeInfo> nodes, ScheduleResult result, FitError fitError);
}
