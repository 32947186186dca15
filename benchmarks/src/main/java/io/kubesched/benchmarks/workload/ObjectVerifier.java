package io.kubesched.benchmarks.workload;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSINodeDriver;
import io.kubernetes.client.openapi.models.V1DeviceRequestAllocationResult;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodResourceClaim;
import io.kubernetes.client.openapi.models.V1PodResourceClaimStatus;
import io.kubernetes.client.openapi.models.V1ResourceClaimConsumerReference;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubesched.core.cluster.InMemoryCluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks the volumes and device claims of a workload's end state, independently of the plugins:
 *
 * <ul>
 *   <li>volume pods: each bound pod's PVC exists and is bound to its PV, whose {@code claimRef}
 *       names the PVC back; no node holds more {@code ebs.csi.aws.com} volumes (CSI, or in-tree AWS
 *       EBS where the CSINode says the plugin is migrated) than its CSINode's allocatable count;
 *   <li>DRA pods: each bound pod's claim exists, is allocated devices of the test driver on the
 *       pod's node (pool = node name, {@code instance-<k>} with k below the devices per node) and
 *       is reserved for the pod; no device is allocated to two claims.
 * </ul>
 */
final class ObjectVerifier {
  private ObjectVerifier() {}

  /** Returns the violations in {@code cluster}'s final state; empty when there is none. */
  static List<String> verify(Workload w, InMemoryCluster cluster) {
    if (w.setup().volumes()) {
      return volumes(cluster);
    }
    if (w.setup().dra()) {
      return claims(w, cluster);
    }
    return List.of();
  }

  private static List<String> volumes(InMemoryCluster cluster) {
    List<String> errors = new ArrayList<>();
    Map<String, Set<String>> ebsPerNode = new HashMap<>();
    for (V1Pod p : cluster.listPods()) {
      String node = p.getSpec().getNodeName();
      if (node == null || node.isEmpty() || p.getSpec().getVolumes() == null) {
        continue;
      }
      String ns = p.getMetadata().getNamespace();
      for (V1Volume v : p.getSpec().getVolumes()) {
        if (v.getPersistentVolumeClaim() == null) {
          continue;
        }
        String claim = v.getPersistentVolumeClaim().getClaimName();
        Optional<V1PersistentVolumeClaim> pvc = cluster.getPersistentVolumeClaim(ns, claim);
        if (pvc.isEmpty() || pvc.get().getSpec().getVolumeName() == null) {
          errors.add("pod " + key(p) + " on " + node + ": PVC " + claim + " missing or unbound");
          continue;
        }
        String pvName = pvc.get().getSpec().getVolumeName();
        Optional<V1PersistentVolume> pv = cluster.getPersistentVolume(pvName);
        if (pv.isEmpty()
            || pv.get().getSpec().getClaimRef() == null
            || !claim.equals(pv.get().getSpec().getClaimRef().getName())
            || !ns.equals(pv.get().getSpec().getClaimRef().getNamespace())) {
          errors.add("pod " + key(p) + ": PV " + pvName + " missing or not bound to " + claim);
          continue;
        }
        String handle = ebsHandle(pv.get(), cluster.getCSINode(node));
        if (handle != null) {
          ebsPerNode.computeIfAbsent(node, n -> new HashSet<>()).add(handle);
        }
      }
    }
    ebsPerNode.forEach(
        (node, handles) -> {
          int limit = ebsLimit(cluster.getCSINode(node));
          if (handles.size() > limit) {
            errors.add(
                "node "
                    + node
                    + " has "
                    + handles.size()
                    + " "
                    + WorkloadObjects.EBS_DRIVER
                    + " volumes, limit "
                    + limit);
          }
        });
    return cap(errors);
  }

  /** Returns the volume's handle when it counts against the EBS CSI driver's limit, else null. */
  private static String ebsHandle(V1PersistentVolume pv, Optional<V1CSINode> csiNode) {
    if (pv.getSpec().getCsi() != null
        && WorkloadObjects.EBS_DRIVER.equals(pv.getSpec().getCsi().getDriver())) {
      return pv.getSpec().getCsi().getVolumeHandle();
    }
    if (pv.getSpec().getAwsElasticBlockStore() != null && csiNode.isPresent()) {
      Map<String, String> a = csiNode.get().getMetadata().getAnnotations();
      String migrated = a == null ? null : a.get(WorkloadObjects.MIGRATED_PLUGINS);
      if (migrated != null && List.of(migrated.split(",")).contains("kubernetes.io/aws-ebs")) {
        return pv.getSpec().getAwsElasticBlockStore().getVolumeID();
      }
    }
    return null;
  }

  private static int ebsLimit(Optional<V1CSINode> csiNode) {
    if (csiNode.isPresent() && csiNode.get().getSpec().getDrivers() != null) {
      for (V1CSINodeDriver d : csiNode.get().getSpec().getDrivers()) {
        if (WorkloadObjects.EBS_DRIVER.equals(d.getName())
            && d.getAllocatable() != null
            && d.getAllocatable().getCount() != null) {
          return d.getAllocatable().getCount();
        }
      }
    }
    return Integer.MAX_VALUE;
  }

  private static List<String> claims(Workload w, InMemoryCluster cluster) {
    List<String> errors = new ArrayList<>();
    Map<String, String> deviceOwner = new HashMap<>();
    Set<String> checkedClaims = new HashSet<>();
    for (V1Pod p : cluster.listPods()) {
      String node = p.getSpec().getNodeName();
      if (node == null || node.isEmpty() || p.getSpec().getResourceClaims() == null) {
        continue;
      }
      String ns = p.getMetadata().getNamespace();
      for (V1PodResourceClaim rc : p.getSpec().getResourceClaims()) {
        String name = claimName(p, rc);
        Optional<ResourceV1ResourceClaim> claim =
            name == null ? Optional.empty() : cluster.getResourceClaim(ns, name);
        if (claim.isEmpty()) {
          errors.add("pod " + key(p) + " on " + node + ": claim " + name + " does not exist");
          continue;
        }
        var status = claim.get().getStatus();
        if (status == null
            || status.getAllocation() == null
            || status.getAllocation().getDevices() == null
            || status.getAllocation().getDevices().getResults() == null
            || status.getAllocation().getDevices().getResults().isEmpty()) {
          errors.add("pod " + key(p) + " on " + node + ": claim " + name + " is not allocated");
          continue;
        }
        List<V1ResourceClaimConsumerReference> reserved = status.getReservedFor();
        boolean reservedForPod =
            reserved != null
                && reserved.stream().anyMatch(r -> p.getMetadata().getName().equals(r.getName()));
        if (!reservedForPod) {
          errors.add("claim " + ns + "/" + name + " is not reserved for pod " + key(p));
        }
        // a shared claim's devices count once, however many pods use it
        boolean firstUse = checkedClaims.add(ns + "/" + name);
        for (V1DeviceRequestAllocationResult r : status.getAllocation().getDevices().getResults()) {
          String device = r.getDriver() + "/" + r.getPool() + "/" + r.getDevice();
          if (!WorkloadObjects.DRA_DRIVER.equals(r.getDriver())
              || !node.equals(r.getPool())
              || !validDevice(r.getDevice(), w.devicesPerNode())) {
            errors.add(
                "pod " + key(p) + " on " + node + ": claim " + name + " got device " + device);
          }
          if (firstUse) {
            String previous = deviceOwner.putIfAbsent(device, ns + "/" + name);
            if (previous != null) {
              errors.add(
                  "device " + device + " allocated to " + previous + " and " + ns + "/" + name);
            }
          }
        }
      }
    }
    // claims of no pod (a steady-state workload's pre-allocated ones) take devices too
    for (ResourceV1ResourceClaim c : cluster.listResourceClaims(null)) {
      String key = c.getMetadata().getNamespace() + "/" + c.getMetadata().getName();
      var status = c.getStatus();
      if (checkedClaims.contains(key)
          || status == null
          || status.getAllocation() == null
          || status.getAllocation().getDevices() == null
          || status.getAllocation().getDevices().getResults() == null) {
        continue;
      }
      for (V1DeviceRequestAllocationResult r : status.getAllocation().getDevices().getResults()) {
        String device = r.getDriver() + "/" + r.getPool() + "/" + r.getDevice();
        String previous = deviceOwner.putIfAbsent(device, key);
        if (previous != null) {
          errors.add("device " + device + " allocated to " + previous + " and " + key);
        }
      }
    }
    return cap(errors);
  }

  private static String claimName(V1Pod p, V1PodResourceClaim rc) {
    if (rc.getResourceClaimName() != null) {
      return rc.getResourceClaimName();
    }
    if (p.getStatus() == null || p.getStatus().getResourceClaimStatuses() == null) {
      return null;
    }
    for (V1PodResourceClaimStatus s : p.getStatus().getResourceClaimStatuses()) {
      if (rc.getName().equals(s.getName())) {
        return s.getResourceClaimName();
      }
    }
    return null;
  }

  private static boolean validDevice(String device, int devicesPerNode) {
    if (device == null || !device.startsWith("instance-")) {
      return false;
    }
    try {
      int k = Integer.parseInt(device.substring("instance-".length()));
      return k >= 0 && k < devicesPerNode;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String key(V1Pod p) {
    return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
  }

  private static List<String> cap(List<String> errors) {
    if (errors.size() <= 20) {
      return errors;
    }
    List<String> head = new ArrayList<>(errors.subList(0, 20));
    head.add("... and " + (errors.size() - 20) + " more");
    return head;
  }
}
