package io.kubesched.plugins.schedulinggates;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.EventObjects;
import java.util.List;
import java.util.Objects;

/**
 * {@code SchedulingGates} is the PreEnqueue plugin that keeps a pod out of the active queue while
 * it has scheduling gates ({@code spec.schedulingGates}).
 */
public final class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  /** The plugin's name. */
  public static final String NAME = PluginNames.SCHEDULING_GATES;

  /** The prefix of the reason; the gate names follow as {@code [g1 g2]}. */
  public static final String REASON_PREFIX = "waiting for scheduling gates: ";

  /** Creates the plugin. */
  public SchedulingGates() {}

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Returns success for a pod without gates, else {@code UnschedulableAndUnresolvable} with {@code
   * waiting for scheduling gates: [g1 g2]} (Go's {@code %v} of a string slice).
   */
  @Override
  public Status preEnqueue(PodInfo pod) {
    List<String> gates = pod.schedulingGates();
    if (gates.isEmpty()) {
      return Status.success();
    }
    return Status.unresolvable(REASON_PREFIX + "[" + String.join(" ", gates) + "]");
  }

  /** Registers the removal of a pod's last scheduling gate, for that pod only. */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.POD,
            ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED,
            SchedulingGates::isSchedulableAfterGatesEliminated));
  }

  static QueueingHint isSchedulableAfterGatesEliminated(V1Pod pod, Object oldObj, Object newObj) {
    V1Pod modified = EventObjects.required(V1Pod.class, newObj);
    return Objects.equals(uid(modified), uid(pod)) ? QueueingHint.QUEUE : QueueingHint.SKIP;
  }

  private static String uid(V1Pod p) {
    return p.getMetadata() == null ? null : p.getMetadata().getUid();
  }
}
