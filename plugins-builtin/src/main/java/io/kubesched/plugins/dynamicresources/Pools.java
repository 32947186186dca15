package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1ResourceSliceSpec;
import io.kubesched.framework.NodeSelector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The resource pools whose devices a node can use (kube's {@code GatherPools}): slices of one
 * driver and pool name, of the newest generation only; a pool is incomplete while fewer slices than
 * {@code resourceSliceCount} are published and invalid when a device name repeats.
 */
final class Pools {
  /**
   * One pool.
   *
   * @param driver the driver
   * @param name the pool's name
   * @param slices the slices of its newest generation that target the node
   * @param incomplete whether slices are missing
   * @param invalid whether device names repeat
   */
  record Pool(
      String driver,
      String name,
      List<V1ResourceSlice> slices,
      boolean incomplete,
      boolean invalid,
      List<List<DeviceId>> ids) {
    /** The pool, with each device's id made once (in slice and device order). */
    Pool(
        String driver,
        String name,
        List<V1ResourceSlice> slices,
        boolean incomplete,
        boolean invalid) {
      this(driver, name, slices, incomplete, invalid, idsOf(driver, name, slices));
    }

    String id() {
      return driver + "/" + name;
    }

    private static List<List<DeviceId>> idsOf(
        String driver, String name, List<V1ResourceSlice> slices) {
      List<List<DeviceId>> out = new ArrayList<>(slices.size());
      for (V1ResourceSlice s : slices) {
        List<DeviceId> ids = new ArrayList<>();
        for (V1Device d : devices(s)) {
          ids.add(new DeviceId(driver, name, d.getName()));
        }
        out.add(List.copyOf(ids));
      }
      return List.copyOf(out);
    }
  }

  private Pools() {}

  /**
   * Gathers the pools for {@code node}, ordered by driver and pool name.
   *
   * @param partitionable whether slices with {@code perDeviceNodeSelection} are considered
   */
  static List<Pool> gather(List<V1ResourceSlice> slices, V1Node node, boolean partitionable) {
    Map<String, List<V1ResourceSlice>> byPool = new LinkedHashMap<>();
    for (V1ResourceSlice slice : slices) {
      V1ResourceSliceSpec spec = slice.getSpec();
      if (spec == null || spec.getPool() == null) {
        continue;
      }
      if (!partitionable && spec.getPerDeviceNodeSelection() != null) {
        continue;
      }
      String nodeName = spec.getNodeName() == null ? "" : spec.getNodeName();
      boolean allNodes = Boolean.TRUE.equals(spec.getAllNodes());
      boolean match;
      if (!nodeName.isEmpty() || allNodes || spec.getNodeSelector() != null) {
        match = nodeMatches(node, nodeName, allNodes, spec.getNodeSelector());
      } else if (Boolean.TRUE.equals(spec.getPerDeviceNodeSelection())) {
        match = false;
        for (V1Device d : devices(slice)) {
          if (nodeMatches(
              node,
              d.getNodeName() == null ? "" : d.getNodeName(),
              Boolean.TRUE.equals(d.getAllNodes()),
              d.getNodeSelector())) {
            match = true;
            break;
          }
        }
      } else {
        continue;
      }
      if (!match) {
        continue;
      }
      String key = spec.getDriver() + "/" + spec.getPool().getName();
      List<V1ResourceSlice> pool = byPool.computeIfAbsent(key, k -> new ArrayList<>());
      if (!pool.isEmpty()) {
        long have = generation(pool.get(0));
        long gen = generation(slice);
        if (gen < have) {
          continue;
        }
        if (gen > have) {
          pool.clear();
        }
      }
      pool.add(slice);
    }
    List<Pool> out = new ArrayList<>();
    for (List<V1ResourceSlice> pool : byPool.values()) {
      V1ResourceSliceSpec first = pool.get(0).getSpec();
      Long count = first.getPool().getResourceSliceCount();
      boolean incomplete = count == null || pool.size() != count;
      Set<String> names = new HashSet<>();
      boolean invalid = false;
      for (V1ResourceSlice s : pool) {
        for (V1Device d : devices(s)) {
          if (!names.add(d.getName())) {
            invalid = true;
          }
        }
      }
      out.add(new Pool(first.getDriver(), first.getPool().getName(), pool, incomplete, invalid));
    }
    out.sort(Comparator.comparing(Pool::driver).thenComparing(Pool::name));
    return out;
  }

  /** kube's {@code nodeMatches}: a node name, all nodes, or a node selector. */
  static boolean nodeMatches(
      V1Node node, String nodeName, boolean allNodes, V1NodeSelector selector) {
    if (!nodeName.isEmpty()) {
      return node != null && nodeName.equals(node.getMetadata().getName());
    }
    if (allNodes) {
      return true;
    }
    if (selector != null) {
      if (node == null) {
        return false;
      }
      Map<String, String> labels = node.getMetadata().getLabels();
      return NodeSelector.compile(selector)
          .matches(node.getMetadata().getName(), labels == null ? Map.of() : labels);
    }
    return false;
  }

  static List<V1Device> devices(V1ResourceSlice slice) {
    List<V1Device> d = slice.getSpec() == null ? null : slice.getSpec().getDevices();
    return d == null ? List.of() : d;
  }

  private static long generation(V1ResourceSlice s) {
    Long g = s.getSpec().getPool().getGeneration();
    return g == null ? 0 : g;
  }
}
