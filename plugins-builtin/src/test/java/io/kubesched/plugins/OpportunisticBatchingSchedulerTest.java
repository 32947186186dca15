package io.kubesched.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.FeatureGates;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Opportunistic batching ({@code OpportunisticBatching} gate) through the whole scheduler with the
 * default plugins: on random clusters and workloads (groups of identical pods, node selectors,
 * taints and tolerations, host ports, pod anti-affinity), every placement with batching on is
 * feasible and the final state satisfies the same invariants as with batching off; with a full scan
 * (percentageOfNodesToScore 100) the placements are exactly those of batching off.
 */
final class OpportunisticBatchingSchedulerTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  static Stream<Arguments> seeds() {
    return LongStream.range(1, 9)
        .mapToObj(seed -> Arguments.argumentSet("random cluster and workload, seed " + seed, seed));
  }

  /** The outcome of one run: placements by pod, and how many attempts were served by a batch. */
  private record Run(Map<String, String> placements, int batched, InMemoryCluster cluster) {}

  private static Run run(long seed, boolean batching, Integer pct) {
    return run(seed, batching, pct, false);
  }

  private static Run run(long seed, boolean batching, Integer pct, boolean podCount) {
    SimulatedTime time = new SimulatedTime(T0);
    InMemoryCluster cluster = new InMemoryCluster(time.clock());
    Random r = new Random(seed);
    int nodes = 20 + r.nextInt(60);
    for (int i = 0; i < nodes; i++) {
      MakeNode n =
          MakeNode.node()
              .name(String.format("node-%03d", i))
              .label("kubernetes.io/hostname", String.format("node-%03d", i))
              .label("zone", "z" + (i % 3))
              .label("disk", i % 4 == 0 ? "ssd" : "hdd")
              .capacity(
                  "cpu",
                  String.valueOf(2 + r.nextInt(6)),
                  "memory",
                  (4 + r.nextInt(12)) + "Gi",
                  "pods",
                  String.valueOf(10 + r.nextInt(30)));
      if (i % 7 == 3) {
        n.taint("dedicated", "gpu", "NoSchedule");
      }
      if (i % 5 == 1) {
        n.image(300_000_000L, "registry.example.com/app:1");
      }
      cluster.addNode(n.obj());
    }
    // Cordoned: no pod fits it, so a full search always evaluates more nodes than it finds.
    cluster.addNode(
        MakeNode.node()
            .name("cordoned")
            .capacity("cpu", "8", "memory", "16Gi", "pods", "110")
            .unschedulable(true)
            .obj());
    int groups = 4 + r.nextInt(6);
    int podIndex = 0;
    List<V1Pod> pods = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      int size = 5 + r.nextInt(60);
      int kind = r.nextInt(6);
      String cpu = (100 + 100 * r.nextInt(12)) + "m";
      String mem = (128 + 128 * r.nextInt(16)) + "Mi";
      for (int k = 0; k < size; k++) {
        MakePod p =
            MakePod.pod()
                .name(String.format("pod-%04d", podIndex++))
                .label("group", "g" + g)
                .container("registry.example.com/app:1")
                .req("cpu", cpu, "memory", mem);
        switch (kind) {
          case 1 -> p.nodeSelector(Map.of("disk", "ssd"));
          case 2 -> p.toleration("dedicated", "gpu", "NoSchedule");
          case 3 -> p.hostPort(8000 + g);
          case 4 -> p.podAntiAffinity("kubernetes.io/hostname", "group", "g" + g);
          case 5 -> p.preferredNodeAffinity(10, "zone", "z1");
          default -> {}
        }
        pods.add(p.obj());
      }
    }
    PluginRegistry registry = PluginRegistry.discover();
    if (podCount) {
      registry = registry.register(new PodCountProvider());
    }
    String yaml =
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
            + (pct == null ? "" : "percentageOfNodesToScore: " + pct + "\n")
            + (podCount
                ? "profiles:\n- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n"
                    + "      enabled:\n      - name: "
                    + PodCountProvider.NAME
                    + "\n        weight: 3\n"
                : "");
    AtomicInteger batched = new AtomicInteger();
    try (Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(ConfigurationLoader.parse(yaml, registry))
            .registry(registry)
            .simulatedTime(time)
            .random(new Random(seed))
            .featureGates(FeatureGates.parse("OpportunisticBatching=" + batching))
            .attemptListener(
                (pod, all, result, fitError) -> {
                  // A batched attempt evaluates only the batch's (feasible) nodes.
                  if (result != null
                      && result.evaluatedNodes() == result.feasibleNodes()
                      && result.feasibleNodes() < all.size()
                      && result.filterStatuses().size() == 0) {
                    batched.incrementAndGet();
                  }
                })
            .build()) {
      // Created one by one, 1 ms apart, so the queue pops them in creation order (groups of
      // same-signature pods in a row) as a controller creating replicas would.
      s.start();
      for (V1Pod p : pods) {
        time.advance(Duration.ofMillis(1));
        cluster.addPod(p);
      }
      s.runUntilIdle();
    }
    Map<String, String> out = new TreeMap<>();
    for (V1Pod p : cluster.listPods()) {
      out.put(p.getMetadata().getName(), String.valueOf(p.getSpec().getNodeName()));
    }
    return new Run(out, batched.get(), cluster);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void everyPlacementWithBatchingIsFeasible(long seed) {
    Run on = run(seed, true, null);
    Run off = run(seed, false, null);

    assertThat(violations(on.cluster())).isEmpty();
    assertThat(violations(off.cluster())).isEmpty();
    assertThat(on.placements().keySet()).isEqualTo(off.placements().keySet());
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void withAFullScanBatchingPlacesEveryPodAsWithout(long seed) {
    Run on = run(seed, true, 100);
    Run off = run(seed, false, 100);

    assertThat(on.placements()).isEqualTo(off.placements());
    assertThat(on.batched()).isPositive();
    assertThat(off.batched()).isZero();
  }

  /**
   * A Score plugin whose raw score changes on the node a batched pod lands on and whose
   * NormalizeScore depends on every node's raw score: the batch normalises it again each time.
   */
  @ParameterizedTest
  @MethodSource("seeds")
  void withAFullScanAScoreNormalisedOverAllNodesPlacesAsWithout(long seed) {
    Run on = run(seed, true, 100, true);
    Run off = run(seed, false, 100, true);

    assertThat(on.placements()).isEqualTo(off.placements());
    assertThat(on.batched()).isPositive();
  }

  /** Scores a node by its pod count, normalised so the emptiest node gets 100; signs every pod. */
  static final class PodCountProvider
      implements io.kubesched.framework.PluginProvider<io.kubesched.framework.NoArgs> {
    static final String NAME = "TestPodCount";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Class<io.kubesched.framework.NoArgs> argsType() {
      return io.kubesched.framework.NoArgs.class;
    }

    @Override
    public io.kubesched.framework.NoArgs defaultArgs() {
      return io.kubesched.framework.NoArgs.INSTANCE;
    }

    @Override
    public Class<? extends io.kubesched.framework.Plugin> pluginType() {
      return io.kubesched.framework.ScorePlugin.class;
    }

    @Override
    public io.kubesched.framework.Plugin create(
        io.kubesched.framework.NoArgs args, io.kubesched.framework.FrameworkHandle handle) {
      return new PodCount();
    }
  }

  static final class PodCount
      implements io.kubesched.framework.ScorePlugin,
          io.kubesched.framework.ScoreExtensions,
          io.kubesched.framework.SignPlugin {
    @Override
    public String name() {
      return PodCountProvider.NAME;
    }

    @Override
    public long score(
        io.kubesched.framework.CycleState state,
        io.kubesched.framework.PodInfo pod,
        io.kubesched.framework.NodeInfo node) {
      return node.pods().size();
    }

    @Override
    public io.kubesched.framework.Status normalizeScore(
        io.kubesched.framework.CycleState state,
        io.kubesched.framework.PodInfo pod,
        io.kubesched.framework.NodeScores scores) {
      long max = 0;
      for (int i = 0; i < scores.size(); i++) {
        max = Math.max(max, scores.score(i));
      }
      for (int i = 0; i < scores.size(); i++) {
        scores.set(i, max == 0 ? 100 : 100 - scores.score(i) * 100 / max);
      }
      return io.kubesched.framework.Status.success();
    }

    @Override
    public java.util.Optional<String> signPod(io.kubesched.framework.PodInfo pod) {
      return java.util.Optional.of("");
    }
  }

  /** Returns every broken invariant of the cluster's final state. */
  private static List<String> violations(InMemoryCluster cluster) {
    Map<String, V1Node> nodes = new HashMap<>();
    for (V1Node n : cluster.listNodes()) {
      nodes.put(n.getMetadata().getName(), n);
    }
    Map<String, long[]> used = new HashMap<>();
    Map<String, Set<Integer>> ports = new HashMap<>();
    Map<String, Set<String>> groupsOnNode = new HashMap<>();
    List<String> out = new ArrayList<>();
    for (V1Pod p : cluster.listPods()) {
      String node = p.getSpec().getNodeName();
      if (node == null) {
        continue;
      }
      String name = p.getMetadata().getName();
      V1Node n = nodes.get(node);
      long[] u = used.computeIfAbsent(node, k -> new long[3]);
      for (V1Container c : p.getSpec().getContainers()) {
        Map<String, Quantity> req =
            c.getResources() == null || c.getResources().getRequests() == null
                ? Map.of()
                : c.getResources().getRequests();
        if (req.containsKey("cpu")) {
          u[0] += req.get("cpu").getNumber().multiply(BigDecimal.valueOf(1000)).longValue();
        }
        if (req.containsKey("memory")) {
          u[1] += req.get("memory").getNumber().longValue();
        }
        if (c.getPorts() != null) {
          for (V1ContainerPort port : c.getPorts()) {
            if (port.getHostPort() != null
                && !ports.computeIfAbsent(node, k -> new HashSet<>()).add(port.getHostPort())) {
              out.add(name + ": host port " + port.getHostPort() + " taken on " + node);
            }
          }
        }
      }
      u[2]++;
      Map<String, String> labels = n.getMetadata().getLabels();
      Map<String, String> selector = p.getSpec().getNodeSelector();
      if (selector != null) {
        selector.forEach(
            (k, v) -> {
              if (!v.equals(labels.get(k))) {
                out.add(name + ": node selector " + k + "=" + v + " not on " + node);
              }
            });
      }
      if (n.getSpec() != null && n.getSpec().getTaints() != null) {
        for (V1Taint t : n.getSpec().getTaints()) {
          List<V1Toleration> tols =
              p.getSpec().getTolerations() == null ? List.of() : p.getSpec().getTolerations();
          boolean tolerated =
              tols.stream()
                  .anyMatch(
                      x -> t.getKey().equals(x.getKey()) && t.getValue().equals(x.getValue()));
          if (!tolerated) {
            out.add(name + ": untolerated taint on " + node);
          }
        }
      }
      if (p.getSpec().getAffinity() != null
          && p.getSpec().getAffinity().getPodAntiAffinity() != null) {
        String group = p.getMetadata().getLabels().get("group");
        if (!groupsOnNode.computeIfAbsent(node, k -> new HashSet<>()).add(group)) {
          out.add(name + ": anti-affinity of " + group + " broken on " + node);
        }
      }
    }
    used.forEach(
        (node, u) -> {
          Map<String, Quantity> alloc = nodes.get(node).getStatus().getAllocatable();
          long cpu = alloc.get("cpu").getNumber().multiply(BigDecimal.valueOf(1000)).longValue();
          long mem = alloc.get("memory").getNumber().longValue();
          long pods = alloc.get("pods").getNumber().longValue();
          if (u[0] > cpu || u[1] > mem || u[2] > pods) {
            out.add(node + ": over-committed " + u[0] + "m/" + u[1] + "/" + u[2]);
          }
        });
    return out;
  }
}
