package io.kubesched.core.runtime;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import java.util.List;
import java.util.Map;

/**
 * An out-of-process scheduler extension (kube's {@code framework.Extender}): consulted after the
 * Filter plugins, during scoring, before the Bind plugins and during preemption; {@code
 * io.kubesched.core.extender.HttpExtender} implements it. Binding and preemption are optional
 * (default methods).
 */
public interface SchedulerExtender {
  /** The pseudo-plugin name recorded as unschedulable when an extender rejects nodes. */
  String PLUGIN_NAME = Framework.EXTENDER_NAME;

  /** The highest score an extender may give (kube's {@code MaxExtenderPriority}). */
  long MAX_EXTENDER_PRIORITY = 10;

  /** Returns a name for logs and score reports, e.g. the URL prefix. */
  String name();

  /** Returns whether the extender filters nodes (has a filter verb). */
  boolean isFilter();

  /** Returns whether the extender scores nodes (has a prioritize verb). */
  boolean isPrioritizer();

  /** Returns whether errors of this extender are skipped instead of failing the cycle. */
  boolean isIgnorable();

  /** Returns whether the extender cares about {@code pod} (its managed resources). */
  boolean isInterested(PodInfo pod);

  /** Returns the weight its scores are multiplied by. */
  long weight();

  /**
   * Filters {@code nodes} for {@code pod}.
   *
   * @throws SchedulingException when the extender fails or answers with an error
   */
  FilterResult filter(PodInfo pod, List<NodeInfo> nodes);

  /**
   * Scores {@code nodes} for {@code pod} in [0, {@link #MAX_EXTENDER_PRIORITY}].
   *
   * @return the score of each node by name
   * @throws SchedulingException when the extender fails
   */
  Map<String, Long> prioritize(PodInfo pod, List<NodeInfo> nodes);

  /** Returns whether the extender binds pods (has a bind verb); default {@code false}. */
  default boolean isBinder() {
    return false;
  }

  /**
   * Binds {@code pod} to {@code node} instead of the Bind plugins.
   *
   * @throws SchedulingException when the extender fails or answers with an error
   */
  default void bind(PodInfo pod, String node) {
    throw new SchedulingException("unexpected empty bindVerb in extender");
  }

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

  /**
   * What an extender's filter returns.
   *
   * @param feasible the nodes that passed, replacing the input list
   * @param failed the nodes rejected as Unschedulable, with their message
   * @param failedAndUnresolvable the nodes rejected as UnschedulableAndUnresolvable (taking
   *     precedence over {@code failed})
   */
  record FilterResult(
      List<NodeInfo> feasible,
      Map<String, String> failed,
      Map<String, String> failedAndUnresolvable) {
    /** Copies the components. */
    public FilterResult {
      feasible = feasible == null ? List.of() : List.copyOf(feasible);
      failed = failed == null ? Map.of() : Map.copyOf(failed);
      failedAndUnresolvable =
          failedAndUnresolvable == null ? Map.of() : Map.copyOf(failedAndUnresolvable);
    }
  }
}
