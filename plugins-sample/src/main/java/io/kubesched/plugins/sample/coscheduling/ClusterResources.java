package io.kubesched.plugins.sample.coscheduling;

import io.kubernetes.client.custom.Quantity;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Resource;
import io.kubesched.framework.ResourceNames;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * scheduler-plugins' {@code CheckClusterResource}: whether the nodes, counting what the group's own
 * pods use as free, have room in all for a PodGroup's {@code minResources} and {@code minMember}
 * pods.
 */
final class ClusterResources {
  private ClusterResources() {}

  /**
   * Returns {@code null} when the cluster has room for {@code pg}, else {@code resource gap:
   * map[NAME:QUANTITY ...]} with what is missing.
   */
  static String gap(List<NodeInfo> nodes, PodGroup pg) {
    Map<String, Quantity> want = new TreeMap<>(pg.minResources());
    want.put(ResourceNames.PODS, new Quantity(String.valueOf(pg.minMember())));
    Resource need = Resource.of(want);
    Map<String, Long> left = new LinkedHashMap<>();
    for (String name : want.keySet()) {
      left.put(name, need.get(name));
    }
    for (NodeInfo n : nodes) {
      Resource requested = Resource.zero();
      int others = 0;
      for (PodInfo p : n.pods()) {
        boolean member =
            pg.namespace().equals(p.namespace())
                && pg.name().equals(Coscheduling.groupName(p.pod()));
        if (!member) {
          requested = requested.add(p.requests());
          others++;
        }
      }
      Resource alloc = n.allocatable();
      for (Map.Entry<String, Long> e : left.entrySet()) {
        long free =
            e.getKey().equals(ResourceNames.PODS)
                ? alloc.allowedPodNumber() - others
                : alloc.get(e.getKey()) - requested.get(e.getKey());
        e.setValue(e.getValue() - free);
      }
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Long> e : left.entrySet()) {
      if (e.getValue() > 0) {
        sb.append(sb.length() == 0 ? "" : " ").append(e.getKey()).append(':').append(format(e));
      }
    }
    return sb.length() == 0 ? null : "resource gap: map[" + sb + "]";
  }

  private static String format(Map.Entry<String, Long> e) {
    boolean cpu = e.getKey().equals(ResourceNames.CPU);
    boolean bytes =
        e.getKey().equals(ResourceNames.MEMORY)
            || e.getKey().equals(ResourceNames.EPHEMERAL_STORAGE);
    BigDecimal v = cpu ? BigDecimal.valueOf(e.getValue(), 3) : BigDecimal.valueOf(e.getValue());
    return new Quantity(v, bytes ? Quantity.Format.BINARY_SI : Quantity.Format.DECIMAL_SI)
        .toSuffixedString();
  }
}
