package io.kubesched.core.cluster;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The API server's defaulting and admission that scheduling depends on, as {@link InMemoryCluster}
 * applies them to the objects it stores: a pod's priority from its PriorityClass (or the global
 * default), its default scheduler name, phase, DefaultTolerationSeconds tolerations, the
 * SchedulingGated condition, requests defaulted from limits and port defaults; a node's allocatable
 * from its capacity; a namespace's {@code kubernetes.io/metadata.name} label.
 */
final class Admission {
  /** The label the API server gives every namespace: its name. */
  static final String LABEL_METADATA_NAME = "kubernetes.io/metadata.name";

  private static final String SYSTEM_CLUSTER_CRITICAL = "system-cluster-critical";
  private static final String SYSTEM_NODE_CRITICAL = "system-node-critical";
  private static final int SYSTEM_CLUSTER_CRITICAL_VALUE = 2000000000;
  private static final int SYSTEM_NODE_CRITICAL_VALUE = 2000001000;
  private static final String PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority";
  private static final String TAINT_NOT_READY = "node.kubernetes.io/not-ready";
  private static final String TAINT_UNREACHABLE = "node.kubernetes.io/unreachable";
  private static final long DEFAULT_TOLERATION_SECONDS = 300L;
  private static final String DEFAULT_SCHEDULER_NAME =
      io.kubesched.framework.SchedulerConstants.DEFAULT_SCHEDULER_NAME;

  private Admission() {}

  /**
   * Admits a pod being created (a copy the caller owns): fills the defaults, then resolves {@code
   * spec.priority}, when unset, from {@code spec.priorityClassName} or the global-default class
   * among {@code priorityClasses} (by name); stamps conditions from {@code clock}.
   *
   * @throws ClusterException {@code FORBIDDEN} when the pod names an unknown priority class
   */
  static void admitPod(V1Pod pod, Map<String, KubernetesObject> priorityClasses, Clock clock) {
    if (pod.getSpec() == null) {
      pod.setSpec(new V1PodSpec());
    }
    V1PodSpec spec = pod.getSpec();
    if (pod.getStatus() == null || pod.getStatus().getPhase() == null) {
      PodConditions.status(pod).setPhase("Pending");
    }
    if (spec.getSchedulerName() == null || spec.getSchedulerName().isEmpty()) {
      spec.setSchedulerName(DEFAULT_SCHEDULER_NAME);
    }
    applySchedulingGatedCondition(pod, clock);
    applyPodDefaults(spec);
    applyDefaultTolerationSeconds(spec);
    if (spec.getPriority() != null) {
      return;
    }
    String className = spec.getPriorityClassName();
    int value;
    String policy;
    if (className == null || className.isEmpty()) {
      V1PriorityClass def = null;
      for (KubernetesObject o : priorityClasses.values()) {
        V1PriorityClass pc = (V1PriorityClass) o;
        if (Boolean.TRUE.equals(pc.getGlobalDefault())
            && (def == null || def.getValue() > pc.getValue())) {
          def = pc;
        }
      }
      if (def == null) {
        value = 0;
        policy = PREEMPT_LOWER_PRIORITY;
      } else {
        spec.setPriorityClassName(def.getMetadata().getName());
        value = def.getValue();
        policy = def.getPreemptionPolicy();
      }
    } else {
      V1PriorityClass pc = (V1PriorityClass) priorityClasses.get(className);
      if (pc != null) {
        value = pc.getValue();
        policy = pc.getPreemptionPolicy();
      } else if (SYSTEM_CLUSTER_CRITICAL.equals(className)) {
        value = SYSTEM_CLUSTER_CRITICAL_VALUE;
        policy = PREEMPT_LOWER_PRIORITY;
      } else if (SYSTEM_NODE_CRITICAL.equals(className)) {
        value = SYSTEM_NODE_CRITICAL_VALUE;
        policy = PREEMPT_LOWER_PRIORITY;
      } else {
        throw new ClusterException(
            ClusterException.Reason.FORBIDDEN,
            "pods \""
                + pod.getMetadata().getName()
                + "\" is forbidden: no PriorityClass with name "
                + className
                + " was found");
      }
    }
    spec.setPriority(value);
    if (policy != null && spec.getPreemptionPolicy() == null) {
      spec.setPreemptionPolicy(policy);
    }
  }

  /**
   * Defaults {@code status.allocatable} to the capacity when it is absent (or empty: client-java
   * cannot tell the two apart), as the API server does.
   */
  static void defaultNodeStatus(V1Node node) {
    if (node.getStatus() != null
        && (node.getStatus().getAllocatable() == null
            || node.getStatus().getAllocatable().isEmpty())
        && node.getStatus().getCapacity() != null) {
      node.getStatus().setAllocatable(new LinkedHashMap<>(node.getStatus().getCapacity()));
    }
  }

  /** Labels a namespace with {@code kubernetes.io/metadata.name=NAME}. */
  static void labelNamespace(V1ObjectMeta meta) {
    meta.putLabelsItem(LABEL_METADATA_NAME, meta.getName());
  }

  /**
   * Adds {@code PodScheduled=False} with reason {@code SchedulingGated} to a gated pod that has no
   * PodScheduled condition yet, as the API server does when such a pod is created.
   */
  private static void applySchedulingGatedCondition(V1Pod pod, Clock clock) {
    if (pod.getSpec().getSchedulingGates() == null
        || pod.getSpec().getSchedulingGates().isEmpty()) {
      return;
    }
    List<V1PodCondition> conditions = pod.getStatus().getConditions();
    if (conditions != null) {
      for (V1PodCondition c : conditions) {
        if (InMemoryCluster.POD_SCHEDULED.equals(c.getType())) {
          return;
        }
      }
    }
    PodConditions.set(
        pod,
        new V1PodCondition()
            .type(InMemoryCluster.POD_SCHEDULED)
            .status("False")
            .reason(InMemoryCluster.REASON_SCHEDULING_GATED)
            .message(InMemoryCluster.SCHEDULING_GATED_MESSAGE),
        clock);
  }

  /**
   * Applies the API server's pod defaulting that scheduling depends on: a container's limits
   * default its missing requests, ports default to TCP, and with host networking container ports
   * default the host ports.
   */
  private static void applyPodDefaults(V1PodSpec spec) {
    boolean hostNetwork = Boolean.TRUE.equals(spec.getHostNetwork());
    for (List<V1Container> containers :
        Arrays.asList(spec.getContainers(), spec.getInitContainers())) {
      if (containers == null) {
        continue;
      }
      for (V1Container c : containers) {
        V1ResourceRequirements r = c.getResources();
        if (r != null && r.getLimits() != null && requestMissing(r)) {
          Map<String, Quantity> requests =
              r.getRequests() == null
                  ? new LinkedHashMap<>()
                  : new LinkedHashMap<>(r.getRequests());
          r.getLimits().forEach(requests::putIfAbsent);
          r.setRequests(requests);
        }
        if (c.getPorts() != null) {
          for (V1ContainerPort port : c.getPorts()) {
            if (port.getProtocol() == null || port.getProtocol().isEmpty()) {
              port.setProtocol("TCP");
            }
            if (hostNetwork && (port.getHostPort() == null || port.getHostPort() == 0)) {
              port.setHostPort(port.getContainerPort());
            }
          }
        }
      }
    }
  }

  /**
   * Returns whether a resource has a limit but no request (kube defaults that request to the
   * limit); most pods have none, and their requests then stay as they are.
   */
  private static boolean requestMissing(V1ResourceRequirements r) {
    Map<String, Quantity> requests = r.getRequests();
    for (Map.Entry<String, Quantity> limit : r.getLimits().entrySet()) {
      if (limit.getValue() != null && (requests == null || requests.get(limit.getKey()) == null)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Adds the tolerations of the DefaultTolerationSeconds admission plugin: {@code
   * node.kubernetes.io/not-ready} and {@code node.kubernetes.io/unreachable}, Exists, NoExecute,
   * 300 seconds, each unless the pod already tolerates that taint's NoExecute effect.
   */
  private static void applyDefaultTolerationSeconds(V1PodSpec spec) {
    boolean notReady = false;
    boolean unreachable = false;
    if (spec.getTolerations() != null) {
      for (V1Toleration t : spec.getTolerations()) {
        String key = t.getKey() == null ? "" : t.getKey();
        String effect = t.getEffect() == null ? "" : t.getEffect();
        if (!effect.isEmpty() && !effect.equals("NoExecute")) {
          continue;
        }
        notReady |= key.isEmpty() || key.equals(TAINT_NOT_READY);
        unreachable |= key.isEmpty() || key.equals(TAINT_UNREACHABLE);
      }
    }
    if (!notReady) {
      spec.addTolerationsItem(defaultToleration(TAINT_NOT_READY));
    }
    if (!unreachable) {
      spec.addTolerationsItem(defaultToleration(TAINT_UNREACHABLE));
    }
  }

  private static V1Toleration defaultToleration(String key) {
    return new V1Toleration()
        .key(key)
        .operator("Exists")
        .effect("NoExecute")
        .tolerationSeconds(DEFAULT_TOLERATION_SECONDS);
  }
}
