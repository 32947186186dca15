package io.kubesched.core.cluster;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimStatus;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeStatus;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubesched.core.cluster.ObjectStore.Kind;
import io.kubesched.framework.EventResource;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The storage kinds of an {@link InMemoryCluster} (PersistentVolume, PersistentVolumeClaim,
 * StorageClass, CSINode, CSIDriver, CSIStorageCapacity): their registration in the {@link
 * ObjectStore}, the event resource each change is delivered as, and the defaulting the API server
 * and the PV controller apply when they are created.
 */
final class StorageObjects {
  /** The storage kinds, registered in the object store after the core kinds. */
  static final List<Kind> KINDS =
      List.of(
          new Kind(V1PersistentVolume.class, "persistentvolumes", false),
          new Kind(V1PersistentVolumeClaim.class, "persistentvolumeclaims", true),
          new Kind(V1StorageClass.class, "storageclasses.storage.k8s.io", false),
          new Kind(V1CSINode.class, "csinodes.storage.k8s.io", false),
          new Kind(V1CSIDriver.class, "csidrivers.storage.k8s.io", false),
          new Kind(V1CSIStorageCapacity.class, "csistoragecapacities.storage.k8s.io", true));

  private static final Map<Class<?>, String> RESOURCES =
      Map.of(
          V1PersistentVolume.class, EventResource.PERSISTENT_VOLUME,
          V1PersistentVolumeClaim.class, EventResource.PERSISTENT_VOLUME_CLAIM,
          V1StorageClass.class, EventResource.STORAGE_CLASS,
          V1CSINode.class, EventResource.CSI_NODE,
          V1CSIDriver.class, EventResource.CSI_DRIVER,
          V1CSIStorageCapacity.class, EventResource.CSI_STORAGE_CAPACITY);

  /** The annotation marking the default storage class. */
  static final String IS_DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

  private StorageObjects() {}

  private static String defaultClass(Collection<KubernetesObject> storageClasses) {
    String chosen = null;
    for (KubernetesObject sc : storageClasses) {
      Map<String, String> ann = sc.getMetadata().getAnnotations();
      if (ann != null && "true".equals(ann.get(IS_DEFAULT_CLASS))) {
        chosen = sc.getMetadata().getName();
      }
    }
    return chosen;
  }

  /** Returns the event resource of a storage object, or {@code null} for any other object. */
  static String eventResource(Object obj) {
    return obj == null ? null : RESOURCES.get(obj.getClass());
  }

  /**
   * Applies the defaults of a newly created storage object: the API server's ({@code volumeMode
   * Filesystem}, reclaim policy {@code Retain} for PVs and {@code Delete} for classes, binding mode
   * {@code Immediate}, claims {@code Pending}) and the PV controller's (a PV without a phase is
   * {@code Available}, or {@code Bound} when its claim reference names a claim with a UID), a
   * deterministic UID, and the DefaultStorageClass admission plugin's class for a claim that names
   * none (the newest default class of {@code storageClasses}).
   */
  static void admit(Object obj, Collection<KubernetesObject> storageClasses) {
    if (obj instanceof KubernetesObject k && RESOURCES.containsKey(obj.getClass())) {
      V1ObjectMeta meta = k.getMetadata();
      if (meta.getUid() == null) {
        String id =
            obj.getClass().getSimpleName() + "/" + meta.getNamespace() + "/" + meta.getName();
        meta.setUid(UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8)).toString());
      }
    }
    if (obj instanceof V1PersistentVolume pv) {
      V1PersistentVolumeSpec spec = pv.getSpec();
      if (spec == null) {
        spec = new V1PersistentVolumeSpec();
        pv.setSpec(spec);
      }
      if (spec.getVolumeMode() == null) {
        spec.setVolumeMode("Filesystem");
      }
      if (spec.getPersistentVolumeReclaimPolicy() == null) {
        spec.setPersistentVolumeReclaimPolicy("Retain");
      }
      if (pv.getStatus() == null) {
        pv.setStatus(new V1PersistentVolumeStatus());
      }
      if (pv.getStatus().getPhase() == null) {
        boolean bound = spec.getClaimRef() != null && spec.getClaimRef().getUid() != null;
        pv.getStatus().setPhase(bound ? "Bound" : "Available");
      }
    } else if (obj instanceof V1PersistentVolumeClaim pvc) {
      if (pvc.getSpec() == null) {
        pvc.setSpec(new V1PersistentVolumeClaimSpec());
      }
      if (pvc.getSpec().getStorageClassName() == null) {
        pvc.getSpec().setStorageClassName(defaultClass(storageClasses));
      }
      if (pvc.getSpec().getVolumeMode() == null) {
        pvc.getSpec().setVolumeMode("Filesystem");
      }
      if (pvc.getStatus() == null) {
        pvc.setStatus(new V1PersistentVolumeClaimStatus());
      }
      if (pvc.getStatus().getPhase() == null) {
        pvc.getStatus().setPhase("Pending");
      }
    } else if (obj instanceof V1StorageClass sc) {
      if (sc.getReclaimPolicy() == null) {
        sc.setReclaimPolicy("Delete");
      }
      if (sc.getVolumeBindingMode() == null) {
        sc.setVolumeBindingMode("Immediate");
      }
    }
  }
}
