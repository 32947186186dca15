package io.kubesched.framework;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.util.List;
import java.util.Map;

/**
 * The effective resource request of a pod (kube's {@code resourcehelper.PodRequests}): per
 * resource, the larger of the regular containers plus all restartable init containers (sidecars),
 * and each other init container plus the sidecars declared before it; then plus the pod overhead.
 */
public final class PodRequests {
  private PodRequests() {}

  /** Returns the effective requests of {@code spec}. */
  public static Resource of(V1PodSpec spec) {
    return compute(spec, false);
  }

  /**
   * Returns the effective requests of {@code spec} where a container that does not request CPU or
   * memory counts for 100m CPU and 200 MiB (kube's {@code NonMissingContainerRequests}, used by
   * scoring).
   */
  public static Resource withDefaults(V1PodSpec spec) {
    return compute(spec, true);
  }

  /**
   * Returns {@link #withDefaults(V1PodSpec)} given {@code requests}, which must be {@link
   * #of(V1PodSpec)} of the same spec: that value itself when every container requests both CPU and
   * memory (the defaults then change nothing), else computed.
   */
  public static Resource withDefaults(V1PodSpec spec, Resource requests) {
    if (spec != null
        && requestsCpuAndMemory(spec.getContainers())
        && requestsCpuAndMemory(spec.getInitContainers())) {
      return requests;
    }
    return withDefaults(spec);
  }

  private static boolean requestsCpuAndMemory(List<V1Container> containers) {
    if (containers == null) {
      return true;
    }
    for (int i = 0; i < containers.size(); i++) {
      V1ResourceRequirements res = containers.get(i).getResources();
      Map<String, Quantity> requests = res == null ? null : res.getRequests();
      if (requests == null
          || !requests.containsKey(ResourceNames.CPU)
          || !requests.containsKey(ResourceNames.MEMORY)) {
        return false;
      }
    }
    return true;
  }

  private static Resource compute(V1PodSpec spec, boolean defaults) {
    if (spec == null) {
      return Resource.zero();
    }
    Resource regular = Resource.zero();
    if (spec.getContainers() != null) {
      for (V1Container c : spec.getContainers()) {
        regular = regular.add(containerRequests(c, defaults));
      }
    }
    Resource sidecars = Resource.zero();
    Resource initMax = Resource.zero();
    if (spec.getInitContainers() != null) {
      for (V1Container c : spec.getInitContainers()) {
        Resource req = containerRequests(c, defaults);
        if ("Always".equals(c.getRestartPolicy())) {
          regular = regular.add(req);
          sidecars = sidecars.add(req);
          req = sidecars;
        } else {
          req = req.add(sidecars);
        }
        initMax = initMax.max(req);
      }
    }
    Resource total = regular.max(initMax);
    Map<String, Quantity> overhead = spec.getOverhead();
    if (overhead != null && !overhead.isEmpty()) {
      total = total.add(Resource.of(overhead));
    }
    return total;
  }

  private static Resource containerRequests(V1Container c, boolean defaults) {
    V1ResourceRequirements res = c.getResources();
    Map<String, Quantity> requests = res == null ? null : res.getRequests();
    Resource r = Resource.of(requests);
    if (!defaults) {
      return r;
    }
    boolean hasCpu = requests != null && requests.containsKey(ResourceNames.CPU);
    boolean hasMem = requests != null && requests.containsKey(ResourceNames.MEMORY);
    if (hasCpu && hasMem) {
      return r;
    }
    return new Resource(
        hasCpu ? r.milliCpu() : ResourceNames.DEFAULT_MILLI_CPU_REQUEST,
        hasMem ? r.memory() : ResourceNames.DEFAULT_MEMORY_REQUEST,
        r.ephemeralStorage(),
        r.allowedPodNumber(),
        r.scalarResources());
  }

  /** Returns whether any container of {@code spec} requests or limits the named resource. */
  public static boolean mentions(V1PodSpec spec, String resourceName) {
    if (spec == null) {
      return false;
    }
    return mentions(spec.getContainers(), resourceName)
        || mentions(spec.getInitContainers(), resourceName);
  }

  private static boolean mentions(List<V1Container> containers, String name) {
    if (containers == null) {
      return false;
    }
    for (V1Container c : containers) {
      V1ResourceRequirements r = c.getResources();
      if (r == null) {
        continue;
      }
      if ((r.getRequests() != null && r.getRequests().containsKey(name))
          || (r.getLimits() != null && r.getLimits().containsKey(name))) {
        return true;
      }
    }
    return false;
  }
}
