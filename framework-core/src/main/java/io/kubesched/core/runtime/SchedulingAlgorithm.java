package io.kubesched.core.runtime;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import java.util.Objects;
import java.util.Random;

/**
 * Finds the node for a pod (kube's {@code schedulePod}, {@code findNodesThatFitPod}, {@code
 * prioritizeNodes} and {@code selectHost}). One instance serves every profile; it keeps the
 * rotating start index of the feasible-node search.
 */
public final class SchedulingAlgorithm {
  private final Random random;

  /** Creates the algorithm; {@code random} breaks ties between best-scored nodes. */
  public SchedulingAlgorithm(Random random) {
    this.random = Objects.requireNonNull(random, "random must not be null");
  }

  /**
   * Schedules {@code pod} with the plugins of {@code fwk} on {@code snapshot}.
   *
   * @throws FitError when no node fits
   * @throws io.kubesched.framework.SchedulingException on an internal error (a plugin's Error)
   */
  public ScheduleResult schedulePod(
      Framework fwk, CycleState state, PodInfo pod, NodeInfoLister snapshot) throws FitError {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
