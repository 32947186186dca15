package io.kubesched.framework;

import java.util.List;
import java.util.Map;

/**
 * The part of a scheduler extender (kube's {@code framework.Extender}) that preemption plugins use:
 * a preemption-capable extender narrows the candidate nodes and victims of a preemption. Plugins
 * get the scheduler's extenders from {@link FrameworkHandle#extenders()}; the engine's extender
 * interface extends this one.
 */
public interface PreemptionExtender {
  /** Returns a name for logs and score reports, e.g. the URL prefix. */
  String name();

  /** Returns whether errors of this extender are skipped instead of failing the cycle. */
  boolean isIgnorable();

  /** Returns whether the extender cares about {@code pod} (its managed resources). */
  boolean isInterested(PodInfo pod);

  /** Returns whether the extender takes part in preemption (has a preempt verb); default no. */
  default boolean supportsPreemption() {
    return false;
  }

  /**
   * Narrows the preemption candidates (kube's {@code ProcessPreemption}): returns the nodes the
   * extender agrees to preempt on, with the victims it chose there.
   *
   * @param pod the preemptor
   * @param nodeNameToVictims the candidates of the dry run, by node name
   * @param nodeInfos the snapshot, to resolve the victims the extender names
   * @throws SchedulingException when the extender fails or names unknown nodes or pods
   */
  default Map<String, Victims> processPreemption(
      PodInfo pod, Map<String, Victims> nodeNameToVictims, NodeInfoLister nodeInfos) {
    throw new SchedulingException("preempt verb is not defined for extender " + name());
  }

  /**
   * The pods to evict on one node (kube's {@code extenderv1.Victims}).
   *
   * @param pods the victims, most important first
   * @param numPdbViolations how many of them are evicted against a disruption budget
   */
  record Victims(List<PodInfo> pods, long numPdbViolations) {
    /** Copies the pods. */
    public Victims {
      pods = pods == null ? List.of() : List.copyOf(pods);
    }
  }
}
