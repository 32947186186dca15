package io.kubesched.plugins.podtopologyspread;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.PodInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The selector deduced for a pod from the workloads around it (kube's {@code
 * helper.DefaultSelector}): the selectors of the Services selecting the pod, merged with the
 * selector of the ReplicationController, ReplicaSet or StatefulSet that controls it.
 */
final class DefaultSelector {
  private DefaultSelector() {}

  /** Returns the selector for {@code pod}; {@link LabelSelector#isEverything()} when none. */
  static LabelSelector of(PodInfo pod, ClusterClient client) {
    Map<String, String> labelSet = new LinkedHashMap<>();
    for (V1Service s : client.listServices(pod.namespace())) {
      Map<String, String> sel = s.getSpec() == null ? null : s.getSpec().getSelector();
      if (sel == null) {
        continue; // a service without selector selects nothing
      }
      if (LabelSelector.ofLabels(sel).matches(pod.labels())) {
        labelSet.putAll(sel);
      }
    }
    LabelSelector selector = LabelSelector.ofLabels(labelSet);

    V1OwnerReference owner = controllerOf(pod.ownerReferences());
    if (owner == null || owner.getKind() == null || owner.getName() == null) {
      return selector;
    }
    String apiVersion = owner.getApiVersion() == null ? "" : owner.getApiVersion();
    switch (apiVersion + "/" + owner.getKind()) {
      case "v1/ReplicationController":
        for (V1ReplicationController rc : client.listReplicationControllers(pod.namespace())) {
          if (owner.getName().equals(rc.getMetadata() == null ? null : rc.getMetadata().getName())) {
            Map<String, String> sel = rc.getSpec() == null ? null : rc.getSpec().getSelector();
            if (sel != null) {
              labelSet.putAll(sel);
            }
            return LabelSelector.ofLabels(labelSet);
          }
        }
        return selector;
      case "apps/v1/ReplicaSet":
        for (V1ReplicaSet rs : client.listReplicaSets(pod.namespace())) {
          if (owner.getName().equals(rs.getMetadata() == null ? null : rs.getMetadata().getName())) {
            return addRequirements(selector, rs.getSpec() == null ? null : rs.getSpec().getSelector());
          }
        }
        return selector;
      case "apps/v1/StatefulSet":
        for (V1StatefulSet ss : client.listStatefulSets(pod.namespace())) {
          if (owner.getName().equals(ss.getMetadata() == null ? null : ss.getMetadata().getName())) {
            return addRequirements(selector, ss.getSpec() == null ? null : ss.getSpec().getSelector());
          }
        }
        return selector;
      default:
        return selector;
    }
  }

  private static LabelSelector addRequirements(LabelSelector selector, V1LabelSelector other) {
    LabelSelector compiled;
    try {
      compiled = LabelSelector.compile(other);
    } catch (IllegalArgumentException e) {
      return selector;
    }
    if (compiled.isNothing()) {
      return selector;
    }
    return selector.and(compiled.requirements());
  }

  private static V1OwnerReference controllerOf(List<V1OwnerReference> refs) {
    for (V1OwnerReference r : refs) {
      if (Boolean.TRUE.equals(r.getController())) {
        return r;
      }
    }
    return null;
  }
}
