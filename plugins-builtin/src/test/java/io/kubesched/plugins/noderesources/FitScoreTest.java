package io.kubesched.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.PodInfo;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports {@code TestLeastAllocatedScoringStrategy}, {@code TestMostAllocatedScoringStrategy}, {@code
 * TestRequestedToCapacityRatioScoringStrategy}, {@code TestResourceBinPacking*Extended}, {@code
 * TestBrokenLinearFunction} and {@code TestFitScore}.
 */
final class FitScoreTest {
  private static final String EXT = "intel.com/foo";
  private static final List<ResourceSpec> DEFAULT = ResourceSpec.DEFAULTS;
  private static final List<ResourceSpec> WITH_EXT =
      List.of(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1), new ResourceSpec(EXT, 1));

  private static V1Node node(String name, String... capacity) {
    return MakeNode.node().name(name).capacity(capacity).obj();
  }

  private static V1Pod bound(String node, String... req) {
    return MakePod.pod()
        .name("e-" + node + "-" + req.length + System.identityHashCode(req))
        .node(node)
        .req(req)
        .obj();
  }

  private static V1Pod boundNoContainers(String node, int i) {
    return MakePod.pod().name("e-" + node + i).node(node).obj();
  }

  private static final V1Pod POD_3000_5000 =
      MakePod.pod().req("cpu", "1000", "memory", "2000").req("cpu", "2000", "memory", "3000").obj();

  static Stream<Arguments> leastAllocated() {
    return Stream.of(
        argumentSet(
            "nothing scheduled, nothing requested",
            MakePod.pod().obj(),
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "4000", "memory", "10000")),
            List.of(),
            DEFAULT,
            List.of(new NodeScore("node1", 100), new NodeScore("node2", 100))),
        argumentSet(
            "nothing scheduled, resources requested, differently sized nodes",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000")),
            List.of(),
            DEFAULT,
            List.of(new NodeScore("node1", 37), new NodeScore("node2", 50))),
        argumentSet(
            "no resources requested, pods scheduled",
            MakePod.pod().obj(),
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "4000", "memory", "10000")),
            List.of(
                boundNoContainers("node1", 1),
                boundNoContainers("node1", 2),
                boundNoContainers("node2", 1),
                boundNoContainers("node2", 2)),
            DEFAULT,
            List.of(new NodeScore("node1", 100), new NodeScore("node2", 100))),
        argumentSet(
            "containers without requests count the non-zero defaults (100m, 200Mi)",
            MakePod.pod().container("img").obj(),
            List.of(
                node("node1", "cpu", "4000m", "memory", "1Gi"),
                node("node2", "cpu", "4000m", "memory", "1Gi")),
            List.of(MakePod.pod().name("e-node1-plain").node("node1").container("img").obj()),
            DEFAULT,
            List.of(new NodeScore("node1", 77), new NodeScore("node2", 88))),
        argumentSet(
            "no resources requested, pods scheduled with resources",
            MakePod.pod().obj(),
            List.of(
                node("node1", "cpu", "10000", "memory", "20000"),
                node("node2", "cpu", "10000", "memory", "20000")),
            List.of(
                bound("node1", "cpu", "3000", "memory", "0"),
                bound("node1", "cpu", "3000", "memory", "0"),
                bound("node2", "cpu", "3000", "memory", "0"),
                bound("node2", "cpu", "3000", "memory", "5000")),
            DEFAULT,
            List.of(new NodeScore("node1", 70), new NodeScore("node2", 57))),
        argumentSet(
            "resources requested, pods scheduled with resources",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "10000", "memory", "20000"),
                node("node2", "cpu", "10000", "memory", "20000")),
            List.of(
                bound("node1", "cpu", "3000", "memory", "0"),
                bound("node2", "cpu", "3000", "memory", "5000")),
            DEFAULT,
            List.of(new NodeScore("node1", 57), new NodeScore("node2", 45))),
        argumentSet(
            "resources requested, pods scheduled with resources, differently sized nodes",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "10000", "memory", "20000"),
                node("node2", "cpu", "10000", "memory", "50000")),
            List.of(
                bound("node1", "cpu", "3000", "memory", "0"),
                bound("node2", "cpu", "3000", "memory", "5000")),
            DEFAULT,
            List.of(new NodeScore("node1", 57), new NodeScore("node2", 60))),
        argumentSet(
            "requested resources exceed node capacity",
            MakePod.pod().req("cpu", "3000", "memory", "0").obj(),
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "4000", "memory", "10000")),
            List.of(
                bound("node1", "cpu", "3000", "memory", "0"),
                bound("node2", "cpu", "3000", "memory", "5000")),
            DEFAULT,
            List.of(new NodeScore("node1", 50), new NodeScore("node2", 25))),
        argumentSet(
            "zero node resources, pods scheduled with resources",
            MakePod.pod().obj(),
            List.of(MakeNode.node().name("node1").obj(), MakeNode.node().name("node2").obj()),
            List.of(
                bound("node1", "cpu", "3000", "memory", "0"),
                bound("node2", "cpu", "3000", "memory", "5000")),
            DEFAULT,
            List.of(new NodeScore("node1", 0), new NodeScore("node2", 0))),
        argumentSet(
            "nothing scheduled, resources requested with different weight on CPU and memory,"
                + " differently sized nodes",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000")),
            List.of(),
            List.of(new ResourceSpec("memory", 2), new ResourceSpec("cpu", 1)),
            List.of(new NodeScore("node1", 41), new NodeScore("node2", 50))),
        argumentSet(
            "bypass extended resource if the pod does not request",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "6000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000", EXT, "4")),
            List.of(),
            WITH_EXT,
            List.of(new NodeScore("node1", 50), new NodeScore("node2", 50))),
        argumentSet(
            "honor extended resource if the pod requests",
            MakePod.pod().req("cpu", "3000", "memory", "5000", EXT, "2").obj(),
            List.of(
                node("node1", "cpu", "6000", "memory", "10000", EXT, "4"),
                node("node2", "cpu", "6000", "memory", "10000", EXT, "10")),
            List.of(),
            WITH_EXT,
            List.of(new NodeScore("node1", 50), new NodeScore("node2", 60))),
        argumentSet(
            "if the node doesn't have a resource",
            MakePod.pod().req("cpu", "3000", "memory", "4000").obj(),
            List.of(
                node("node1", "cpu", "6000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000", EXT, "4")),
            List.of(),
            List.of(
                new ResourceSpec(EXT, 2),
                new ResourceSpec("cpu", 1),
                new ResourceSpec("memory", 1)),
            List.of(new NodeScore("node1", 55), new NodeScore("node2", 55))));
  }

  @ParameterizedTest
  @MethodSource("leastAllocated")
  void leastAllocated(
      V1Pod pod,
      List<V1Node> nodes,
      List<V1Pod> pods,
      List<ResourceSpec> res,
      List<NodeScore> want) {
    assertThat(
            run(new ScoringStrategy(ScoringStrategy.LEAST_ALLOCATED, res, null), pod, nodes, pods))
        .isEqualTo(want);
  }

  static Stream<Arguments> mostAllocated() {
    return Stream.of(
        argumentSet(
            "nothing scheduled, nothing requested",
            MakePod.pod().obj(),
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "4000", "memory", "10000")),
            List.of(),
            DEFAULT,
            List.of(new NodeScore("node1", 0), new NodeScore("node2", 0))),
        argumentSet(
            "nothing scheduled, resources requested, differently sized nodes",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000")),
            List.of(),
            DEFAULT,
            List.of(new NodeScore("node1", 62), new NodeScore("node2", 50))),
        argumentSet(
            "no resources requested, pods scheduled with resources",
            MakePod.pod().obj(),
            List.of(
                node("node1", "cpu", "10000", "memory", "20000"),
                node("node2", "cpu", "10000", "memory", "20000")),
            List.of(
                bound("node1", "cpu", "3000", "memory", "0"),
                bound("node1", "cpu", "3000", "memory", "0"),
                bound("node2", "cpu", "3000", "memory", "0"),
                bound("node2", "cpu", "3000", "memory", "5000")),
            DEFAULT,
            List.of(new NodeScore("node1", 30), new NodeScore("node2", 42))),
        argumentSet(
            "resources requested, pods scheduled with resources",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "10000", "memory", "20000"),
                node("node2", "cpu", "10000", "memory", "20000")),
            List.of(
                bound("node1", "cpu", "3000", "memory", "0"),
                bound("node2", "cpu", "3000", "memory", "5000")),
            DEFAULT,
            List.of(new NodeScore("node1", 42), new NodeScore("node2", 55))),
        argumentSet(
            "resources requested equal node capacity",
            MakePod.pod()
                .req("cpu", "2000", "memory", "4000")
                .req("cpu", "3000", "memory", "5000")
                .obj(),
            List.of(
                node("node1", "cpu", "5000", "memory", "10000"),
                node("node2", "cpu", "10000", "memory", "9000")),
            List.of(),
            DEFAULT,
            List.of(new NodeScore("node1", 95), new NodeScore("node2", 75))),
        argumentSet(
            "nothing scheduled, resources requested, differently sized nodes, memory weighted 2",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000")),
            List.of(),
            List.of(new ResourceSpec("memory", 2), new ResourceSpec("cpu", 1)),
            List.of(new NodeScore("node1", 58), new NodeScore("node2", 50))),
        argumentSet(
            "no resources requested, pods scheduled, nonzero request for resource",
            MakePod.pod().container("container").obj(),
            List.of(
                node("node1", "cpu", "250m", "memory", "1000Mi"),
                node("node2", "cpu", "250m", "memory", "1000Mi")),
            List.of(
                MakePod.pod().name("a").node("node1").container("container").obj(),
                MakePod.pod().name("b").node("node1").container("container").obj()),
            DEFAULT,
            List.of(new NodeScore("node1", 80), new NodeScore("node2", 30))),
        argumentSet(
            "bypass extended resource if the pod does not request",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "6000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000", EXT, "4")),
            List.of(),
            WITH_EXT,
            List.of(new NodeScore("node1", 50), new NodeScore("node2", 50))),
        argumentSet(
            "honor extended resource if the pod request",
            MakePod.pod().req("cpu", "3000", "memory", "5000", EXT, "2").obj(),
            List.of(
                node("node1", "cpu", "6000", "memory", "10000", EXT, "4"),
                node("node2", "cpu", "6000", "memory", "10000", EXT, "10")),
            List.of(),
            WITH_EXT,
            List.of(new NodeScore("node1", 50), new NodeScore("node2", 40))),
        argumentSet(
            "if the node doesn't have a resource",
            MakePod.pod().req("cpu", "3000", "memory", "4000").obj(),
            List.of(
                node("node1", "cpu", "6000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000", EXT, "4")),
            List.of(),
            List.of(
                new ResourceSpec(EXT, 2),
                new ResourceSpec("cpu", 1),
                new ResourceSpec("memory", 1)),
            List.of(new NodeScore("node1", 45), new NodeScore("node2", 45))));
  }

  @ParameterizedTest
  @MethodSource("mostAllocated")
  void mostAllocated(
      V1Pod pod,
      List<V1Node> nodes,
      List<V1Pod> pods,
      List<ResourceSpec> res,
      List<NodeScore> want) {
    assertThat(
            run(new ScoringStrategy(ScoringStrategy.MOST_ALLOCATED, res, null), pod, nodes, pods))
        .isEqualTo(want);
  }

  private static final RequestedToCapacityRatioParam LEAST_SHAPE =
      new RequestedToCapacityRatioParam(
          List.of(new UtilizationShapePoint(0, 10), new UtilizationShapePoint(100, 0)));

  static Stream<Arguments> requestedToCapacityRatio() {
    return Stream.of(
        argumentSet(
            "nothing scheduled, nothing requested (default - least requested nodes have priority)",
            MakePod.pod().obj(),
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "4000", "memory", "10000")),
            List.of(boundNoContainers("node1", 1), boundNoContainers("node1", 2)),
            List.of(new NodeScore("node1", 100), new NodeScore("node2", 100))),
        argumentSet(
            "nothing scheduled, resources requested, differently sized nodes (default - least"
                + " requested nodes have priority)",
            POD_3000_5000,
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000")),
            List.of(boundNoContainers("node1", 1), boundNoContainers("node1", 2)),
            List.of(new NodeScore("node1", 38), new NodeScore("node2", 50))),
        argumentSet(
            "no resources requested, pods scheduled with resources (default - least requested"
                + " nodes have priority)",
            MakePod.pod().obj(),
            List.of(
                node("node1", "cpu", "4000", "memory", "10000"),
                node("node2", "cpu", "6000", "memory", "10000")),
            List.of(
                bound("node1", "cpu", "3000", "memory", "5000"),
                bound("node2", "cpu", "3000", "memory", "5000")),
            List.of(new NodeScore("node1", 38), new NodeScore("node2", 50))));
  }

  @ParameterizedTest
  @MethodSource("requestedToCapacityRatio")
  void requestedToCapacityRatio(
      V1Pod pod, List<V1Node> nodes, List<V1Pod> pods, List<NodeScore> want) {
    ScoringStrategy s =
        new ScoringStrategy(ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO, DEFAULT, LEAST_SHAPE);
    assertThat(run(s, pod, nodes, pods)).isEqualTo(want);
  }

  static Stream<Arguments> binPacking() {
    ScoringStrategy single =
        new ScoringStrategy(
            ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO,
            List.of(new ResourceSpec(EXT, 1)),
            new RequestedToCapacityRatioParam(
                List.of(new UtilizationShapePoint(0, 0), new UtilizationShapePoint(100, 1))));
    ScoringStrategy multiple =
        new ScoringStrategy(
            ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO,
            List.of(new ResourceSpec(EXT, 3), new ResourceSpec("intel.com/bar", 5)),
            new RequestedToCapacityRatioParam(
                List.of(new UtilizationShapePoint(0, 0), new UtilizationShapePoint(100, 1))));
    List<V1Node> singleNodes =
        List.of(
            Nodes.node("node1", 4000, 10000L * 1024 * 1024, java.util.Map.of(EXT, 8L)),
            Nodes.node("node2", 4000, 10000L * 1024 * 1024, java.util.Map.of(EXT, 4L)));
    List<V1Node> multiNodes =
        List.of(
            Nodes.node(
                "node1",
                4000,
                10000L * 1024 * 1024,
                java.util.Map.of(EXT, 8L, "intel.com/bar", 4L)),
            Nodes.node(
                "node2",
                4000,
                10000L * 1024 * 1024,
                java.util.Map.of(EXT, 4L, "intel.com/bar", 8L)));
    return Stream.of(
        argumentSet(
            "single extended: nothing scheduled, nothing requested",
            single,
            MakePod.pod().obj(),
            singleNodes,
            List.of(),
            List.of(new NodeScore("node1", 0), new NodeScore("node2", 0))),
        argumentSet(
            "single extended: resources requested, pods scheduled with less resources",
            single,
            MakePod.pod().req(EXT, "2").obj(),
            singleNodes,
            List.of(),
            List.of(new NodeScore("node1", 2), new NodeScore("node2", 5))),
        argumentSet(
            "single extended: resources requested, pods scheduled with resources, on node with"
                + " existing pod running",
            single,
            MakePod.pod().req(EXT, "2").obj(),
            singleNodes,
            List.of(bound("node2", EXT, "2")),
            List.of(new NodeScore("node1", 2), new NodeScore("node2", 10))),
        argumentSet(
            "single extended: resources requested, pods scheduled with more resources",
            single,
            MakePod.pod().req(EXT, "4").obj(),
            singleNodes,
            List.of(),
            List.of(new NodeScore("node1", 5), new NodeScore("node2", 10))),
        argumentSet(
            "multiple extended: nothing scheduled, nothing requested",
            multiple,
            MakePod.pod().obj(),
            multiNodes,
            List.of(),
            List.of(new NodeScore("node1", 0), new NodeScore("node2", 0))),
        argumentSet(
            "multiple extended: resources requested, pods scheduled with less resources",
            multiple,
            MakePod.pod().req(EXT, "2", "intel.com/bar", "2").obj(),
            multiNodes,
            List.of(),
            List.of(new NodeScore("node1", 4), new NodeScore("node2", 3))));
  }

  @ParameterizedTest
  @MethodSource("binPacking")
  void binPacking(
      ScoringStrategy strategy,
      V1Pod pod,
      List<V1Node> nodes,
      List<V1Pod> pods,
      List<NodeScore> want) {
    assertThat(run(strategy, pod, nodes, pods)).isEqualTo(want);
  }

  @Test
  void brokenLinearFunction() {
    long[][] a1 = {
      {-10, 1}, {0, 1}, {9, 1}, {10, 1}, {15, 1}, {19, 1}, {20, 2}, {89, 8}, {90, 9}, {99, 9},
      {100, 9}, {110, 9}
    };
    for (long[] a : a1) {
      assertThat(linear(a[0], 10, 1, 90, 9)).as("p=%d", a[0]).isEqualTo(a[1]);
    }
    long[][] a2 = {{-10, 2}, {0, 2}, {20, 6}, {30, 8}, {40, 10}, {70, 5}, {100, 0}, {110, 0}};
    for (long[] a : a2) {
      assertThat(linear(a[0], 0, 2, 40, 10, 100, 0)).as("p=%d", a[0]).isEqualTo(a[1]);
    }
    long[][] a3 = {{-10, 2}, {0, 2}, {20, 2}, {30, 2}, {40, 2}, {70, 2}, {100, 2}, {110, 2}};
    for (long[] a : a3) {
      assertThat(linear(a[0], 0, 2, 40, 2, 100, 2)).as("p=%d", a[0]).isEqualTo(a[1]);
    }
  }

  private static long linear(long p, long... points) {
    long[] u = new long[points.length / 2];
    long[] s = new long[points.length / 2];
    for (int i = 0; i < u.length; i++) {
      u[i] = points[2 * i];
      s[i] = points[2 * i + 1];
    }
    return Scorer.RequestedToCapacityRatio.brokenLinear(u, s, p);
  }

  static Stream<Arguments> fitScore() {
    List<V1Node> nodes =
        List.of(
            node("node1", "cpu", "4000", "memory", "10000"),
            node("node2", "cpu", "6000", "memory", "10000"));
    List<V1Pod> pods =
        List.of(
            bound("node1", "cpu", "2000", "memory", "4000"),
            bound("node2", "cpu", "1000", "memory", "2000"));
    V1Pod big = MakePod.pod().req("cpu", "3000", "memory", "5000").obj();
    V1Pod small = MakePod.pod().req("cpu", "1000", "memory", "2000").obj();
    ScoringStrategy rtcr1 =
        new ScoringStrategy(ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO, DEFAULT, LEAST_SHAPE);
    ScoringStrategy rtcr2 =
        new ScoringStrategy(
            ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO,
            DEFAULT,
            new RequestedToCapacityRatioParam(
                List.of(new UtilizationShapePoint(0, 0), new UtilizationShapePoint(100, 10))));
    ScoringStrategy most = new ScoringStrategy(ScoringStrategy.MOST_ALLOCATED, DEFAULT, null);
    ScoringStrategy least = new ScoringStrategy(ScoringStrategy.LEAST_ALLOCATED, DEFAULT, null);
    List<V1Node> sameNodes =
        List.of(
            node("node1", "cpu", "4000", "memory", "10000"),
            node("node2", "cpu", "4000", "memory", "10000"));
    List<V1Pod> sidecarPods =
        List.of(
            MakePod.pod()
                .name("s")
                .node("node1")
                .req("cpu", "1000", "memory", "2000")
                .sidecarReq("cpu", "1000", "memory", "2000")
                .obj(),
            bound("node2", "cpu", "1000", "memory", "2000"));
    return Stream.of(
        argumentSet(
            "RequestedToCapacityRatio case1",
            rtcr1,
            big,
            nodes,
            pods,
            true,
            List.of(new NodeScore("node1", 10), new NodeScore("node2", 32))),
        argumentSet(
            "RequestedToCapacityRatio case2",
            rtcr2,
            big,
            nodes,
            pods,
            true,
            List.of(new NodeScore("node1", 95), new NodeScore("node2", 68))),
        argumentSet(
            "MostAllocated",
            most,
            small,
            nodes,
            pods,
            true,
            List.of(new NodeScore("node1", 67), new NodeScore("node2", 36))),
        argumentSet(
            "LeastAllocated",
            least,
            small,
            nodes,
            pods,
            true,
            List.of(new NodeScore("node1", 32), new NodeScore("node2", 63))),
        argumentSet(
            "RequestedToCapacityRatio case1 if PreScore is not called",
            rtcr1,
            big,
            nodes,
            pods,
            false,
            List.of(new NodeScore("node1", 10), new NodeScore("node2", 32))),
        argumentSet(
            "MostAllocated if PreScore is not called",
            most,
            small,
            nodes,
            pods,
            false,
            List.of(new NodeScore("node1", 67), new NodeScore("node2", 36))),
        argumentSet(
            "LeastAllocated if PreScore is not called",
            least,
            small,
            nodes,
            pods,
            false,
            List.of(new NodeScore("node1", 32), new NodeScore("node2", 63))),
        argumentSet(
            "MostAllocated with sidecar container",
            most,
            small,
            sameNodes,
            sidecarPods,
            true,
            List.of(new NodeScore("node1", 67), new NodeScore("node2", 45))),
        argumentSet(
            "LeastAllocated with sidecar container",
            least,
            small,
            sameNodes,
            sidecarPods,
            true,
            List.of(new NodeScore("node1", 32), new NodeScore("node2", 55))));
  }

  @ParameterizedTest
  @MethodSource("fitScore")
  void fitScore(
      ScoringStrategy strategy,
      V1Pod pod,
      List<V1Node> nodes,
      List<V1Pod> pods,
      boolean runPreScore,
      List<NodeScore> want) {
    Fit fit = new Fit(new NodeResourcesFitArgs(null, null, strategy));
    assertThat(Nodes.score(fit, PodInfo.of(pod), Nodes.infos(nodes, pods), runPreScore))
        .isEqualTo(want);
  }

  private static List<NodeScore> run(
      ScoringStrategy strategy, V1Pod pod, List<V1Node> nodes, List<V1Pod> pods) {
    Fit fit = new Fit(new NodeResourcesFitArgs(null, null, strategy));
    return Nodes.score(fit, PodInfo.of(pod), Nodes.infos(nodes, pods), true);
  }
}
