package io.kubesched.core.queue;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.PodRequests;
import io.kubesched.framework.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster events the scheduler derives from object changes (kube's {@code framework/events.go}
 * and the event handlers), and the queue's own event labels.
 */
public final class ClusterEvents {
  /** A bound pod was added. */
  public static final ClusterEvent ASSIGNED_POD_ADD =
      ClusterEvent.of(EventResource.ASSIGNED_POD, ActionType.ADD);

  /** A bound pod was deleted. */
  public static final ClusterEvent ASSIGNED_POD_DELETE =
      ClusterEvent.of(EventResource.ASSIGNED_POD, ActionType.DELETE);

  /** An unscheduled pod was added. */
  public static final ClusterEvent UNSCHEDULED_POD_ADD =
      ClusterEvent.of(EventResource.UNSCHEDULED_POD, ActionType.ADD);

  /** An unscheduled pod was updated. */
  public static final ClusterEvent UNSCHEDULED_POD_UPDATE =
      ClusterEvent.of(EventResource.UNSCHEDULED_POD, ActionType.UPDATE);

  /** An unscheduled pod was deleted. */
  public static final ClusterEvent UNSCHEDULED_POD_DELETE =
      ClusterEvent.of(EventResource.UNSCHEDULED_POD, ActionType.DELETE);

  /** A node was added. */
  public static final ClusterEvent NODE_ADD = ClusterEvent.of(EventResource.NODE, ActionType.ADD);

  /** A node was deleted. */
  public static final ClusterEvent NODE_DELETE =
      ClusterEvent.of(EventResource.NODE, ActionType.DELETE);

  /** Queue label: a scheduling attempt failed. */
  public static final String SCHEDULE_ATTEMPT_FAILURE = "ScheduleAttemptFailure";

  /** Queue label: a pod's backoff completed. */
  public static final String BACKOFF_COMPLETE = "BackoffComplete";

  /** Queue label: a pod was popped from the backoff queue because the active queue was empty. */
  public static final String POP_FROM_BACKOFF_Q = "PopFromBackoffQ";

  /** Queue label: a pod was activated explicitly. */
  public static final String FORCE_ACTIVATE = "ForceActivate";

  private ClusterEvents() {}

  /**
   * Returns the events of a pod update, in kube's order: label change, request scale-down,
   * scheduling gates eliminated, toleration added; {@code updatePodOther} when none applies. The
   * resource is {@code AssignedPod} when the new pod has a node, else {@code UnschedulablePod}.
   */
  public static List<ClusterEvent> podSchedulingPropertiesChange(V1Pod newPod, V1Pod oldPod) {
    String resource =
        newPod.getSpec() != null
                && newPod.getSpec().getNodeName() != null
                && !newPod.getSpec().getNodeName().isEmpty()
            ? EventResource.ASSIGNED_POD
            : EventResource.UNSCHEDULED_POD;
    List<ClusterEvent> events = new ArrayList<>(2);
    if (!sameMap(labels(newPod), labels(oldPod))) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_LABEL));
    }
    if (scaledDown(newPod, oldPod)) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_SCALE_DOWN));
    }
    if (size(gates(newPod)) == 0 && size(gates(oldPod)) != 0) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED));
    }
    if (size(tolerations(newPod)) != size(tolerations(oldPod))) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_TOLERATION));
    }
    if (events.isEmpty()) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_OTHER));
    }
    return events;
  }

  /**
   * Returns the events of a node update, in kube's order: became schedulable (reported as
   * UpdateNodeTaint), allocatable, labels, taints, conditions (type to status), annotations. Empty
   * when nothing the scheduler cares about changed.
   */
  public static List<ClusterEvent> nodeSchedulingPropertiesChange(V1Node newNode, V1Node oldNode) {
    List<ClusterEvent> events = new ArrayList<>(2);
    boolean newUnsched =
        newNode.getSpec() != null && Boolean.TRUE.equals(newNode.getSpec().getUnschedulable());
    boolean oldUnsched =
        oldNode.getSpec() != null && Boolean.TRUE.equals(oldNode.getSpec().getUnschedulable());
    if (newUnsched != oldUnsched && !newUnsched) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_TAINT));
    }
    if (!sameQuantities(allocatable(newNode), allocatable(oldNode))) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_ALLOCATABLE));
    }
    if (!sameMap(nodeLabels(newNode), nodeLabels(oldNode))) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_LABEL));
    }
    if (!sameList(taints(newNode), taints(oldNode))) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_TAINT));
    }
    if (!conditions(newNode).equals(conditions(oldNode))) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_CONDITION));
    }
    if (!sameMap(nodeAnnotations(newNode), nodeAnnotations(oldNode))) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_ANNOTATION));
    }
    return events;
  }

  private static boolean scaledDown(V1Pod newPod, V1Pod oldPod) {
    if (oldPod.getSpec() == null) {
      return false;
    }
    Resource oldReq = PodRequests.of(oldPod.getSpec());
    Resource newReq = newPod.getSpec() == null ? Resource.zero() : PodRequests.of(newPod.getSpec());
    if (oldReq.milliCpu() > newReq.milliCpu()
        || oldReq.memory() > newReq.memory()
        || oldReq.ephemeralStorage() > newReq.ephemeralStorage()) {
      return true;
    }
    for (Map.Entry<String, Long> e : oldReq.scalarResources().entrySet()) {
      if (e.getValue() > newReq.scalar(e.getKey())) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, String> labels(V1Pod p) {
    return p.getMetadata() == null ? null : p.getMetadata().getLabels();
  }

  private static List<?> gates(V1Pod p) {
    return p.getSpec() == null ? null : p.getSpec().getSchedulingGates();
  }

  private static List<?> tolerations(V1Pod p) {
    return p.getSpec() == null ? null : p.getSpec().getTolerations();
  }

  private static int size(List<?> l) {
    return l == null ? 0 : l.size();
  }

  private static Map<String, String> nodeLabels(V1Node n) {
    return n.getMetadata() == null ? null : n.getMetadata().getLabels();
  }

  private static Map<String, String> nodeAnnotations(V1Node n) {
    return n.getMetadata() == null ? null : n.getMetadata().getAnnotations();
  }

  private static Map<String, Quantity> allocatable(V1Node n) {
    return n.getStatus() == null ? null : n.getStatus().getAllocatable();
  }

  private static List<V1Taint> taints(V1Node n) {
    return n.getSpec() == null ? null : n.getSpec().getTaints();
  }

  private static Map<String, String> conditions(V1Node n) {
    Map<String, String> out = new HashMap<>();
    if (n.getStatus() != null && n.getStatus().getConditions() != null) {
      for (V1NodeCondition c : n.getStatus().getConditions()) {
        out.put(c.getType(), c.getStatus());
      }
    }
    return out;
  }

  /** Compares like kube's semantic equality: a {@code null} map equals an empty one. */
  private static boolean sameMap(Map<String, String> a, Map<String, String> b) {
    boolean ea = a == null || a.isEmpty();
    boolean eb = b == null || b.isEmpty();
    if (ea || eb) {
      return ea == eb;
    }
    return a.equals(b);
  }

  private static boolean sameList(List<?> a, List<?> b) {
    boolean ea = a == null || a.isEmpty();
    boolean eb = b == null || b.isEmpty();
    if (ea || eb) {
      return ea == eb;
    }
    return a.equals(b);
  }

  private static boolean sameQuantities(Map<String, Quantity> a, Map<String, Quantity> b) {
    boolean ea = a == null || a.isEmpty();
    boolean eb = b == null || b.isEmpty();
    if (ea || eb) {
      return ea == eb;
    }
    if (!a.keySet().equals(b.keySet())) {
      return false;
    }
    for (Map.Entry<String, Quantity> e : a.entrySet()) {
      Quantity other = b.get(e.getKey());
      if (e.getValue() == null || other == null) {
        if (e.getValue() != other) {
          return false;
        }
      } else if (e.getValue().getNumber().compareTo(other.getNumber()) != 0) {
        return false;
      }
    }
    return true;
  }
}
