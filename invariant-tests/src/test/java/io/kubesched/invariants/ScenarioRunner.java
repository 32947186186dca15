package io.kubesched.invariants;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.invariants.Scenario.AddNode;
import io.kubesched.invariants.Scenario.AddPods;
import io.kubesched.invariants.Scenario.DeletePod;
import io.kubesched.invariants.Scenario.FailBinds;
import io.kubesched.invariants.Scenario.NodeSpec;
import io.kubesched.invariants.Scenario.PodSpec;
import io.kubesched.invariants.Scenario.RemoveNode;
import io.kubesched.invariants.Scenario.Step;
import io.kubesched.invariants.Scenario.UpdateNode;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Runs a {@link Scenario} through the real engine (the default profile, or Coscheduling's when the
 * scenario has gangs) on simulated time, then checks the final state with {@link Checker}.
 */
final class ScenarioRunner {
  /** The outcome: the violations found and the number of scheduling attempts (decisions). */
  record Outcome(List<String> violations, long decisions) {}

  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final PluginRegistry registry;
  private final KubeSchedulerConfiguration defaults;
  private final KubeSchedulerConfiguration coscheduling;

  ScenarioRunner() {
    registry = PluginRegistry.discover();
    defaults = io.kubesched.core.config.ConfigurationLoader.defaults(registry);
    coscheduling =
        io.kubesched.core.config.ConfigurationLoader.parse(
            """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: default-scheduler
              plugins:
                queueSort:
                  enabled: [{name: Coscheduling}]
                  disabled: [{name: "*"}]
                preFilter:
                  enabled: [{name: Coscheduling}]
                postFilter:
                  enabled: [{name: Coscheduling}]
                reserve:
                  enabled: [{name: Coscheduling}]
                permit:
                  enabled: [{name: Coscheduling}]
              pluginConfig:
              - name: Coscheduling
                args:
                  permitWaitingTimeSeconds: 30
            """,
            registry);
  }

  Outcome run(Scenario s, long seed) {
    SimulatedTime time = new SimulatedTime(START);
    InMemoryCluster mem = new InMemoryCluster(time.clock());
    RecordingCluster cluster = new RecordingCluster(mem);
    Map<String, Integer> minMember = new LinkedHashMap<>();
    for (int g = 0; g < s.groups().size(); g++) {
      String name = "g" + g;
      minMember.put(name, s.groups().get(g).minMember());
      Map<String, Object> pg = new LinkedHashMap<>();
      pg.put("apiVersion", "scheduling.x-k8s.io/v1alpha1");
      pg.put("kind", "PodGroup");
      pg.put(
          "metadata",
          Map.of("name", name, "namespace", "default", "creationTimestamp", START.toString()));
      pg.put("spec", Map.of("minMember", s.groups().get(g).minMember()));
      mem.createCustomObject(pg);
    }
    List<String> nodeNames = new ArrayList<>();
    int nodeCounter = 0;
    for (NodeSpec n : s.nodes()) {
      nodeNames.add(mem.addNode(node(n, "n" + nodeCounter++)).getMetadata().getName());
    }
    long[] decisions = {0};
    Map<String, Integer> attempts = new java.util.HashMap<>();
    Map<String, PodSpec> specs = new java.util.HashMap<>();
    Scheduler scheduler =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(s.gangs() ? coscheduling : defaults)
            .registry(registry)
            .clock(time.clock())
            .simulatedTime(time)
            .random(new Random(seed))
            .attemptListener(
                (pod, nodes, result, fitError) -> {
                  decisions[0]++;
                  attempts.merge(pod.key(), 1, Integer::sum);
                })
            .build();
    Set<String> expected = new LinkedHashSet<>();
    boolean removed = false;
    boolean nodesChanged = false;
    int podCounter = 0;
    try (scheduler) {
      scheduler.start();
      for (Step step : s.steps()) {
        if (step instanceof AddPods a) {
          for (PodSpec p : a.pods()) {
            V1Pod pod = pod(p, "p" + podCounter++);
            mem.addPod(pod);
            specs.put(Checker.key(pod), p);
            expected.add(pod.getMetadata().getUid());
          }
        } else if (step instanceof AddNode a) {
          nodeNames.add(mem.addNode(node(a.node(), "n" + nodeCounter++)).getMetadata().getName());
          nodesChanged = true;
        } else if (step instanceof RemoveNode r) {
          if (!nodeNames.isEmpty()) {
            mem.deleteNode(nodeNames.remove(r.index() % nodeNames.size()));
            nodesChanged = true;
            removed = true;
          }
        } else if (step instanceof UpdateNode u) {
          if (!nodeNames.isEmpty()) {
            updateNode(mem, nodeNames.get(u.index() % nodeNames.size()), u.toggleUnschedulable());
          }
        } else if (step instanceof DeletePod d) {
          List<V1Pod> live = mem.listPods();
          if (!live.isEmpty()) {
            V1Pod victim = live.get(d.index() % live.size());
            mem.deletePod(victim);
            expected.remove(victim.getMetadata().getUid());
            removed = true;
          }
        } else if (step instanceof FailBinds f) {
          cluster.failNextBinds(f.count(), f.conflict());
        }
        if (!(step instanceof FailBinds)) {
          scheduler.runUntilIdle();
        }
      }
      scheduler.runUntilIdle();
    }
    expected.removeAll(cluster.evictedUids());
    removed |= !cluster.evictedUids().isEmpty() || cluster.failedBinds() > 0;

    List<String> out = new ArrayList<>(cluster.violations());
    List<V1Node> nodes = mem.listNodes();
    List<V1Pod> pods = mem.listPods();
    Checker.capacityViolations(nodes, pods, out);
    Checker.antiAffinityViolations(nodes, pods, out);
    Checker.lostPodViolations(pods, expected, out);
    if (!removed) {
      Checker.affinityViolations(nodes, pods, out);
      Checker.gangViolations(pods, minMember, out);
      if (!nodesChanged) {
        Checker.spreadViolations(nodes, pods, "spread-zone", Checker.ZONE, 1, null, out);
        Checker.spreadViolations(
            nodes, pods, "spread-host", Checker.HOSTNAME, 2, Set.of("z0", "z1"), out);
      }
    }
    if (!out.isEmpty()) {
      attempts.entrySet().stream()
          .sorted((a, b) -> b.getValue() - a.getValue())
          .limit(6)
          .forEach(
              e ->
                  out.add(
                      "attempted "
                          + e.getValue()
                          + "x: "
                          + e.getKey()
                          + " "
                          + specs.get(e.getKey())));
      out.add("steps: " + s.steps().stream().map(x -> x.getClass().getSimpleName()).toList());
    }
    return new Outcome(out, decisions[0]);
  }

  /** Toggles the node's unschedulable flag, or its {@code dedicated=a:NoSchedule} taint. */
  private static void updateNode(InMemoryCluster mem, String name, boolean unschedulable) {
    V1Node n = mem.getNode(name).orElseThrow();
    if (unschedulable) {
      n.getSpec().setUnschedulable(!Boolean.TRUE.equals(n.getSpec().getUnschedulable()));
    } else {
      List<V1Taint> taints =
          n.getSpec().getTaints() == null
              ? new ArrayList<>()
              : new ArrayList<>(n.getSpec().getTaints());
      if (!taints.removeIf(t -> "dedicated".equals(t.getKey()))) {
        taints.add(new V1Taint().key("dedicated").value("a").effect("NoSchedule"));
      }
      n.getSpec().setTaints(taints);
    }
    mem.updateNode(n);
  }

  static V1Node node(NodeSpec n, String name) {
    MakeNode b = MakeNode.node().name(name).label(Checker.HOSTNAME, name).label("tier", n.tier());
    if (n.zone() != null) {
      b.label(Checker.ZONE, n.zone());
    }
    List<String> cap =
        new ArrayList<>(List.of("cpu", n.cpuMilli() + "m", "memory", n.memMi() + "Mi"));
    cap.addAll(List.of("pods", String.valueOf(n.pods())));
    if (n.gpus() > 0) {
      cap.addAll(List.of(Checker.GPU, String.valueOf(n.gpus())));
    }
    b.capacity(cap.toArray(String[]::new));
    switch (n.taint()) {
      case 1 -> b.taint("dedicated", "a", "NoSchedule");
      case 2 -> b.taint("dedicated", "b", "PreferNoSchedule");
      case 3 -> b.taint("dedicated", "c", "NoExecute");
      default -> {}
    }
    if (n.unschedulable()) {
      b.unschedulable(true);
    }
    return b.obj();
  }

  static V1Pod pod(PodSpec p, String name) {
    String app = p.app().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    MakePod b =
        MakePod.pod().name(name).namespace("default").uid("uid-" + name).label(Checker.APP, app);
    List<String> req = new ArrayList<>();
    if (p.cpuMilli() > 0) {
      req.addAll(List.of("cpu", p.cpuMilli() + "m"));
    }
    if (p.memMi() > 0) {
      req.addAll(List.of("memory", p.memMi() + "Mi"));
    }
    if (p.gpus() > 0) {
      req.addAll(List.of(Checker.GPU, String.valueOf(p.gpus())));
    }
    b.req(req.toArray(String[]::new));
    if (p.hostPort() > 0) {
      b.hostPort(p.hostPort());
    }
    b.priority(p.priority());
    if (p.tierSelector() != null) {
      b.nodeSelector(Map.of("tier", p.tierSelector()));
    }
    if (p.zoneAffinity() != null) {
      b.nodeAffinityIn(Checker.ZONE, p.zoneAffinity());
    }
    if (p.tolerates()) {
      b.toleration("dedicated", "a", "NoSchedule");
    }
    switch (p.app()) {
      case WEB -> b.podAntiAffinity(Checker.HOSTNAME, Checker.APP, "web");
      case DB -> b.podAntiAffinity(Checker.ZONE, Checker.APP, "db");
      case CACHE -> b.podAffinity(Checker.ZONE, Checker.APP, "db");
      case SPREAD_ZONE ->
          b.spreadConstraint(
              c -> c.maxSkew(1).topologyKey(Checker.ZONE).selectorIn(Checker.APP, app));
      case SPREAD_HOST ->
          b.nodeAffinityIn(Checker.ZONE, "z0", "z1")
              .spreadConstraint(
                  c -> c.maxSkew(2).topologyKey(Checker.HOSTNAME).selectorIn(Checker.APP, app));
      case SOFT ->
          b.preferredPodAntiAffinity(10, Checker.HOSTNAME, Checker.APP, app)
              .spreadConstraint(
                  c ->
                      c.maxSkew(1)
                          .topologyKey(Checker.ZONE)
                          .whenUnsatisfiable("ScheduleAnyway")
                          .selectorIn(Checker.APP, app));
      case GANG -> b.label(Checker.GROUP_LABEL, "g" + p.group());
      case FREE -> {}
    }
    return b.obj();
  }
}
