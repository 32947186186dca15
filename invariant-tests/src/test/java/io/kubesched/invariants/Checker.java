package io.kubesched.invariants;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The independent checker: it reads only the cluster's objects (nodes and pods as an API server
 * would hold them) and recomputes every rule from the pod specs, without the scheduler's cache,
 * NodeInfo or plugins. Each method appends human-readable violations.
 */
final class Checker {
  static final String ZONE = "topology.kubernetes.io/zone";
  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String GPU = "example.com/gpu";
  static final String APP = "app";
  static final String GROUP_LABEL = "scheduling.x-k8s.io/pod-group";
  private static final String[] RESOURCES = {"cpu", "memory", GPU};

  private Checker() {}

  static String key(V1Pod p) {
    return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
  }

  static boolean isBound(V1Pod p) {
    return p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty();
  }

  static int priority(V1Pod p) {
    return p.getSpec().getPriority() == null ? 0 : p.getSpec().getPriority();
  }

  static String label(V1Pod p, String key) {
    Map<String, String> l = p.getMetadata().getLabels();
    return l == null ? null : l.get(key);
  }

  static String label(V1Node n, String key) {
    Map<String, String> l = n.getMetadata().getLabels();
    return l == null ? null : l.get(key);
  }

  /** The pod's request of {@code resource}: the sum over its containers (no init containers). */
  static BigDecimal request(V1Pod p, String resource) {
    BigDecimal sum = BigDecimal.ZERO;
    for (V1Container c : p.getSpec().getContainers()) {
      if (c.getResources() != null && c.getResources().getRequests() != null) {
        Quantity q = c.getResources().getRequests().get(resource);
        if (q != null) {
          sum = sum.add(q.getNumber());
        }
      }
    }
    return sum;
  }

  static BigDecimal allocatable(V1Node n, String resource) {
    Map<String, Quantity> a = n.getStatus().getAllocatable();
    Quantity q = a == null ? null : a.get(resource);
    return q == null ? BigDecimal.ZERO : q.getNumber();
  }

  /**
   * Node-level constraints of {@code pod} on {@code node} as it is now: nodeSelector, required node
   * affinity, NoSchedule/NoExecute taints tolerated, node not unschedulable.
   */
  static void nodeLevelViolations(V1Pod pod, V1Node node, List<String> out, String when) {
    String where = when + ": node " + node.getMetadata().getName();
    Map<String, String> labels =
        node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    Map<String, String> sel = pod.getSpec().getNodeSelector();
    if (sel != null) {
      for (Map.Entry<String, String> e : sel.entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          out.add(where + " does not match nodeSelector " + sel);
        }
      }
    }
    if (pod.getSpec().getAffinity() != null
        && pod.getSpec().getAffinity().getNodeAffinity() != null
        && pod.getSpec()
                .getAffinity()
                .getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
            != null) {
      boolean any = false;
      for (V1NodeSelectorTerm t :
          pod.getSpec()
              .getAffinity()
              .getNodeAffinity()
              .getRequiredDuringSchedulingIgnoredDuringExecution()
              .getNodeSelectorTerms()) {
        boolean all = true;
        for (V1NodeSelectorRequirement r : t.getMatchExpressions()) {
          if (!"In".equals(r.getOperator())) {
            throw new IllegalStateException("the generator only makes In");
          }
          all &= labels.containsKey(r.getKey()) && r.getValues().contains(labels.get(r.getKey()));
        }
        any |= all;
      }
      if (!any) {
        out.add(where + " does not match the required node affinity");
      }
    }
    if (Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
      out.add(where + " is unschedulable");
    }
    if (node.getSpec().getTaints() != null) {
      for (V1Taint t : node.getSpec().getTaints()) {
        if ("PreferNoSchedule".equals(t.getEffect())) {
          continue;
        }
        if (!tolerated(pod, t)) {
          out.add(where + " has untolerated taint " + t.getKey() + "=" + t.getValue());
        }
      }
    }
  }

  private static boolean tolerated(V1Pod pod, V1Taint t) {
    if (pod.getSpec().getTolerations() == null) {
      return false;
    }
    for (V1Toleration tol : pod.getSpec().getTolerations()) {
      boolean effect = tol.getEffect() == null || tol.getEffect().equals(t.getEffect());
      boolean keyOk = tol.getKey() == null || tol.getKey().equals(t.getKey());
      boolean value =
          "Exists".equals(tol.getOperator()) || Objects.equals(tol.getValue(), t.getValue());
      if (effect && keyOk && value) {
        return true;
      }
    }
    return false;
  }

  /** Per node: requests ≤ allocatable (cpu, memory, gpu, pod count), host ports distinct. */
  static void capacityViolations(List<V1Node> nodes, List<V1Pod> pods, List<String> out) {
    Map<String, List<V1Pod>> byNode = boundByNode(pods);
    for (V1Node n : nodes) {
      List<V1Pod> on = byNode.getOrDefault(n.getMetadata().getName(), List.of());
      String name = n.getMetadata().getName();
      for (String r : RESOURCES) {
        BigDecimal sum = BigDecimal.ZERO;
        for (V1Pod p : on) {
          sum = sum.add(request(p, r));
        }
        if (sum.compareTo(allocatable(n, r)) > 0) {
          out.add(
              "node " + name + " over-committed on " + r + ": " + sum + " > " + allocatable(n, r));
        }
      }
      if (BigDecimal.valueOf(on.size()).compareTo(allocatable(n, "pods")) > 0) {
        out.add("node " + name + " holds " + on.size() + " pods > " + allocatable(n, "pods"));
      }
      Set<String> ports = new HashSet<>();
      for (V1Pod p : on) {
        for (V1Container c : p.getSpec().getContainers()) {
          if (c.getPorts() == null) {
            continue;
          }
          for (V1ContainerPort port : c.getPorts()) {
            if (port.getHostPort() != null && port.getHostPort() > 0) {
              String k = port.getProtocol() + "/" + port.getHostPort();
              if (!ports.add(k)) {
                out.add("node " + name + " has host port " + k + " twice");
              }
            }
          }
        }
      }
    }
  }

  /**
   * Required pod anti-affinity between every two bound pods on existing nodes (removals only help,
   * so it holds in every final state).
   */
  static void antiAffinityViolations(List<V1Node> nodes, List<V1Pod> pods, List<String> out) {
    Map<String, V1Node> nodeByName = nodesByName(nodes);
    List<V1Pod> placed = placed(pods, nodeByName);
    for (V1Pod a : placed) {
      for (V1PodAffinityTerm t : antiTerms(a)) {
        String domain = label(nodeByName.get(a.getSpec().getNodeName()), t.getTopologyKey());
        if (domain == null) {
          continue;
        }
        for (V1Pod b : placed) {
          if (a == b || !a.getMetadata().getNamespace().equals(b.getMetadata().getNamespace())) {
            continue;
          }
          String other = label(nodeByName.get(b.getSpec().getNodeName()), t.getTopologyKey());
          if (domain.equals(other) && matches(t, b)) {
            out.add(
                "anti-affinity: "
                    + key(a)
                    + " and "
                    + key(b)
                    + " share "
                    + t.getTopologyKey()
                    + "="
                    + domain);
          }
        }
      }
    }
  }

  /**
   * Required pod affinity: each placed pod with a term has a matching other pod in its domain (or
   * matches the term itself). Holds in final states where no pod was removed or failed to bind.
   */
  static void affinityViolations(List<V1Node> nodes, List<V1Pod> pods, List<String> out) {
    Map<String, V1Node> nodeByName = nodesByName(nodes);
    List<V1Pod> placed = placed(pods, nodeByName);
    for (V1Pod a : placed) {
      if (a.getSpec().getAffinity() == null
          || a.getSpec().getAffinity().getPodAffinity() == null
          || a.getSpec()
                  .getAffinity()
                  .getPodAffinity()
                  .getRequiredDuringSchedulingIgnoredDuringExecution()
              == null) {
        continue;
      }
      for (V1PodAffinityTerm t :
          a.getSpec()
              .getAffinity()
              .getPodAffinity()
              .getRequiredDuringSchedulingIgnoredDuringExecution()) {
        String domain = label(nodeByName.get(a.getSpec().getNodeName()), t.getTopologyKey());
        boolean ok = domain != null && matches(t, a);
        for (V1Pod b : placed) {
          if (ok) {
            break;
          }
          ok =
              b != a
                  && a.getMetadata().getNamespace().equals(b.getMetadata().getNamespace())
                  && domain != null
                  && domain.equals(
                      label(nodeByName.get(b.getSpec().getNodeName()), t.getTopologyKey()))
                  && matches(t, b);
        }
        if (!ok) {
          out.add("affinity: " + key(a) + " has no matching pod in its " + t.getTopologyKey());
        }
      }
    }
  }

  /**
   * DoNotSchedule spreading of the apps whose every pod carries the same constraint and node
   * affinity: among the domains of the nodes matching that node affinity, max - min ≤ maxSkew.
   * Holds in final states where no pod was removed and no node added or removed.
   */
  static void spreadViolations(
      List<V1Node> nodes,
      List<V1Pod> pods,
      String app,
      String topologyKey,
      int maxSkew,
      Set<String> zonesAllowed,
      List<String> out) {
    Map<String, Integer> counts = new HashMap<>();
    Map<String, V1Node> nodeByName = nodesByName(nodes);
    for (V1Node n : nodes) {
      String d = label(n, topologyKey);
      if (d != null
          && (zonesAllowed == null
              || (label(n, ZONE) != null && zonesAllowed.contains(label(n, ZONE))))) {
        counts.putIfAbsent(d, 0);
      }
    }
    for (V1Pod p : placed(pods, nodeByName)) {
      if (app.equals(label(p, APP))) {
        String d = label(nodeByName.get(p.getSpec().getNodeName()), topologyKey);
        if (d == null || !counts.containsKey(d)) {
          out.add("spread: " + key(p) + " placed outside the eligible " + topologyKey + " domains");
          continue;
        }
        counts.merge(d, 1, Integer::sum);
      }
    }
    if (counts.isEmpty()) {
      return;
    }
    int max = counts.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    int min = counts.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
    if (max - min > maxSkew) {
      out.add("spread: app " + app + " skew " + (max - min) + " > " + maxSkew + " over " + counts);
    }
  }

  /**
   * Every pod expected to exist does, once; unbound ones carry PodScheduled=False with a message.
   */
  static void lostPodViolations(List<V1Pod> pods, Set<String> expectedUids, List<String> out) {
    Map<String, V1Pod> byUid = new HashMap<>();
    for (V1Pod p : pods) {
      if (byUid.put(p.getMetadata().getUid(), p) != null) {
        out.add("uid " + p.getMetadata().getUid() + " stored twice");
      }
    }
    for (String uid : expectedUids) {
      V1Pod p = byUid.get(uid);
      if (p == null) {
        out.add("pod " + uid + " lost: neither deleted by the test nor evicted, but gone");
        continue;
      }
      if (isBound(p)) {
        continue;
      }
      V1PodCondition c = null;
      if (p.getStatus() != null && p.getStatus().getConditions() != null) {
        for (V1PodCondition pc : p.getStatus().getConditions()) {
          if ("PodScheduled".equals(pc.getType())) {
            c = pc;
          }
        }
      }
      if (c == null
          || !"False".equals(c.getStatus())
          || c.getMessage() == null
          || c.getMessage().isEmpty()) {
        out.add("pod " + key(p) + " pending without a PodScheduled=False condition and message");
      }
    }
  }

  /** A gang is all-or-nothing: 0 or at least minMember of its members bound. */
  static void gangViolations(List<V1Pod> pods, Map<String, Integer> minMember, List<String> out) {
    Map<String, Integer> bound = new HashMap<>();
    for (V1Pod p : pods) {
      String g = label(p, GROUP_LABEL);
      if (g != null && isBound(p)) {
        bound.merge(g, 1, Integer::sum);
      }
    }
    for (Map.Entry<String, Integer> e : minMember.entrySet()) {
      int b = bound.getOrDefault(e.getKey(), 0);
      if (b > 0 && b < e.getValue()) {
        out.add("gang " + e.getKey() + ": " + b + " bound < minMember " + e.getValue());
      }
    }
  }

  private static List<V1PodAffinityTerm> antiTerms(V1Pod p) {
    if (p.getSpec().getAffinity() == null
        || p.getSpec().getAffinity().getPodAntiAffinity() == null
        || p.getSpec()
                .getAffinity()
                .getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
            == null) {
      return List.of();
    }
    return p.getSpec()
        .getAffinity()
        .getPodAntiAffinity()
        .getRequiredDuringSchedulingIgnoredDuringExecution();
  }

  /** Whether {@code p}'s labels match the term's selector (the generator only makes In). */
  private static boolean matches(V1PodAffinityTerm t, V1Pod p) {
    Map<String, String> labels =
        p.getMetadata().getLabels() == null ? Map.of() : p.getMetadata().getLabels();
    for (var r : t.getLabelSelector().getMatchExpressions()) {
      if (!"In".equals(r.getOperator())) {
        throw new IllegalStateException("the generator only makes In");
      }
      if (!labels.containsKey(r.getKey()) || !r.getValues().contains(labels.get(r.getKey()))) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, V1Node> nodesByName(List<V1Node> nodes) {
    Map<String, V1Node> m = new HashMap<>();
    for (V1Node n : nodes) {
      m.put(n.getMetadata().getName(), n);
    }
    return m;
  }

  private static Map<String, List<V1Pod>> boundByNode(List<V1Pod> pods) {
    Map<String, List<V1Pod>> m = new HashMap<>();
    for (V1Pod p : pods) {
      if (isBound(p)) {
        m.computeIfAbsent(p.getSpec().getNodeName(), k -> new ArrayList<>()).add(p);
      }
    }
    return m;
  }

  /** Bound pods whose node still exists. */
  private static List<V1Pod> placed(List<V1Pod> pods, Map<String, V1Node> nodeByName) {
    List<V1Pod> out = new ArrayList<>();
    for (V1Pod p : pods) {
      if (isBound(p) && nodeByName.containsKey(p.getSpec().getNodeName())) {
        out.add(p);
      }
    }
    return out;
  }
}
