package io.kubesched.core.cluster;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubesched.framework.ClusterClient;
import java.util.List;
import java.util.Optional;

/**
 * The typed reads of {@link ClusterClient} served from a generic object store: every lister is
 * {@link #list} or {@link #get} of its model class. {@link InMemoryCluster} implements the two.
 */
interface StoreReads extends ClusterClient {
  /** Returns the stored objects of {@code type} in {@code namespace} (all when {@code null}). */
  <T extends KubernetesObject> List<T> list(Class<T> type, String namespace);

  /** Returns the stored object {@code namespace/name} of {@code type}, or empty. */
  <T extends KubernetesObject> Optional<T> get(Class<T> type, String namespace, String name);

  @Override
  default List<V1PodDisruptionBudget> listPodDisruptionBudgets() {
    return list(V1PodDisruptionBudget.class, null);
  }

  @Override
  default List<V1PriorityClass> listPriorityClasses() {
    return list(V1PriorityClass.class, null);
  }

  @Override
  default List<V1Service> listServices(String namespace) {
    return list(V1Service.class, namespace);
  }

  @Override
  default List<V1ReplicaSet> listReplicaSets(String namespace) {
    return list(V1ReplicaSet.class, namespace);
  }

  @Override
  default List<V1StatefulSet> listStatefulSets(String namespace) {
    return list(V1StatefulSet.class, namespace);
  }

  @Override
  default List<V1ReplicationController> listReplicationControllers(String namespace) {
    return list(V1ReplicationController.class, namespace);
  }

  // storage.k8s.io and core storage

  @Override
  default List<V1PersistentVolume> listPersistentVolumes() {
    return list(V1PersistentVolume.class, null);
  }

  @Override
  default Optional<V1PersistentVolume> getPersistentVolume(String name) {
    return get(V1PersistentVolume.class, null, name);
  }

  @Override
  default List<V1PersistentVolumeClaim> listPersistentVolumeClaims(String namespace) {
    return list(V1PersistentVolumeClaim.class, namespace);
  }

  @Override
  default Optional<V1PersistentVolumeClaim> getPersistentVolumeClaim(
      String namespace, String name) {
    return get(V1PersistentVolumeClaim.class, namespace, name);
  }

  @Override
  default List<V1StorageClass> listStorageClasses() {
    return list(V1StorageClass.class, null);
  }

  @Override
  default Optional<V1StorageClass> getStorageClass(String name) {
    return get(V1StorageClass.class, null, name);
  }

  @Override
  default Optional<V1CSINode> getCSINode(String name) {
    return get(V1CSINode.class, null, name);
  }

  @Override
  default List<V1CSINode> listCSINodes() {
    return list(V1CSINode.class, null);
  }

  @Override
  default Optional<V1CSIDriver> getCSIDriver(String name) {
    return get(V1CSIDriver.class, null, name);
  }

  @Override
  default List<V1CSIDriver> listCSIDrivers() {
    return list(V1CSIDriver.class, null);
  }

  @Override
  default List<V1CSIStorageCapacity> listCSIStorageCapacities() {
    return list(V1CSIStorageCapacity.class, null);
  }

  // resource.k8s.io/v1

  @Override
  default List<ResourceV1ResourceClaim> listResourceClaims(String namespace) {
    return list(ResourceV1ResourceClaim.class, namespace);
  }

  @Override
  default Optional<ResourceV1ResourceClaim> getResourceClaim(String namespace, String name) {
    return get(ResourceV1ResourceClaim.class, namespace, name);
  }

  @Override
  default Optional<V1DeviceClass> getDeviceClass(String name) {
    return get(V1DeviceClass.class, null, name);
  }

  @Override
  default List<V1ResourceSlice> listResourceSlices() {
    return list(V1ResourceSlice.class, null);
  }
}
