package io.kubesched.cli.manifest;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimVolumeSource;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubesched.core.cluster.ObjectCopier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the StatefulSet controller does with {@code volumeClaimTemplates}: one claim per template
 * and ordinal, named {@code <template>-<statefulset>-<ordinal>}, labelled with the template's
 * labels and the StatefulSet's selector labels; and in each pod a volume named after the template
 * that mounts its claim (replacing a template volume of the same name).
 */
final class StatefulSetClaims {
  private StatefulSetClaims() {}

  /** Returns the claim name for {@code template} of {@code statefulSet} at {@code ordinal}. */
  static String claimName(String template, String statefulSet, int ordinal) {
    return template + "-" + statefulSet + "-" + ordinal;
  }

  /**
   * Adds to {@code out} the claims of every ordinal below {@code replicas} that {@code listed} does
   * not hold.
   */
  static void addClaims(
      V1StatefulSet ss, List<V1PersistentVolumeClaim> listed, List<V1PersistentVolumeClaim> out) {
    List<V1PersistentVolumeClaim> templates = ss.getSpec().getVolumeClaimTemplates();
    if (templates == null || templates.isEmpty()) {
      return;
    }
    String ns = namespace(ss.getMetadata());
    Set<String> existing = new HashSet<>();
    for (V1PersistentVolumeClaim c : listed) {
      existing.add(namespace(c.getMetadata()) + "/" + c.getMetadata().getName());
    }
    int replicas = ss.getSpec().getReplicas() == null ? 1 : ss.getSpec().getReplicas();
    for (int i = 0; i < replicas; i++) {
      for (V1PersistentVolumeClaim t : templates) {
        String name = claimName(t.getMetadata().getName(), ss.getMetadata().getName(), i);
        if (existing.contains(ns + "/" + name)) {
          continue;
        }
        V1PersistentVolumeClaim claim =
            new V1PersistentVolumeClaim()
                .apiVersion("v1")
                .kind("PersistentVolumeClaim")
                .metadata(new V1ObjectMeta().name(name).namespace(ns))
                .spec(ObjectCopier.deepCopy(t.getSpec()));
        Map<String, String> labels = new LinkedHashMap<>();
        if (t.getMetadata().getLabels() != null) {
          labels.putAll(t.getMetadata().getLabels());
        }
        if (ss.getSpec().getSelector() != null
            && ss.getSpec().getSelector().getMatchLabels() != null) {
          labels.putAll(ss.getSpec().getSelector().getMatchLabels());
        }
        if (!labels.isEmpty()) {
          claim.getMetadata().setLabels(labels);
        }
        if (t.getMetadata().getAnnotations() != null) {
          claim.getMetadata().setAnnotations(new LinkedHashMap<>(t.getMetadata().getAnnotations()));
        }
        out.add(claim);
      }
    }
  }

  /** Gives the pods of {@code ss} among {@code pods} the volumes of their claims. */
  static void addVolumes(V1StatefulSet ss, List<V1Pod> pods) {
    List<V1PersistentVolumeClaim> templates = ss.getSpec().getVolumeClaimTemplates();
    if (templates == null || templates.isEmpty()) {
      return;
    }
    String ns = namespace(ss.getMetadata());
    String name = ss.getMetadata().getName();
    for (V1Pod pod : pods) {
      if (!ownedBy(pod, name) || !ns.equals(pod.getMetadata().getNamespace())) {
        continue;
      }
      String index = pod.getMetadata().getLabels().get("apps.kubernetes.io/pod-index");
      int ordinal = Integer.parseInt(index);
      List<V1Volume> volumes = new ArrayList<>();
      Set<String> claimed = new HashSet<>();
      for (V1PersistentVolumeClaim t : templates) {
        String template = t.getMetadata().getName();
        claimed.add(template);
        volumes.add(
            new V1Volume()
                .name(template)
                .persistentVolumeClaim(
                    new V1PersistentVolumeClaimVolumeSource()
                        .claimName(claimName(template, name, ordinal))));
      }
      if (pod.getSpec().getVolumes() != null) {
        for (V1Volume v : pod.getSpec().getVolumes()) {
          if (!claimed.contains(v.getName())) {
            volumes.add(v);
          }
        }
      }
      pod.getSpec().setVolumes(volumes);
    }
  }

  private static boolean ownedBy(V1Pod pod, String statefulSet) {
    List<V1OwnerReference> refs = pod.getMetadata().getOwnerReferences();
    if (refs == null) {
      return false;
    }
    for (V1OwnerReference r : refs) {
      if ("StatefulSet".equals(r.getKind()) && statefulSet.equals(r.getName())) {
        return true;
      }
    }
    return false;
  }

  private static String namespace(V1ObjectMeta m) {
    return m.getNamespace() == null || m.getNamespace().isEmpty() ? "default" : m.getNamespace();
  }
}
