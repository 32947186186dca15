package io.kubesched.plugins.spreadtesting;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodAntiAffinity;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicaSetSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubernetes.client.openapi.models.V1WeightedPodAffinityTerm;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import io.kubesched.plugins.interpodaffinity.InterPodAffinity;
import io.kubesched.plugins.interpodaffinity.InterPodAffinityArgs;
import io.kubesched.plugins.podtopologyspread.PodTopologySpread;
import io.kubesched.plugins.podtopologyspread.PodTopologySpreadArgs;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A measuring harness (a {@code main}, not a test) for the PodTopologySpread and InterPodAffinity
 * plugins alone: it mirrors the scheduler_perf workloads at the plugin level (5,000 nodes, init
 * pods, then measured pods each going through PreFilter, Filter over 500 nodes, PreScore, Score,
 * NormalizeScore and a bind that replaces the chosen node's info by a copy with the pod, as the
 * incremental snapshot does) and prints the median thread CPU time per pod of several rounds.
 *
 * <p>Usage: {@code AffinitySpreadHarness [workload...]} with workloads {@code spread}, {@code
 * softspread}, {@code default}, {@code deployment} (1,000 nodes with 10 pods each, as
 * examples/clusters/large.yaml), {@code anti}, {@code affinity}, {@code preferred} (all when none).
 */
public final class AffinitySpreadHarness {
  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final String HOST = "kubernetes.io/hostname";
  private static final int SAMPLE = 500;

  private AffinitySpreadHarness() {}

  /** Runs the named workloads and prints µs of CPU per measured pod. */
  public static void main(String[] args) {
    List<String> names =
        args.length > 0
            ? List.of(args)
            : List.of("spread", "softspread", "default", "anti", "affinity", "preferred");
    for (String name : names) {
      long[] rounds = new long[5];
      for (int r = 0; r < rounds.length; r++) {
        rounds[r] = run(name);
      }
      long[] sorted = rounds.clone();
      Arrays.sort(sorted);
      System.out.printf(
          "%-12s median %8.1f us/pod  rounds %s%n",
          name, sorted[sorted.length / 2] / 1000.0, Arrays.toString(rounds));
    }
  }

  /** Returns the CPU nanoseconds per measured pod of one run. */
  private static long run(String workload) {
    int init = workload.equals("anti") ? 1000 : workload.equals("deployment") ? 10000 : 5000;
    int measured = workload.equals("anti") ? 2000 : 3000;
    int numNodes = workload.equals("deployment") ? 1000 : 5000;
    List<V1Node> nodes = new ArrayList<>();
    for (int i = 0; i < numNodes; i++) {
      String name = "node-" + i;
      Map<String, String> labels =
          workload.equals("affinity")
              ? Map.of(HOST, name, ZONE, "zone1")
              : Map.of(HOST, name, ZONE, "moon-" + (i % 3 + 1));
      nodes.add(new V1Node().metadata(new V1ObjectMeta().name(name).labels(labels)));
    }
    FakeHandle handle = FakeHandle.of(nodes, List.of());
    if (workload.startsWith("de")) {
      for (String ns : List.of("sched-0", "sched-1")) {
        handle
            .cluster()
            .create(
                new V1Service()
                    .apiVersion("v1")
                    .kind("Service")
                    .metadata(new V1ObjectMeta().name("web").namespace(ns))
                    .spec(new V1ServiceSpec().selector(Map.of("app", "web"))));
        handle
            .cluster()
            .create(
                new V1ReplicaSet()
                    .apiVersion("apps/v1")
                    .kind("ReplicaSet")
                    .metadata(new V1ObjectMeta().name("web").namespace(ns))
                    .spec(
                        new V1ReplicaSetSpec()
                            .selector(new V1LabelSelector().matchLabels(Map.of("app", "web")))));
      }
    }
    List<NodeInfo> list = handle.nodes();
    Object plugin =
        workload.endsWith("spread") || workload.startsWith("de")
            ? new PodTopologySpread(PodTopologySpreadArgs.defaults(), handle)
            : new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
    for (int i = 0; i < init; i++) {
      V1Pod p = pod(workload, true, "init-" + i, "node-" + (i % numNodes));
      list.get(i % numNodes).addPod(PodInfo.of(p));
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long total = 0;
    int offset = 0;
    for (int i = 0; i < measured; i++) {
      PodInfo pod = PodInfo.of(pod(workload, false, "pod-" + i, null));
      long start = mx.getCurrentThreadCpuTime();
      CycleState state = new CycleState();
      List<NodeInfo> feasible = new ArrayList<>(SAMPLE);
      PreFilterResult pre = ((PreFilterPlugin) plugin).preFilter(state, pod, list);
      boolean skipFilter = pre.status().isSkip();
      for (int k = 0; k < numNodes && feasible.size() < SAMPLE; k++) {
        NodeInfo n = list.get((offset + k) % numNodes);
        if (skipFilter || ((FilterPlugin) plugin).filter(state, pod, n).isSuccess()) {
          feasible.add(n);
        }
      }
      offset = (offset + SAMPLE) % numNodes;
      int best = 0;
      Status ps = ((PreScorePlugin) plugin).preScore(state, pod, feasible);
      if (ps.isSuccess()) {
        NodeScores scores = new NodeScores(feasible);
        for (int k = 0; k < feasible.size(); k++) {
          scores.set(k, ((ScorePlugin) plugin).score(state, pod, feasible.get(k)));
        }
        ((ScoreExtensions) plugin).normalizeScore(state, pod, scores);
        for (int k = 1; k < scores.size(); k++) {
          if (scores.score(k) > scores.score(best)) {
            best = k;
          }
        }
      }
      total += mx.getCurrentThreadCpuTime() - start;
      if (feasible.isEmpty()) {
        continue;
      }
      NodeInfo chosen = feasible.get(best);
      NodeInfo copy = chosen.snapshot();
      V1Pod bound = pod.pod();
      bound.getSpec().setNodeName(chosen.name());
      copy.addPod(PodInfo.of(bound));
      list.set(list.indexOf(chosen), copy);
    }
    return total / measured;
  }

  private static V1Pod pod(String workload, boolean init, String name, String node) {
    String ns = init ? "sched-0" : "sched-1";
    V1PodSpec spec = new V1PodSpec().nodeName(node);
    V1ObjectMeta meta = new V1ObjectMeta().name(name).namespace(ns).uid(ns + "-" + name);
    switch (workload) {
      case "spread", "softspread" -> {
        meta.labels(Map.of("color", "blue"));
        if (!init) {
          spec.addTopologySpreadConstraintsItem(
              new V1TopologySpreadConstraint()
                  .maxSkew(5)
                  .topologyKey(ZONE)
                  .whenUnsatisfiable(workload.equals("spread") ? "DoNotSchedule" : "ScheduleAnyway")
                  .labelSelector(new V1LabelSelector().matchLabels(Map.of("color", "blue"))));
        }
      }
      case "default", "deployment" -> {
        meta.labels(Map.of("app", "web"));
        meta.addOwnerReferencesItem(
            new io.kubernetes.client.openapi.models.V1OwnerReference()
                .apiVersion("apps/v1")
                .kind("ReplicaSet")
                .name("web")
                .controller(true));
      }
      case "anti" -> {
        meta.labels(Map.of("color", "green"));
        spec.affinity(
            new V1Affinity()
                .podAntiAffinity(
                    new V1PodAntiAffinity()
                        .addRequiredDuringSchedulingIgnoredDuringExecutionItem(
                            term("green", HOST))));
      }
      case "affinity" -> {
        meta.labels(Map.of("color", "blue"));
        spec.affinity(
            new V1Affinity()
                .podAffinity(
                    new V1PodAffinity()
                        .addRequiredDuringSchedulingIgnoredDuringExecutionItem(
                            term("blue", ZONE))));
      }
      default -> {
        meta.labels(Map.of("color", "red"));
        spec.affinity(
            new V1Affinity()
                .podAffinity(
                    new V1PodAffinity()
                        .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                            new V1WeightedPodAffinityTerm()
                                .weight(1)
                                .podAffinityTerm(term("red", HOST)))));
      }
    }
    return new V1Pod().metadata(meta).spec(spec);
  }

  private static V1PodAffinityTerm term(String color, String topologyKey) {
    return new V1PodAffinityTerm()
        .labelSelector(new V1LabelSelector().matchLabels(Map.of("color", color)))
        .topologyKey(topologyKey)
        .namespaces(List.of("sched-1", "sched-0"));
  }
}
