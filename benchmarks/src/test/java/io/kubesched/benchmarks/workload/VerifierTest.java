package io.kubesched.benchmarks.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.benchmarks.workload.Templates.NodeLabels;
import io.kubesched.benchmarks.workload.Templates.PodKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class VerifierTest {
  private static final Workload BASIC =
      Workload.of(
          "basic",
          2,
          NodeLabels.NONE,
          0,
          PodKind.DEFAULT,
          "default",
          2,
          PodKind.DEFAULT,
          "default");
  private static final Workload ANTI =
      Workload.of(
          "anti",
          2,
          NodeLabels.NONE,
          0,
          PodKind.POD_ANTI_AFFINITY,
          "sched-0",
          2,
          PodKind.POD_ANTI_AFFINITY,
          "sched-1");
  private static final Workload CHURN =
      new Workload(
          "churn",
          2,
          NodeLabels.NONE,
          false,
          0,
          PodKind.DEFAULT,
          "default",
          1,
          PodKind.DEFAULT,
          "default",
          PodKind.HIGH_PRIORITY_LARGE_CPU,
          Duration.ofMillis(200),
          true);
  private static final Workload DAEMONSET =
      new Workload(
          "ds",
          1,
          NodeLabels.NONE,
          true,
          0,
          PodKind.DEFAULT,
          "default",
          1,
          PodKind.DAEMONSET,
          "default",
          null,
          null,
          false);

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "every measured pod bound within capacity passes",
            BASIC,
            List.of(
                bound(PodKind.DEFAULT, "measured-0", 0), bound(PodKind.DEFAULT, "measured-1", 1)),
            List.of()),
        Arguments.argumentSet(
            "a measured pod left unbound fails",
            BASIC,
            List.of(
                bound(PodKind.DEFAULT, "measured-0", 0),
                Templates.pod(PodKind.DEFAULT, "default", "measured-1")),
            List.of("measured pod default/measured-1 is not bound")),
        Arguments.argumentSet(
            "a node given more cpu than it has fails",
            BASIC,
            List.of(
                bound(PodKind.DEFAULT, "measured-0", 0),
                bound(PodKind.DEFAULT, "measured-1", 0),
                bound(PodKind.HIGH_PRIORITY, "init-0", 0),
                bound(PodKind.LOW_PRIORITY, "init-1", 0)),
            List.of(
                "node scheduler-perf-00000 over-committed: cpu 4100m/4000m, memory"
                    + " 2097152000/34359738368, pods 4/110")),
        Arguments.argumentSet(
            "a missing measured pod fails",
            BASIC,
            List.of(bound(PodKind.DEFAULT, "measured-0", 0)),
            List.of("expected 2 measured pods, found 1")),
        Arguments.argumentSet(
            "two anti-affine pods on one node fail",
            ANTI,
            List.of(
                bound(PodKind.POD_ANTI_AFFINITY, "measured-0", 1),
                bound(PodKind.POD_ANTI_AFFINITY, "measured-1", 1)),
            List.of("2 anti-affine pods on node scheduler-perf-00001")),
        Arguments.argumentSet(
            "a churn pod that fits no node but was bound fails",
            CHURN,
            List.of(
                bound(PodKind.DEFAULT, "measured-0", 0),
                bound(PodKind.HIGH_PRIORITY_LARGE_CPU, "churn-0", 1)),
            List.of(
                "pod default/churn-0 fits no node but was bound to scheduler-perf-00001",
                "node scheduler-perf-00001 over-committed: cpu 9000m/4000m, memory"
                    + " 524288000/34359738368, pods 1/110")),
        Arguments.argumentSet(
            "a daemonset pod off its node fails",
            DAEMONSET,
            List.of(bound(PodKind.DAEMONSET, "measured-0", 0)),
            List.of("pod default/measured-0 violates its node affinity on scheduler-perf-00000")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void verify(Workload w, List<V1Pod> pods, List<String> expected) {
    List<V1Node> nodes = new ArrayList<>();
    if (w.daemonsetNode()) {
      nodes.add(Templates.daemonsetNode());
    }
    for (int i = 0; i < w.nodes(); i++) {
      nodes.add(Templates.node(i, w.nodeLabels()));
    }

    assertThat(Verifier.verify(w, nodes, pods)).isEqualTo(expected);
  }

  private static V1Pod bound(PodKind kind, String name, int node) {
    String ns =
        kind == PodKind.POD_ANTI_AFFINITY
            ? (name.startsWith("init") ? "sched-0" : "sched-1")
            : "default";
    V1Pod p = Templates.pod(kind, ns, name);
    p.getSpec().setNodeName(String.format("scheduler-perf-%05d", node));
    return p;
  }
}
