package io.kubesched.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.runtime.ExecutorParallelizer;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.plugins.interpodaffinity.InterPodAffinity;
import io.kubesched.plugins.interpodaffinity.InterPodAffinityArgs;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PreFilter/PreScore split their work over a real thread pool and must give exactly what a
 * sequential run gives.
 */
final class ParallelPrecomputationTest {
  final ExecutorService pool = Executors.newFixedThreadPool(4);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  static List<V1Node> nodes() {
    List<V1Node> out = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      out.add(
          MakeNode.node()
              .name("n" + i)
              .label(PodTopologySpread.LABEL_HOSTNAME, "n" + i)
              .label(PodTopologySpread.LABEL_ZONE, "z" + (i % 7))
              .obj());
    }
    return out;
  }

  static List<V1Pod> pods() {
    List<V1Pod> out = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      for (int j = 0; j < i % 4; j++) {
        MakePod p = MakePod.pod().name("p" + i + "-" + j).node("n" + i).label("app", "a" + j);
        if (j == 1) {
          p.preferredPodAffinity(7, PodTopologySpread.LABEL_ZONE, "app", "a0");
        }
        if (j == 2) {
          p.podAntiAffinity(PodTopologySpread.LABEL_ZONE, "app", "a3");
        }
        out.add(p.obj());
      }
    }
    return out;
  }

  static List<String> run(FakeHandle handle) {
    PodTopologySpread pts =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);
    InterPodAffinity ipa = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
    PodInfo pod =
        MakePod.pod()
            .name("x")
            .label("app", "a3")
            .spreadConstraint(
                s -> s.maxSkew(1).topologyKey(PodTopologySpread.LABEL_ZONE).selectorIn("app", "a1"))
            .spreadConstraint(
                s ->
                    s.maxSkew(2)
                        .topologyKey(PodTopologySpread.LABEL_HOSTNAME)
                        .whenUnsatisfiable("ScheduleAnyway")
                        .selectorIn("app", "a2"))
            .podAffinity(PodTopologySpread.LABEL_ZONE, "app", "a0")
            .preferredPodAntiAffinity(5, PodTopologySpread.LABEL_ZONE, "app", "a1")
            .info();
    CycleState state = new CycleState();
    List<NodeInfo> all = handle.nodes();
    pts.preFilter(state, pod, all);
    ipa.preFilter(state, pod, all);
    List<String> out = new ArrayList<>();
    for (NodeInfo n : all) {
      out.add(n.name() + " " + pts.filter(state, pod, n) + " " + ipa.filter(state, pod, n));
    }
    assertThat(pts.preScore(state, pod, all)).isEqualTo(Status.success());
    assertThat(ipa.preScore(state, pod, all)).isEqualTo(Status.success());
    for (NodeInfo n : all) {
      out.add(n.name() + " " + pts.score(state, pod, n) + " " + ipa.score(state, pod, n));
    }
    return out;
  }

  @Test
  void parallelAndSequentialRunsAgree() {
    List<String> sequential = run(FakeHandle.of(nodes(), pods()));
    List<String> parallel =
        run(FakeHandle.of(nodes(), pods()).withParallelizer(new ExecutorParallelizer(pool, 4)));

    assertThat(parallel).isEqualTo(sequential);
    assertThat(sequential).anyMatch(l -> l.contains("Unschedulable"));
  }
}
