package io.kubesched.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports {@code TestNodeResourcesBalancedAllocation} (without the DRA cases). */
final class BalancedAllocationTest {
  private static final String GPU = "nvidia.com/gpu";
  private static final NodeResourcesBalancedAllocationArgs DEFAULT =
      NodeResourcesBalancedAllocationArgs.defaults();
  private static final NodeResourcesBalancedAllocationArgs WITH_GPU =
      new NodeResourcesBalancedAllocationArgs(
          List.of(
              new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1), new ResourceSpec(GPU, 1)));

  private static V1Pod cpuOnly(String node) {
    return MakePod.pod()
        .name("cpu-only-" + node)
        .node(node)
        .req("cpu", "1000m", "memory", "0")
        .req("cpu", "2000m", "memory", "0")
        .obj();
  }

  private static V1Pod cpuAndMemory(String node) {
    return MakePod.pod()
        .name("cpu-mem-" + node)
        .node(node)
        .req("cpu", "1000m", "memory", "2000")
        .req("cpu", "2000m", "memory", "3000")
        .obj();
  }

  private static V1Pod cpuAndMemoryAndGpu(String node) {
    return MakePod.pod()
        .name("cpu-mem-gpu-" + node)
        .node(node)
        .req("cpu", "1000m", "memory", "2000")
        .req("cpu", "2000m", "memory", "3000", GPU, "3")
        .obj();
  }

  private static V1Node node(String name, long milliCpu, long memory) {
    return Nodes.node(name, milliCpu, memory, Map.of());
  }

  private static V1Node gpuNode(String name, long milliCpu, long memory) {
    return Nodes.node(name, milliCpu, memory, Map.of(GPU, 8L));
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "nothing scheduled, resources requested, differently sized nodes",
            cpuAndMemory(""),
            List.of(node("node1", 4000, 10000), node("node2", 6000, 10000)),
            List.of(),
            DEFAULT,
            true,
            List.of(new NodeScore("node1", 87), new NodeScore("node2", 100))),
        argumentSet(
            "resources requested, pods scheduled with resources",
            cpuAndMemory(""),
            List.of(node("node1", 10000, 20000), node("node2", 10000, 20000)),
            List.of(cpuOnly("node1"), cpuAndMemory("node2")),
            DEFAULT,
            true,
            List.of(new NodeScore("node1", 82), new NodeScore("node2", 95))),
        argumentSet(
            "resources requested, pods scheduled with resources, differently sized nodes",
            cpuAndMemory(""),
            List.of(node("node1", 10000, 20000), node("node2", 10000, 50000)),
            List.of(cpuOnly("node1"), cpuAndMemory("node2")),
            DEFAULT,
            true,
            List.of(new NodeScore("node1", 82), new NodeScore("node2", 80))),
        argumentSet(
            "requested resources at node capacity",
            cpuOnly(""),
            List.of(node("node1", 6000, 10000), node("node2", 6000, 10000)),
            List.of(cpuOnly("node1"), cpuAndMemory("node2")),
            DEFAULT,
            true,
            List.of(new NodeScore("node1", 50), new NodeScore("node2", 75))),
        argumentSet(
            "include scalar resource on a node for balanced resource allocation",
            MakePod.pod().req("memory", "0", GPU, "1").obj(),
            List.of(gpuNode("node1", 3500, 40000), gpuNode("node2", 3500, 40000)),
            List.of(cpuAndMemory("node2"), cpuAndMemoryAndGpu("node1")),
            WITH_GPU,
            true,
            List.of(new NodeScore("node1", 70), new NodeScore("node2", 65))),
        argumentSet(
            "node without the scalar resource should skip the scalar resource",
            cpuAndMemory(""),
            List.of(gpuNode("node1", 3500, 40000), node("node2", 3500, 40000)),
            List.of(),
            WITH_GPU,
            true,
            List.of(new NodeScore("node1", 63), new NodeScore("node2", 63))),
        argumentSet(
            "resources requested, pods scheduled with resources if PreScore not called",
            cpuAndMemory(""),
            List.of(node("node1", 10000, 20000), node("node2", 10000, 20000)),
            List.of(cpuOnly("node1"), cpuAndMemory("node2")),
            DEFAULT,
            false,
            List.of(new NodeScore("node1", 82), new NodeScore("node2", 95))));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void score(
      V1Pod pod,
      List<V1Node> nodes,
      List<V1Pod> pods,
      NodeResourcesBalancedAllocationArgs args,
      boolean runPreScore,
      List<NodeScore> want) {
    BalancedAllocation plugin = new BalancedAllocation(args);
    assertThat(Nodes.score(plugin, PodInfo.of(pod), Nodes.infos(nodes, pods), runPreScore))
        .isEqualTo(want);
  }

  @Test
  void bestEffortPodIsSkippedInPreScoreAndScoresZeroWithoutIt() {
    BalancedAllocation plugin = new BalancedAllocation(DEFAULT);
    PodInfo pod = MakePod.pod().name("best-effort").container("nginx").info();
    var nodes =
        Nodes.infos(List.of(node("node1", 4000, 10000), node("node2", 4000, 10000)), List.of());
    assertThat(plugin.preScore(new CycleState(), pod, nodes)).isEqualTo(Status.skip());
    assertThat(Nodes.score(plugin, pod, nodes, false))
        .isEqualTo(List.of(new NodeScore("node1", 0), new NodeScore("node2", 0)));
  }
}
