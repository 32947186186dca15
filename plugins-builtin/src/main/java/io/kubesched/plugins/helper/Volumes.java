package io.kubesched.plugins.helper;

import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Small helpers the volume plugins share (kube's {@code storage/volume} helpers). */
public final class Volumes {
  /** Persistent volume claims, as the informer listers' not-found errors spell them. */
  public static final String PVCS = "persistentvolumeclaim";

  /** Persistent volumes, as the informer listers' not-found errors spell them. */
  public static final String PVS = "persistentvolume";

  /** Storage classes, as the informer listers' not-found errors spell them. */
  public static final String STORAGE_CLASSES = "storageclass.storage.k8s.io";

  private Volumes() {}

  /** Returns the claim names of the pod's PVC volumes, in order (an empty name stays empty). */
  public static List<String> claimNames(V1Pod pod) {
    List<String> out = new ArrayList<>();
    if (pod.getSpec() == null || pod.getSpec().getVolumes() == null) {
      return out;
    }
    for (V1Volume v : pod.getSpec().getVolumes()) {
      if (v.getPersistentVolumeClaim() != null) {
        String name = v.getPersistentVolumeClaim().getClaimName();
        out.add(name == null ? "" : name);
      }
    }
    return out;
  }

  /**
   * Returns a volume plugin's fragment of the pod's batching signature ({@code SignPlugin}): {@code
   * ""} when every volume of the pod is node-local (configMap, secret, emptyDir, downwardAPI,
   * projected, hostPath), so no volume plugin's result depends on it; empty (unsignable) when the
   * pod has a claim, an ephemeral or CSI volume or an attachable in-tree disk, whose results depend
   * on other pods and on the volumes' state (upstream's volume plugins refuse those pods).
   */
  public static Optional<String> signature(V1Pod pod) {
    if (!hasVolumes(pod)) {
      return NO_VOLUME_SIGNATURE;
    }
    for (V1Volume v : pod.getSpec().getVolumes()) {
      boolean local =
          v.getConfigMap() != null
              || v.getSecret() != null
              || v.getEmptyDir() != null
              || v.getDownwardAPI() != null
              || v.getProjected() != null
              || v.getHostPath() != null;
      if (!local) {
        return Optional.empty();
      }
    }
    return NO_VOLUME_SIGNATURE;
  }

  private static final Optional<String> NO_VOLUME_SIGNATURE = Optional.of("");

  /** Returns whether the pod has volumes at all. */
  public static boolean hasVolumes(V1Pod pod) {
    return pod.getSpec() != null
        && pod.getSpec().getVolumes() != null
        && !pod.getSpec().getVolumes().isEmpty();
  }

  /** Returns the claim's storage class name ({@code spec.storageClassName}), or {@code ""}. */
  public static String claimClass(V1PersistentVolumeClaim pvc) {
    if (pvc.getSpec() != null && pvc.getSpec().getStorageClassName() != null) {
      return pvc.getSpec().getStorageClassName();
    }
    if (pvc.getMetadata() != null && pvc.getMetadata().getAnnotations() != null) {
      String beta =
          pvc.getMetadata().getAnnotations().get("volume.beta.kubernetes.io/storage-class");
      if (beta != null) {
        return beta;
      }
    }
    return "";
  }

  /** Returns kube's not-found message: {@code <resource> "<name>" not found}. */
  public static String notFound(String resource, String name) {
    return resource + " \"" + name + "\" not found";
  }
}
