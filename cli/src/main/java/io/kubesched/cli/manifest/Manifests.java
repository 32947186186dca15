package io.kubesched.cli.manifest;

import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1RuntimeClass;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1StorageClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes objects read from manifest files, by kind, in file order. Mutable while loading;
 * hand it to {@link WorkloadExpander} to turn workloads into pods.
 */
public final class Manifests {
  final List<V1Node> nodes = new ArrayList<>();
  final List<V1Pod> pods = new ArrayList<>();
  final List<V1Namespace> namespaces = new ArrayList<>();
  final List<V1PriorityClass> priorityClasses = new ArrayList<>();
  final List<V1PodDisruptionBudget> podDisruptionBudgets = new ArrayList<>();
  final List<V1Service> services = new ArrayList<>();
  final List<V1Deployment> deployments = new ArrayList<>();
  final List<V1ReplicaSet> replicaSets = new ArrayList<>();
  final List<V1StatefulSet> statefulSets = new ArrayList<>();
  final List<V1Job> jobs = new ArrayList<>();
  final List<V1DaemonSet> daemonSets = new ArrayList<>();
  final List<V1ReplicationController> replicationControllers = new ArrayList<>();
  final List<V1PersistentVolume> persistentVolumes = new ArrayList<>();
  final List<V1PersistentVolumeClaim> persistentVolumeClaims = new ArrayList<>();
  final List<V1StorageClass> storageClasses = new ArrayList<>();
  final List<V1CSINode> csiNodes = new ArrayList<>();
  final List<V1CSIDriver> csiDrivers = new ArrayList<>();
  final List<V1CSIStorageCapacity> csiStorageCapacities = new ArrayList<>();
  final List<V1RuntimeClass> runtimeClasses = new ArrayList<>();
  final List<Map<String, Object>> customObjects = new ArrayList<>();
  final List<io.kubernetes.client.common.KubernetesObject> draObjects = new ArrayList<>();
  final List<String> warnings = new ArrayList<>();

  /** Returns the nodes. */
  public List<V1Node> nodes() {
    return nodes;
  }

  /** Returns the pods given as pods (not those expanded from workloads). */
  public List<V1Pod> pods() {
    return pods;
  }

  /** Returns the namespaces. */
  public List<V1Namespace> namespaces() {
    return namespaces;
  }

  /** Returns the priority classes. */
  public List<V1PriorityClass> priorityClasses() {
    return priorityClasses;
  }

  /** Returns the pod disruption budgets. */
  public List<V1PodDisruptionBudget> podDisruptionBudgets() {
    return podDisruptionBudgets;
  }

  /** Returns the services. */
  public List<V1Service> services() {
    return services;
  }

  /** Returns the deployments. */
  public List<V1Deployment> deployments() {
    return deployments;
  }

  /** Returns the replica sets. */
  public List<V1ReplicaSet> replicaSets() {
    return replicaSets;
  }

  /** Returns the stateful sets. */
  public List<V1StatefulSet> statefulSets() {
    return statefulSets;
  }

  /** Returns the jobs. */
  public List<V1Job> jobs() {
    return jobs;
  }

  /** Returns the daemon sets. */
  public List<V1DaemonSet> daemonSets() {
    return daemonSets;
  }

  /** Returns the replication controllers. */
  public List<V1ReplicationController> replicationControllers() {
    return replicationControllers;
  }

  /** Returns the persistent volumes. */
  public List<V1PersistentVolume> persistentVolumes() {
    return persistentVolumes;
  }

  /** Returns the persistent volume claims given as such (not those of StatefulSet templates). */
  public List<V1PersistentVolumeClaim> persistentVolumeClaims() {
    return persistentVolumeClaims;
  }

  /** Returns the storage classes. */
  public List<V1StorageClass> storageClasses() {
    return storageClasses;
  }

  /** Returns the CSINode objects. */
  public List<V1CSINode> csiNodes() {
    return csiNodes;
  }

  /** Returns the CSIDriver objects. */
  public List<V1CSIDriver> csiDrivers() {
    return csiDrivers;
  }

  /** Returns the CSIStorageCapacity objects. */
  public List<V1CSIStorageCapacity> csiStorageCapacities() {
    return csiStorageCapacities;
  }

  /** Returns the runtime classes (their overhead and scheduling are applied at admission). */
  public List<V1RuntimeClass> runtimeClasses() {
    return runtimeClasses;
  }

  /** Returns objects of other API groups kept as maps (e.g. PodGroups). */
  public List<Map<String, Object>> customObjects() {
    return customObjects;
  }

  /** Returns the warnings (unknown kinds skipped, ...). */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * Returns the DRA objects ({@code resource.k8s.io/v1} DeviceClasses, ResourceSlices,
   * ResourceClaimTemplates and ResourceClaims) in input order.
   */
  public List<io.kubernetes.client.common.KubernetesObject> draObjects() {
    return draObjects;
  }
}
