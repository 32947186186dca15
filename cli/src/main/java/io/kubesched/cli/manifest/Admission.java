package io.kubesched.cli.manifest;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1RuntimeClass;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admission plugins the simulator stands in for, run once every file is read: {@code Priority}
 * (a pod naming an unknown PriorityClass, or a {@code spec.priority} that differs from its class,
 * is forbidden) and {@code RuntimeClass} (a pod naming an unknown RuntimeClass is forbidden; a
 * known one's {@code overhead.podFixed} becomes the pod's {@code spec.overhead}, its {@code
 * scheduling.nodeSelector} and tolerations are merged into the pod's). Workload templates are
 * checked as the pods they would create, and mutated so that their pods carry the RuntimeClass's
 * overhead. The API server's messages are kept ({@code pods "p1" is forbidden: ...}).
 */
final class Admission {
  private static final Map<String, Integer> SYSTEM_CLASSES =
      Map.of("system-node-critical", 2_000_001_000, "system-cluster-critical", 2_000_000_000);

  private final Map<String, Integer> priorities = new HashMap<>(SYSTEM_CLASSES);
  private final Map<String, V1RuntimeClass> runtimeClasses = new HashMap<>();
  private Integer globalDefault;

  private Admission(Manifests m) {
    for (V1PriorityClass pc : m.priorityClasses()) {
      int value = pc.getValue() == null ? 0 : pc.getValue();
      priorities.put(pc.getMetadata().getName(), value);
      if (Boolean.TRUE.equals(pc.getGlobalDefault())
          && (globalDefault == null || value < globalDefault)) {
        globalDefault = value;
      }
    }
    for (V1RuntimeClass rc : m.runtimeClasses()) {
      runtimeClasses.put(rc.getMetadata().getName(), rc);
    }
  }

  /**
   * Admits every pod and workload template of {@code m}, mutating them as the plugins do; returns
   * one message per refusal, prefixed with the object's origin from {@code origins}.
   */
  static List<String> admit(Manifests m, Map<Object, String> origins) {
    Admission a = new Admission(m);
    List<String> problems = new ArrayList<>();
    for (V1Pod p : m.pods()) {
      String refusal =
          a.admitPod(p.getSpec(), p.getSpec() == null ? null : p.getSpec().getPriority());
      if (refusal != null) {
        problems.add(
            origin(origins, p)
                + ": pods \""
                + p.getMetadata().getName()
                + "\" is forbidden: "
                + refusal);
      }
    }
    List<KubernetesObject> workloads = new ArrayList<>();
    workloads.addAll(m.deployments());
    workloads.addAll(m.replicaSets());
    workloads.addAll(m.statefulSets());
    workloads.addAll(m.jobs());
    workloads.addAll(m.daemonSets());
    workloads.addAll(m.replicationControllers());
    for (KubernetesObject w : workloads) {
      V1PodTemplateSpec t = template(w);
      if (t == null || t.getSpec() == null) {
        continue;
      }
      String refusal = a.admitPod(t.getSpec(), t.getSpec().getPriority());
      if (refusal != null) {
        problems.add(
            origin(origins, w) + ": spec.template: its pods would be forbidden: " + refusal);
      }
    }
    return problems;
  }

  private static V1PodTemplateSpec template(KubernetesObject w) {
    if (w instanceof V1Deployment d && d.getSpec() != null) {
      return d.getSpec().getTemplate();
    } else if (w instanceof V1ReplicaSet r && r.getSpec() != null) {
      return r.getSpec().getTemplate();
    } else if (w instanceof V1StatefulSet s && s.getSpec() != null) {
      return s.getSpec().getTemplate();
    } else if (w instanceof V1Job j && j.getSpec() != null) {
      return j.getSpec().getTemplate();
    } else if (w instanceof V1DaemonSet d && d.getSpec() != null) {
      return d.getSpec().getTemplate();
    } else if (w instanceof V1ReplicationController r && r.getSpec() != null) {
      return r.getSpec().getTemplate();
    }
    return null;
  }

  private static String origin(Map<Object, String> origins, Object o) {
    String where = origins.get(o);
    return where == null ? "input" : where;
  }

  /** Returns why the pod is refused, or {@code null} after applying the RuntimeClass. */
  private String admitPod(V1PodSpec spec, Integer givenPriority) {
    if (spec == null) {
      return null;
    }
    String className = spec.getPriorityClassName();
    Integer computed;
    if (className == null || className.isEmpty()) {
      computed = globalDefault == null ? 0 : globalDefault;
    } else {
      computed = priorities.get(className);
      if (computed == null) {
        return "no PriorityClass with name " + className + " was found";
      }
    }
    if (givenPriority != null && !givenPriority.equals(computed)) {
      return "the integer value of priority ("
          + givenPriority
          + ") must not be provided in pod spec; priority admission controller computed "
          + computed
          + " from the given PriorityClass name";
    }
    return runtimeClass(spec);
  }

  private String runtimeClass(V1PodSpec spec) {
    String name = spec.getRuntimeClassName();
    if (name == null) {
      if (spec.getOverhead() != null && !spec.getOverhead().isEmpty()) {
        return "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead";
      }
      return null;
    }
    V1RuntimeClass rc = runtimeClasses.get(name);
    if (rc == null) {
      return "pod rejected: RuntimeClass \"" + name + "\" not found";
    }
    Map<String, Quantity> fixed = rc.getOverhead() == null ? null : rc.getOverhead().getPodFixed();
    if (fixed != null) {
      if (spec.getOverhead() != null
          && !spec.getOverhead().isEmpty()
          && !sameResources(fixed, spec.getOverhead())) {
        return "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
      }
      spec.setOverhead(new LinkedHashMap<>(fixed));
    } else if (spec.getOverhead() != null && !spec.getOverhead().isEmpty()) {
      return "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead";
    }
    if (rc.getScheduling() != null) {
      Map<String, String> selector = rc.getScheduling().getNodeSelector();
      if (selector != null && !selector.isEmpty()) {
        Map<String, String> merged =
            spec.getNodeSelector() == null
                ? new LinkedHashMap<>()
                : new LinkedHashMap<>(spec.getNodeSelector());
        for (Map.Entry<String, String> e : selector.entrySet()) {
          String podValue = merged.get(e.getKey());
          if (podValue != null && !podValue.equals(e.getValue())) {
            return "conflict: runtimeClass.scheduling.nodeSelector["
                + e.getKey()
                + "] = "
                + e.getValue()
                + "; pod.spec.nodeSelector["
                + e.getKey()
                + "] = "
                + podValue;
          }
          merged.put(e.getKey(), e.getValue());
        }
        spec.setNodeSelector(merged);
      }
      List<V1Toleration> tolerations = rc.getScheduling().getTolerations();
      if (tolerations != null && !tolerations.isEmpty()) {
        List<V1Toleration> merged =
            spec.getTolerations() == null
                ? new ArrayList<>()
                : new ArrayList<>(spec.getTolerations());
        for (V1Toleration t : tolerations) {
          if (!merged.contains(t)) {
            merged.add(t);
          }
        }
        spec.setTolerations(merged);
      }
    }
    return null;
  }

  private static boolean sameResources(Map<String, Quantity> a, Map<String, Quantity> b) {
    if (!a.keySet().equals(b.keySet())) {
      return false;
    }
    for (Map.Entry<String, Quantity> e : a.entrySet()) {
      if (e.getValue().getNumber().compareTo(b.get(e.getKey()).getNumber()) != 0) {
        return false;
      }
    }
    return true;
  }
}
