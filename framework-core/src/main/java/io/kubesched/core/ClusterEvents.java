package io.kubesched.core;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.PodRequests;
import io.kubesched.framework.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Derives the cluster events of a node or pod update (kube's {@code
 * NodeSchedulingPropertiesChange} and {@code PodSchedulingPropertiesChange}), comparing fields
 * semantically: a missing and an empty list or map are equal, quantities compare by value.
 */
final class ClusterEvents {
  /** An assigned pod was added. */
  static final ClusterEvent ASSIGNED_POD_ADD =
      ClusterEvent.of(EventResource.ASSIGNED_POD, ActionType.ADD);
  /** An assigned pod was deleted (or an assumed pod forgotten). */
  static final ClusterEvent ASSIGNED_POD_DELETE =
      ClusterEvent.of(EventResource.ASSIGNED_POD, ActionType.DELETE);
  /** A node was added. */
  static final ClusterEvent NODE_ADD = ClusterEvent.of(EventResource.NODE, ActionType.ADD);
  /** A node was deleted. */
  static final ClusterEvent NODE_DELETE = ClusterEvent.of(EventResource.NODE, ActionType.DELETE);

  private ClusterEvents() {}

  /** Returns the events of a node update, in kube's order; empty when nothing relevant changed. */
  static List<ClusterEvent> nodeSchedulingPropertiesChange(V1Node newNode, V1Node oldNode) {
    List<ClusterEvent> events = new ArrayList<>(2);
    if (unschedulable(newNode) != unschedulable(oldNode) && !unschedulable(newNode)) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_TAINT));
    }
    if (!quantitiesEqual(allocatable(oldNode), allocatable(newNode))) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_ALLOCATABLE));
    }
    if (!mapEqual(newNode.getMetadata().getLabels(), oldNode.getMetadata().getLabels())) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_LABEL));
    }
    if (!taintsEqual(taints(newNode), taints(oldNode))) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_TAINT));
    }
    if (!conditionStatuses(oldNode).equals(conditionStatuses(newNode))) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_CONDITION));
    }
    if (!mapEqual(oldNode.getMetadata().getAnnotations(), newNode.getMetadata().getAnnotations())) {
      events.add(ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_ANNOTATION));
    }
    return events;
  }

  /**
   * Returns the events of a pod update, on {@code AssignedPod} or {@code UnschedulablePod}
   * depending on the new pod; a single {@code updatePodOther} event when nothing specific changed.
   */
  static List<ClusterEvent> podSchedulingPropertiesChange(V1Pod newPod, V1Pod oldPod) {
    String resource =
        isEmpty(nodeName(newPod)) ? EventResource.UNSCHEDULED_POD : EventResource.ASSIGNED_POD;
    List<ClusterEvent> events = new ArrayList<>(2);
    if (!mapEqual(newPod.getMetadata().getLabels(), oldPod.getMetadata().getLabels())) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_LABEL));
    }
    if (scaledDown(newPod, oldPod)) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_SCALE_DOWN));
    }
    if (gates(newPod) == 0 && gates(oldPod) != 0) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED));
    }
    if (tolerationsChanged(newPod, oldPod)) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_TOLERATION));
    }
    if (events.isEmpty()) {
      events.add(ClusterEvent.of(resource, ActionType.UPDATE_POD_OTHER));
    }
    return events;
  }

  private static boolean scaledDown(V1Pod newPod, V1Pod oldPod) {
    Resource oldReq = PodRequests.of(spec(oldPod));
    Resource newReq = PodRequests.of(spec(newPod));
    if (oldReq.milliCpu() > newReq.milliCpu()
        || oldReq.memory() > newReq.memory()
        || oldReq.ephemeralStorage() > newReq.ephemeralStorage()) {
      return true;
    }
    for (Map.Entry<String, Long> e : oldReq.scalarResources().entrySet()) {
      Long now = newReq.scalarResources().get(e.getKey());
      if (now == null || e.getValue() > now) {
        return true;
      }
    }
    return false;
  }

  private static boolean tolerationsChanged(V1Pod newPod, V1Pod oldPod) {
    List<V1Toleration> a = spec(newPod).getTolerations();
    List<V1Toleration> b = spec(oldPod).getTolerations();
    int na = a == null ? 0 : a.size();
    int nb = b == null ? 0 : b.size();
    if (na != nb) {
      return true;
    }
    for (int i = 0; i < na; i++) {
      V1Toleration x = a.get(i);
      V1Toleration y = b.get(i);
      if (!str(x.getKey()).equals(str(y.getKey()))
          || !str(x.getEffect()).equals(str(y.getEffect()))
          || !str(x.getOperator()).equals(str(y.getOperator()))
          || !str(x.getValue()).equals(str(y.getValue()))) {
        return true;
      }
    }
    return false;
  }

  private static int gates(V1Pod pod) {
    return spec(pod).getSchedulingGates() == null ? 0 : spec(pod).getSchedulingGates().size();
  }

  private static boolean unschedulable(V1Node node) {
    return node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
  }

  private static Map<String, Quantity> allocatable(V1Node node) {
    return node.getStatus() == null ? null : node.getStatus().getAllocatable();
  }

  private static List<V1Taint> taints(V1Node node) {
    return node.getSpec() == null ? null : node.getSpec().getTaints();
  }

  private static boolean taintsEqual(List<V1Taint> a, List<V1Taint> b) {
    int na = a == null ? 0 : a.size();
    int nb = b == null ? 0 : b.size();
    if (na != nb) {
      return false;
    }
    for (int i = 0; i < na; i++) {
      V1Taint x = a.get(i);
      V1Taint y = b.get(i);
      if (!str(x.getKey()).equals(str(y.getKey()))
          || !str(x.getValue()).equals(str(y.getValue()))
          || !str(x.getEffect()).equals(str(y.getEffect()))
          || !Objects.equals(
              x.getTimeAdded() == null ? null : x.getTimeAdded().toInstant(),
              y.getTimeAdded() == null ? null : y.getTimeAdded().toInstant())) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, String> conditionStatuses(V1Node node) {
    Map<String, String> out = new HashMap<>();
    if (node.getStatus() != null && node.getStatus().getConditions() != null) {
      for (V1NodeCondition c : node.getStatus().getConditions()) {
        out.put(c.getType(), c.getStatus());
      }
    }
    return out;
  }

  private static boolean quantitiesEqual(Map<String, Quantity> a, Map<String, Quantity> b) {
    int na = a == null ? 0 : a.size();
    int nb = b == null ? 0 : b.size();
    if (na != nb) {
      return false;
    }
    if (na == 0) {
      return true;
    }
    for (Map.Entry<String, Quantity> e : a.entrySet()) {
      Quantity other = b.get(e.getKey());
      if (other == null && e.getValue() == null) {
        continue;
      }
      if (other == null
          || e.getValue() == null
          || e.getValue().getNumber().compareTo(other.getNumber()) != 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean mapEqual(Map<String, String> a, Map<String, String> b) {
    boolean ea = a == null || a.isEmpty();
    boolean eb = b == null || b.isEmpty();
    if (ea || eb) {
      return ea == eb;
    }
    return a.equals(b);
  }

  private static V1PodSpec spec(V1Pod pod) {
    return pod.getSpec() == null ? new V1PodSpec() : pod.getSpec();
  }

  static String nodeName(V1Pod pod) {
    return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
  }

  static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }

  private static String str(String s) {
    return s == null ? "" : s;
  }
}
