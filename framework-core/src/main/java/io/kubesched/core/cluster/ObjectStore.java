package io.kubesched.core.cluster;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1ResourceClaimTemplate;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubesched.framework.PodInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The typed objects of an {@link InMemoryCluster}, by kind and {@code namespace/name} in creation
 * order, and the cluster-wide resourceVersion counter (custom objects draw from it too).
 *
 * <p>Not thread-safe: the cluster calls it under its lock.
 */
final class ObjectStore {
  /** A supported kind: its class, its API resource name for messages, and its scope. */
  record Kind(Class<?> type, String resource, boolean namespaced) {}

  private static final List<Kind> KINDS =
      List.of(
          new Kind(V1Node.class, "nodes", false),
          new Kind(V1Pod.class, "pods", true),
          new Kind(V1Namespace.class, "namespaces", false),
          new Kind(V1PriorityClass.class, "priorityclasses.scheduling.k8s.io", false),
          new Kind(V1PodDisruptionBudget.class, "poddisruptionbudgets.policy", true),
          new Kind(V1Service.class, "services", true),
          new Kind(V1ReplicaSet.class, "replicasets.apps", true),
          new Kind(V1StatefulSet.class, "statefulsets.apps", true),
          new Kind(V1ReplicationController.class, "replicationcontrollers", true),
          new Kind(V1Deployment.class, "deployments.apps", true),
          new Kind(V1Job.class, "jobs.batch", true),
          new Kind(V1DaemonSet.class, "daemonsets.apps", true),
          new Kind(ResourceV1ResourceClaim.class, "resourceclaims.resource.k8s.io", true),
          new Kind(V1ResourceClaimTemplate.class, "resourceclaimtemplates.resource.k8s.io", true),
          new Kind(V1DeviceClass.class, "deviceclasses.resource.k8s.io", false),
          new Kind(V1ResourceSlice.class, "resourceslices.resource.k8s.io", false));

  private final Map<Class<?>, Kind> kinds = new LinkedHashMap<>();
  private final Map<Class<?>, Map<String, KubernetesObject>> stores = new LinkedHashMap<>();
  private long resourceVersion;

  ObjectStore() {
    for (Kind k : Stream.concat(KINDS.stream(), StorageObjects.KINDS.stream()).toList()) {
      kinds.put(k.type(), k);
      stores.put(k.type(), new LinkedHashMap<>());
    }
  }

  /**
   * Returns the kind of {@code type}.
   *
   * @throws IllegalArgumentException when the kind is not supported
   */
  Kind kind(Class<?> type) {
    Kind kind = kinds.get(type);
    if (kind == null) {
      throw new IllegalArgumentException("unsupported kind: " + type.getSimpleName());
    }
    return kind;
  }

  /** Returns the kind of {@code obj}; see {@link #kind(Class)}. */
  Kind kindOf(KubernetesObject obj) {
    Objects.requireNonNull(obj, "object must not be null");
    return kind(obj.getClass());
  }

  /** The live map of the objects of {@code type}, by key, in creation order. */
  Map<String, KubernetesObject> objects(Class<?> type) {
    return stores.get(type);
  }

  /** Returns the object of {@code type} named {@code namespace/name}, or null. */
  <T extends KubernetesObject> T get(Class<T> type, String namespace, String name) {
    Kind kind = kind(type);
    return type.cast(stores.get(type).get(key(kind, namespaceOrDefault(kind, namespace), name)));
  }

  /** Returns the objects of {@code type}, of {@code namespace} only unless it is null. */
  <T extends KubernetesObject> List<T> list(Class<T> type, String namespace) {
    return select(type, stores.get(type).values(), namespace);
  }

  /**
   * Returns the objects of {@code objects} (all of {@code type}) in {@code namespace}, or all of
   * them when it is null or the kind is cluster-scoped, in a new list. Reads nothing else of the
   * store, so it needs no lock (the kinds never change).
   *
   * @throws IllegalArgumentException when the kind is not supported
   */
  <T extends KubernetesObject> List<T> select(
      Class<T> type, Collection<KubernetesObject> objects, String namespace) {
    Kind kind = kind(type);
    List<T> out = new ArrayList<>();
    for (KubernetesObject o : objects) {
      if (namespace == null
          || !kind.namespaced()
          || namespace.equals(o.getMetadata().getNamespace())) {
        out.add(type.cast(o));
      }
    }
    return out;
  }

  /** Returns the last resourceVersion handed out. */
  long resourceVersion() {
    return resourceVersion;
  }

  /** Hands out the next resourceVersion. */
  String nextResourceVersion() {
    resourceVersion++;
    return Long.toString(resourceVersion);
  }

  /** Returns the stored pod with {@code pod}'s namespace and name, or null. */
  V1Pod findPod(V1Pod pod) {
    V1ObjectMeta meta = Objects.requireNonNull(pod.getMetadata(), "pod.metadata must not be null");
    return get(V1Pod.class, meta.getNamespace(), meta.getName());
  }

  /**
   * Returns the stored pod with {@code pod}'s namespace and name.
   *
   * @throws ClusterException {@code NOT_FOUND} when there is none
   */
  V1Pod storedPod(V1Pod pod) {
    V1Pod old = findPod(pod);
    if (old == null) {
      throw notFound(kinds.get(V1Pod.class), pod.getMetadata().getName());
    }
    return old;
  }

  /** The key of a stored (namespace-defaulted) pod. */
  String podKey(V1Pod pod) {
    return key(
        kinds.get(V1Pod.class), pod.getMetadata().getNamespace(), pod.getMetadata().getName());
  }

  /**
   * Checks that {@code obj} has a name and sets its namespace as its kind's scope wants ({@code
   * default} when missing, none for cluster-scoped kinds); returns its metadata.
   *
   * @throws IllegalArgumentException when the name is missing
   */
  V1ObjectMeta prepareMeta(Kind kind, KubernetesObject obj) {
    V1ObjectMeta meta = obj.getMetadata();
    if (meta == null || meta.getName() == null || meta.getName().isEmpty()) {
      throw new IllegalArgumentException(
          kind.resource() + ": metadata.name: Required value: name is required");
    }
    if (kind.namespaced()) {
      meta.setNamespace(namespaceOrDefault(kind, meta.getNamespace()));
    } else {
      meta.setNamespace(null);
    }
    return meta;
  }

  static String namespaceOrDefault(Kind kind, String namespace) {
    if (!kind.namespaced()) {
      return null;
    }
    return namespace == null || namespace.isEmpty() ? "default" : namespace;
  }

  static String key(Kind kind, String namespace, String name) {
    return kind.namespaced() ? PodInfo.key(String.valueOf(namespace), String.valueOf(name)) : name;
  }

  static ClusterException notFound(Kind kind, String name) {
    return new ClusterException(
        ClusterException.Reason.NOT_FOUND, kind.resource() + " \"" + name + "\" not found");
  }
}
