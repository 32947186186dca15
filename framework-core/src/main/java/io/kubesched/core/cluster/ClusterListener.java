package io.kubesched.core.cluster;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;

/**
 * Receives the node and pod changes of a {@link Cluster}, in the order they happened (the
 * scheduler's informer event handlers).
 *
 * <p>Objects passed to a listener are shared and must not be modified. Callbacks of one cluster are
 * never run concurrently with each other; a callback may call back into the cluster (its own
 * changes are delivered after the current callback returns).
 */
public interface ClusterListener {
  /** Called when a node was added (or replayed on registration). */
  default void onNodeAdd(V1Node node) {}

  /** Called when a node changed; {@code oldNode} is the previous version. */
  default void onNodeUpdate(V1Node oldNode, V1Node node) {}

  /** Called when a node was deleted; {@code node} is its last version. */
  default void onNodeDelete(V1Node node) {}

  /** Called when a pod was added (or replayed on registration). */
  default void onPodAdd(V1Pod pod) {}

  /** Called when a pod changed; {@code oldPod} is the previous version. */
  default void onPodUpdate(V1Pod oldPod, V1Pod pod) {}

  /** Called when a pod was deleted; {@code pod} is its last version. */
  default void onPodDelete(V1Pod pod) {}

  /**
   * Called when a storage object (PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode,
   * CSIDriver, CSIStorageCapacity) changed; not replayed on registration.
   *
   * @param resource the {@link io.kubesched.framework.EventResource} of the object
   * @param actionType {@link io.kubesched.framework.ActionType#ADD}, {@code UPDATE} or {@code
   *     DELETE}
   * @param oldObj the previous version, {@code null} on add
   * @param newObj the new version, {@code null} on delete
   */
  default void onStorageChange(String resource, int actionType, Object oldObj, Object newObj) {}

  /**
   * Called when another object the plugins read changed: {@code resource} is its {@code
   * EventResource} name (e.g. {@code resource.k8s.io/ResourceClaim}); {@code oldObj} is null on
   * add, {@code newObj} null on delete.
   */
  default void onObjectChange(String resource, Object oldObj, Object newObj) {}

  /**
   * Called when a custom object (an object of a resource outside the typed kinds, kept as a generic
   * map) was added, changed (its status included) or deleted; not replayed on registration.
   *
   * @param apiVersion the object's {@code apiVersion}, e.g. {@code scheduling.x-k8s.io/v1alpha1}
   * @param kind the object's {@code kind}, e.g. {@code PodGroup}
   * @param oldObj the previous version, {@code null} on add
   * @param newObj the new version, {@code null} on delete
   */
  default void onCustomObjectChange(
      String apiVersion,
      String kind,
      java.util.Map<String, Object> oldObj,
      java.util.Map<String, Object> newObj) {}
}
