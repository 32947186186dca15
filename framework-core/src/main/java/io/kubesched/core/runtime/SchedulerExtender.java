package io.kubesched.core.runtime;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import java.util.List;
import java.util.Map;

/**
 * An out-of-process scheduler extension consulted after the Filter plugins and during scoring
 * (the filter and prioritize part of kube's {@code framework.Extender}); the HTTP extender
 * implements it. Binding and preemption through extenders are not part of this interface.
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

  /**
   * What an extender's filter returns.
   *
   * @param feasible the nodes that passed, replacing the input list
   * @param failed the nodes rejected as Unschedulable, with their message
   * @param failedAndUnresolvable the nodes rejected as UnschedulableAndUnresolvable (taking
   *     precedence over {@code failed})
   */
  record FilterResult(
      List<NodeInfo> feasible, Map<String, String> failed, Map<String, String> failedAndUnresolvable) {
    /** Copies the components. */
    public FilterResult {
      feasible = feasible == null ? List.of() : List.copyOf(feasible);
      failed = failed == null ? Map.of() : Map.copyOf(failed);
      failedAndUnresolvable =
          failedAndUnresolvable == null ? Map.of() : Map.copyOf(failedAndUnresolvable);
    }
  }
}
