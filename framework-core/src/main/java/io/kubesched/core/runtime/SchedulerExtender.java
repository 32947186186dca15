package io.kubesched.core.runtime;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreemptionExtender;
import io.kubesched.framework.SchedulingException;
import java.util.List;
import java.util.Map;

/**
 * An out-of-process scheduler extension (kube's {@code framework.Extender}): consulted after the
 * Filter plugins, during scoring, before the Bind plugins and during preemption; {@code
 * io.kubesched.core.extender.HttpExtender} implements it. Binding and preemption are optional
 * (default methods). The preemption part, {@link PreemptionExtender}, is in {@code framework-api}
 * so that preemption plugins reach the extenders through {@link
 * io.kubesched.framework.FrameworkHandle#extenders()}.
 */
public interface SchedulerExtender extends PreemptionExtender {
  /** The pseudo-plugin name recorded as unschedulable when an extender rejects nodes. */
  String PLUGIN_NAME = Framework.EXTENDER_NAME;

  /** The highest score an extender may give (kube's {@code MaxExtenderPriority}). */
  long MAX_EXTENDER_PRIORITY = 10;

  /** Returns whether the extender filters nodes (has a filter verb). */
  boolean isFilter();

  /** Returns whether the extender scores nodes (has a prioritize verb). */
  boolean isPrioritizer();

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
