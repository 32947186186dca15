package io.kubesched.benchmarks.workload;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the end state of a workload independently of the scheduler's own accounting: no node
 * over-committed (the sum of its pods' requests within allocatable for cpu, memory and pods), every
 * measured pod bound, churn pods that fit no node unbound, and the templates' hard constraints held
 * (required node affinity, required anti-affinity on hostname, hard topology spreading).
 */
public final class Verifier {
  private Verifier() {}

  /**
   * Returns the violations found in the final {@code nodes} and {@code pods}; empty when the run is
   * correct.
   */
  public static List<String> verify(Workload w, List<V1Node> nodes, List<V1Pod> pods) {
    List<String> errors = new ArrayList<>();
    Map<String, long[]> used = new HashMap<>();
    Map<String, V1Node> byName = new HashMap<>();
    for (V1Node n : nodes) {
      byName.put(n.getMetadata().getName(), n);
      used.put(n.getMetadata().getName(), new long[3]);
    }
    int measuredBound = 0;
    int measuredTotal = 0;
    Map<String, Integer> greenPerNode = new HashMap<>();
    Map<String, Integer> spreadPerZone = new HashMap<>();
    for (V1Pod p : pods) {
      String name = p.getMetadata().getName();
      String node = p.getSpec().getNodeName();
      boolean bound = node != null && !node.isEmpty();
      boolean measured = name.startsWith(BindCounter.MEASURED);
      if (measured) {
        measuredTotal++;
      }
      if (!bound) {
        if (measured) {
          errors.add("measured pod " + key(p) + " is not bound");
        }
        continue;
      }
      if (measured) {
        measuredBound++;
      }
      if (name.startsWith(BindCounter.CHURN) && w.expectChurnUnschedulable()) {
        errors.add("pod " + key(p) + " fits no node but was bound to " + node);
      }
      long[] u = used.get(node);
      if (u == null) {
        errors.add("pod " + key(p) + " is bound to unknown node " + node);
        continue;
      }
      u[0] += cpuMillis(p);
      u[1] += memoryBytes(p);
      u[2] += 1;
      V1Node n = byName.get(node);
      Map<String, String> labels = n.getMetadata().getLabels();
      Map<String, String> podLabels = p.getMetadata().getLabels();
      String color = podLabels == null ? null : podLabels.get("color");
      Templates.PodKind kind = measured ? w.measuredKind() : w.initKind();
      if (name.startsWith(BindCounter.CHURN)) {
        kind = w.churnKind();
      }
      switch (kind) {
        case NODE_AFFINITY -> {
          String zone = labels.get(Templates.ZONE);
          if (!"zone1".equals(zone) && !"zone2".equals(zone)) {
            errors.add("pod " + key(p) + " violates its node affinity on " + node);
          }
        }
        case DAEMONSET -> {
          if (!Templates.DAEMONSET_NODE.equals(node)) {
            errors.add("pod " + key(p) + " violates its node affinity on " + node);
          }
        }
        case POD_ANTI_AFFINITY -> greenPerNode.merge(node, 1, Integer::sum);
        case TOPOLOGY_SPREADING -> {}
        default -> {}
      }
      if ("blue".equals(color) && w.measuredKind() == Templates.PodKind.TOPOLOGY_SPREADING) {
        spreadPerZone.merge(String.valueOf(labels.get(Templates.ZONE)), 1, Integer::sum);
      }
    }
    if (measuredTotal != w.measuredPods()) {
      errors.add("expected " + w.measuredPods() + " measured pods, found " + measuredTotal);
    }
    for (V1Node n : nodes) {
      String name = n.getMetadata().getName();
      long[] u = used.get(name);
      Map<String, Quantity> alloc = n.getStatus().getAllocatable();
      long cpu = millis(alloc.get("cpu"));
      long mem = alloc.get("memory").getNumber().longValue();
      long podCount = alloc.get("pods").getNumber().longValue();
      if (u[0] > cpu || u[1] > mem || u[2] > podCount) {
        errors.add(
            String.format(
                "node %s over-committed: cpu %dm/%dm, memory %d/%d, pods %d/%d",
                name, u[0], cpu, u[1], mem, u[2], podCount));
      }
    }
    greenPerNode.forEach(
        (node, count) -> {
          if (count > 1) {
            errors.add(count + " anti-affine pods on node " + node);
          }
        });
    if (!spreadPerZone.isEmpty()) {
      int min = Integer.MAX_VALUE;
      int max = 0;
      for (String zone : List.of("moon-1", "moon-2", "moon-3")) {
        int c = spreadPerZone.getOrDefault(zone, 0);
        min = Math.min(min, c);
        max = Math.max(max, c);
      }
      if (max - min > 5) {
        errors.add("topology spread skew " + (max - min) + " > maxSkew 5: " + spreadPerZone);
      }
    }
    if (errors.size() > 20) {
      int more = errors.size() - 20;
      List<String> head = new ArrayList<>(errors.subList(0, 20));
      head.add("... and " + more + " more");
      return head;
    }
    return errors;
  }

  private static String key(V1Pod p) {
    return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
  }

  private static long cpuMillis(V1Pod p) {
    long sum = 0;
    for (V1Container c : p.getSpec().getContainers()) {
      Quantity q = request(c, "cpu");
      sum += q == null ? 0 : millis(q);
    }
    return sum;
  }

  private static long memoryBytes(V1Pod p) {
    long sum = 0;
    for (V1Container c : p.getSpec().getContainers()) {
      Quantity q = request(c, "memory");
      sum += q == null ? 0 : q.getNumber().setScale(0, RoundingMode.CEILING).longValue();
    }
    return sum;
  }

  private static Quantity request(V1Container c, String resource) {
    if (c.getResources() == null || c.getResources().getRequests() == null) {
      return null;
    }
    return c.getResources().getRequests().get(resource);
  }

  private static long millis(Quantity q) {
    return q.getNumber()
        .multiply(BigDecimal.valueOf(1000))
        .setScale(0, RoundingMode.CEILING)
        .longValue();
  }
}
