package io.kubesched.framework;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import org.jspecify.annotations.Nullable;

/**
 * Receives the node, pod and ResourceClaim changes of the cluster, for plugins that act as
 * controllers (the sample ResourceReservation's reservation controller) or keep an index of cluster
 * objects (DynamicResources' allocated devices). Registered with {@link
 * ClusterClient#watch(ClusterWatcher)}.
 *
 * <p>Contract: on registration the watcher first receives every existing node then every existing
 * pod as adds, then every later change, in order. Calls are never concurrent with each other. The
 * objects are shared and must not be modified. A callback may write to the cluster; the changes it
 * causes are delivered after it returns.
 */
public interface ClusterWatcher {
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
   * Called when a ResourceClaim was created ({@code oldClaim} null), changed, or deleted ({@code
   * claim} null, {@code oldClaim} its last version). Existing claims are not replayed on
   * registration: a watcher that needs them lists them after registering and orders what it gets by
   * {@code metadata.resourceVersion}.
   */
  default void onResourceClaimChange(
      @Nullable ResourceV1ResourceClaim oldClaim, @Nullable ResourceV1ResourceClaim claim) {}

  /** Ends a {@link ClusterClient#watch(ClusterWatcher)} registration. */
  interface Registration {
    /** Unregisters the watcher: it receives no change made after this returns. Idempotent. */
    void cancel();
  }
}
