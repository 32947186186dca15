package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1StorageClass;
import java.util.List;
import java.util.Optional;

/**
 * The storage objects plugins read (kube's PV, PVC, StorageClass, CSINode, CSIDriver and
 * CSIStorageCapacity listers) and the two writes the volume binder makes in PreBind.
 *
 * <p>Reads come from local caches and are cheap; the objects returned are shared and must not be
 * modified. The defaults describe a cluster without storage objects, whose writes fail: a {@code
 * Cluster} that stores them overrides every method.
 */
public interface StorageClient {
  /** Returns every persistent volume. */
  default List<V1PersistentVolume> listPersistentVolumes() {
    return List.of();
  }

  /** Returns the persistent volume {@code name}, or empty. */
  default Optional<V1PersistentVolume> getPersistentVolume(String name) {
    return Optional.empty();
  }

  /** Returns the claims of {@code namespace}, or of every namespace when it is {@code null}. */
  default List<V1PersistentVolumeClaim> listPersistentVolumeClaims(String namespace) {
    return List.of();
  }

  /** Returns the claim {@code namespace/name}, or empty. */
  default Optional<V1PersistentVolumeClaim> getPersistentVolumeClaim(
      String namespace, String name) {
    return Optional.empty();
  }

  /** Returns every storage class. */
  default List<V1StorageClass> listStorageClasses() {
    return List.of();
  }

  /** Returns the storage class {@code name}, or empty. */
  default Optional<V1StorageClass> getStorageClass(String name) {
    return Optional.empty();
  }

  /** Returns the CSINode object of node {@code name}, or empty. */
  default Optional<V1CSINode> getCSINode(String name) {
    return Optional.empty();
  }

  /** Returns every CSINode object. */
  default List<V1CSINode> listCSINodes() {
    return List.of();
  }

  /** Returns the CSIDriver {@code name}, or empty. */
  default Optional<V1CSIDriver> getCSIDriver(String name) {
    return Optional.empty();
  }

  /** Returns every CSIDriver. */
  default List<V1CSIDriver> listCSIDrivers() {
    return List.of();
  }

  /** Returns every CSIStorageCapacity object (of all namespaces). */
  default List<V1CSIStorageCapacity> listCSIStorageCapacities() {
    return List.of();
  }

  /**
   * Replaces the persistent volume (optimistic concurrency on its {@code resourceVersion}) and
   * returns the stored version.
   *
   * @throws SchedulingException when the write fails (conflict, gone, not supported)
   */
  default V1PersistentVolume updatePersistentVolume(V1PersistentVolume pv) {
    throw new SchedulingException("this cluster does not store persistent volumes");
  }

  /**
   * Replaces the claim (optimistic concurrency on its {@code resourceVersion}) and returns the
   * stored version.
   *
   * @throws SchedulingException when the write fails (conflict, gone, not supported)
   */
  default V1PersistentVolumeClaim updatePersistentVolumeClaim(V1PersistentVolumeClaim pvc) {
    throw new SchedulingException("this cluster does not store persistent volume claims");
  }
}
