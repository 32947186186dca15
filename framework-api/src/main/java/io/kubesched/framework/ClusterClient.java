package io.kubesched.framework;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What plugins may read from and do to the cluster: the plugin-facing half of the engine's {@code
 * Cluster} port (in-memory for the simulator and tests, the Kubernetes API for a real scheduler).
 *
 * <p>Reads come from local caches (informers) and are cheap; writes go to the cluster and may fail
 * with a {@link SchedulingException}. The storage objects are read through {@link StorageClient}.
 */
public interface ClusterClient extends StorageClient {
  /** Binds {@code pod} to {@code nodeName} (the {@code pods/binding} subresource). */
  void bind(V1Pod pod, String nodeName);

  /** Deletes {@code pod}; a pod that is already gone is not an error. */
  void deletePod(V1Pod pod);

  /** Adds or replaces (by type) a condition in the pod's status. */
  void updatePodCondition(V1Pod pod, V1PodCondition condition);

  /** Sets the pod's {@code status.nominatedNodeName}; {@code null} or {@code ""} clears it. */
  void setNominatedNodeName(V1Pod pod, @Nullable String nodeName);

  /** Returns the current version of the pod, or empty when it is gone. */
  Optional<V1Pod> getPod(String namespace, String name);

  /** Returns every pod of the cluster. */
  List<V1Pod> listPods();

  /** Returns the namespace's labels; empty when the namespace is unknown. */
  Map<String, String> namespaceLabels(String namespace);

  /** Returns every namespace. */
  List<V1Namespace> listNamespaces();

  /** Returns the pod disruption budgets. */
  List<V1PodDisruptionBudget> listPodDisruptionBudgets();

  /** Returns the priority classes. */
  List<V1PriorityClass> listPriorityClasses();

  /** Returns the services of {@code namespace}. */
  List<V1Service> listServices(String namespace);

  /** Returns the replica sets of {@code namespace}. */
  List<V1ReplicaSet> listReplicaSets(String namespace);

  /** Returns the stateful sets of {@code namespace}. */
  List<V1StatefulSet> listStatefulSets(String namespace);

  /** Returns the replication controllers of {@code namespace}. */
  List<V1ReplicationController> listReplicationControllers(String namespace);

  /**
   * Returns custom objects (such as {@code scheduling.x-k8s.io/v1alpha1} {@code PodGroup}s) as
   * generic maps, as decoded from YAML/JSON.
   *
   * @param apiVersion e.g. {@code scheduling.x-k8s.io/v1alpha1}
   * @param kind e.g. {@code PodGroup}
   * @param namespace the namespace, or {@code null} for all
   */
  List<Map<String, Object>> listCustomObjects(
      String apiVersion, String kind, @Nullable String namespace);

  /**
   * Registers {@code watcher} for the cluster's node and pod changes (see {@link ClusterWatcher}
   * for the order). The default refuses: a cluster that delivers events overrides it.
   *
   * @throws SchedulingException when this cluster does not deliver events to plugins
   */
  default ClusterWatcher.Registration watch(ClusterWatcher watcher) {
    throw new SchedulingException(getClass().getSimpleName() + " does not deliver cluster events");
  }

  /**
   * Sets and removes annotations of the node {@code nodeName} in one write (a JSON merge patch of
   * {@code metadata.annotations} on a real cluster) and returns the stored node. A {@code null}
   * value removes the annotation; annotations not named are left alone. The default refuses.
   *
   * @throws SchedulingException when the node is gone or the write is refused
   */
  default V1Node patchNodeAnnotations(String nodeName, Map<String, @Nullable String> annotations) {
    throw new SchedulingException(getClass().getSimpleName() + " does not write node annotations");
  }

  // ---------------------------------------------------------------- resource.k8s.io/v1 (DRA)

  /**
   * Returns the ResourceClaims ({@code resource.k8s.io/v1}) of {@code namespace}, or of every
   * namespace when it is {@code null}. A cluster that does not serve DRA objects has none.
   */
  default List<ResourceV1ResourceClaim> listResourceClaims(String namespace) {
    return List.of();
  }

  /** Returns the ResourceClaim {@code namespace/name}, or empty. */
  default Optional<ResourceV1ResourceClaim> getResourceClaim(String namespace, String name) {
    return listResourceClaims(namespace).stream()
        .filter(c -> c.getMetadata() != null && name.equals(c.getMetadata().getName()))
        .findFirst();
  }

  /** Returns the DeviceClass {@code name}, or empty. */
  default Optional<V1DeviceClass> getDeviceClass(String name) {
    return Optional.empty();
  }

  /** Returns every ResourceSlice. */
  default List<V1ResourceSlice> listResourceSlices() {
    return List.of();
  }

  /**
   * Writes {@code claim}'s {@code status} (the {@code resourceclaims/status} subresource) and
   * returns the stored claim. The claim's {@code metadata.resourceVersion}, when set, must be the
   * current one. Finalizers in {@code claim.metadata} are written too, as the separate update kube
   * does before the status update.
   *
   * @throws SchedulingException when the claim is gone, was changed concurrently, or the cluster
   *     does not serve DRA objects
   */
  default ResourceV1ResourceClaim updateResourceClaimStatus(ResourceV1ResourceClaim claim) {
    throw new SchedulingException("this cluster does not serve resource.k8s.io/v1 ResourceClaims");
  }

  /**
   * Replaces the {@code status} of a custom object (the {@code status} subresource on a real
   * cluster) and returns the stored object. {@code object} names it by {@code apiVersion}, {@code
   * kind}, {@code metadata.namespace} and {@code metadata.name}; only its {@code status} is
   * written. The default refuses: a cluster that keeps custom objects overrides it.
   *
   * @throws SchedulingException when the object is gone or the write is refused
   */
  default Map<String, Object> updateCustomObjectStatus(Map<String, ?> object) {
    throw new SchedulingException(
        getClass().getSimpleName() + " does not write the status of custom objects");
  }
}
