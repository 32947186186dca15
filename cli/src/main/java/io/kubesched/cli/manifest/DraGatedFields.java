package io.kubesched.cli.manifest;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1DeviceCapacity;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceSubRequest;
import io.kubernetes.client.openapi.models.V1ExactDeviceRequest;
import io.kubernetes.client.openapi.models.V1ResourceClaimSpec;
import io.kubernetes.client.openapi.models.V1ResourceClaimTemplate;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import java.util.List;
import java.util.Map;

/**
 * Fields of {@code resource.k8s.io/v1} that belong to DRA features alpha and off by default in kube
 * v1.34 (DRADeviceTaints, DRAPartitionableDevices, DRADeviceBindingConditions,
 * DRAConsumableCapacity, DRAExtendedResource). A v1.34 API server with those gates off drops the
 * fields when an object is created, so the loader does the same: it clears each one it finds and
 * warns, naming the object, the field and the gate.
 */
final class DraGatedFields {
  private DraGatedFields() {}

  /** Clears the gated fields of {@code o}, adding a warning (prefixed by {@code prefix}) each. */
  static void strip(String prefix, KubernetesObject o, List<String> warnings) {
    if (o instanceof ResourceV1ResourceClaim c) {
      claimSpec(prefix, "spec", c.getSpec(), warnings);
    } else if (o instanceof V1ResourceClaimTemplate t && t.getSpec() != null) {
      claimSpec(prefix, "spec.spec", t.getSpec().getSpec(), warnings);
    } else if (o instanceof V1DeviceClass dc && dc.getSpec() != null) {
      if (dc.getSpec().getExtendedResourceName() != null) {
        warn(prefix, "spec.extendedResourceName", "DRAExtendedResource", warnings);
        dc.getSpec().setExtendedResourceName(null);
      }
    } else if (o instanceof V1ResourceSlice s && s.getSpec() != null) {
      if (present(s.getSpec().getSharedCounters())) {
        warn(prefix, "spec.sharedCounters", "DRAPartitionableDevices", warnings);
        s.getSpec().setSharedCounters(null);
      }
      List<V1Device> devices = s.getSpec().getDevices();
      for (int i = 0; devices != null && i < devices.size(); i++) {
        device(prefix, "spec.devices[" + i + "]", devices.get(i), warnings);
      }
    }
  }

  private static void device(String prefix, String path, V1Device d, List<String> warnings) {
    if (present(d.getConsumesCounters())) {
      warn(prefix, path + ".consumesCounters", "DRAPartitionableDevices", warnings);
      d.setConsumesCounters(null);
    }
    if (present(d.getTaints())) {
      warn(prefix, path + ".taints", "DRADeviceTaints", warnings);
      d.setTaints(null);
    }
    if (present(d.getBindingConditions())) {
      warn(prefix, path + ".bindingConditions", "DRADeviceBindingConditions", warnings);
      d.setBindingConditions(null);
    }
    if (present(d.getBindingFailureConditions())) {
      warn(prefix, path + ".bindingFailureConditions", "DRADeviceBindingConditions", warnings);
      d.setBindingFailureConditions(null);
    }
    if (d.getBindsToNode() != null) {
      warn(prefix, path + ".bindsToNode", "DRADeviceBindingConditions", warnings);
      d.setBindsToNode(null);
    }
    if (d.getAllowMultipleAllocations() != null) {
      warn(prefix, path + ".allowMultipleAllocations", "DRAConsumableCapacity", warnings);
      d.setAllowMultipleAllocations(null);
    }
    Map<String, V1DeviceCapacity> capacity = d.getCapacity();
    if (capacity != null) {
      for (Map.Entry<String, V1DeviceCapacity> e : capacity.entrySet()) {
        if (e.getValue() != null && e.getValue().getRequestPolicy() != null) {
          warn(
              prefix,
              path + ".capacity[" + e.getKey() + "].requestPolicy",
              "DRAConsumableCapacity",
              warnings);
          e.getValue().setRequestPolicy(null);
        }
      }
    }
  }

  private static void claimSpec(
      String prefix, String path, V1ResourceClaimSpec spec, List<String> warnings) {
    if (spec == null || spec.getDevices() == null || spec.getDevices().getRequests() == null) {
      return;
    }
    List<V1DeviceRequest> requests = spec.getDevices().getRequests();
    for (int i = 0; i < requests.size(); i++) {
      V1DeviceRequest r = requests.get(i);
      String rp = path + ".devices.requests[" + i + "]";
      V1ExactDeviceRequest e = r.getExactly();
      if (e != null) {
        if (present(e.getTolerations())) {
          warn(prefix, rp + ".exactly.tolerations", "DRADeviceTaints", warnings);
          e.setTolerations(null);
        }
        if (e.getCapacity() != null) {
          warn(prefix, rp + ".exactly.capacity", "DRAConsumableCapacity", warnings);
          e.setCapacity(null);
        }
      }
      List<V1DeviceSubRequest> subs = r.getFirstAvailable();
      for (int j = 0; subs != null && j < subs.size(); j++) {
        V1DeviceSubRequest s = subs.get(j);
        String sp = rp + ".firstAvailable[" + j + "]";
        if (present(s.getTolerations())) {
          warn(prefix, sp + ".tolerations", "DRADeviceTaints", warnings);
          s.setTolerations(null);
        }
        if (s.getCapacity() != null) {
          warn(prefix, sp + ".capacity", "DRAConsumableCapacity", warnings);
          s.setCapacity(null);
        }
      }
    }
  }

  private static boolean present(List<?> l) {
    return l != null && !l.isEmpty();
  }

  private static void warn(String prefix, String path, String gate, List<String> warnings) {
    warnings.add(
        prefix
            + path
            + ": ignored: it needs the "
            + gate
            + " feature gate (alpha, off by default in kube v1.34), which kubesched does not"
            + " support; a v1.34 API server with the gate off drops the field too");
  }
}
