package io.kubesched.testing.apiserver;

import java.util.List;
import java.util.Set;

/** A served resource: where it lives in the URL space and what its objects are called. */
record Resource(String group, String version, String plural, String kind, boolean namespaced) {
  /** Every resource the fake API server serves. */
  static final List<Resource> ALL =
      List.of(
          new Resource("", "v1", "pods", "Pod", true),
          new Resource("", "v1", "nodes", "Node", false),
          new Resource("", "v1", "namespaces", "Namespace", false),
          new Resource("", "v1", "events", "Event", true),
          new Resource("", "v1", "services", "Service", true),
          new Resource("", "v1", "replicationcontrollers", "ReplicationController", true),
          new Resource("apps", "v1", "replicasets", "ReplicaSet", true),
          new Resource("apps", "v1", "statefulsets", "StatefulSet", true),
          new Resource("events.k8s.io", "v1", "events", "Event", true),
          new Resource("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true),
          new Resource("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", false),
          new Resource("coordination.k8s.io", "v1", "leases", "Lease", true),
          new Resource("", "v1", "persistentvolumes", "PersistentVolume", false),
          new Resource("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true),
          new Resource("storage.k8s.io", "v1", "storageclasses", "StorageClass", false),
          new Resource("storage.k8s.io", "v1", "csinodes", "CSINode", false),
          new Resource("storage.k8s.io", "v1", "csidrivers", "CSIDriver", false),
          new Resource("storage.k8s.io", "v1", "csistoragecapacities", "CSIStorageCapacity", true),
          new Resource("resource.k8s.io", "v1", "resourceclaims", "ResourceClaim", true),
          new Resource(
              "resource.k8s.io", "v1", "resourceclaimtemplates", "ResourceClaimTemplate", true),
          new Resource("resource.k8s.io", "v1", "deviceclasses", "DeviceClass", false),
          new Resource("resource.k8s.io", "v1", "resourceslices", "ResourceSlice", false));

  /** Returns the built-in resource {@code group/version/plural}, or null. */
  static Resource find(String group, String version, String plural) {
    return find(group, version, plural, List.of());
  }

  /** Returns the built-in or custom resource {@code group/version/plural}, or null. */
  static Resource find(String group, String version, String plural, List<Resource> custom) {
    for (Resource r : custom) {
      if (r.group().equals(group) && r.version().equals(version) && r.plural().equals(plural)) {
        return r;
      }
    }
    for (Resource r : ALL) {
      if (r.group().equals(group) && r.version().equals(version) && r.plural().equals(plural)) {
        return r;
      }
    }
    return null;
  }

  String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  String key() {
    return group + "/" + version + "/" + plural;
  }

  /** Whether the {@code status} subresource is served: for some built-ins and every custom one. */
  boolean hasStatus() {
    return !ALL.contains(this)
        || Set.of(
                "pods",
                "nodes",
                "namespaces",
                "poddisruptionbudgets",
                "services",
                "persistentvolumes",
                "persistentvolumeclaims",
                "resourceclaims")
            .contains(plural);
  }
}
