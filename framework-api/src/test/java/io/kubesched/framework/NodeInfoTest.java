package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Taint;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class NodeInfoTest {
  private static final long MI = 1024L * 1024;
  private static final long GI = 1024 * MI;
  private static final long DEF_MEM = 200 * MI;

  private static V1Node node() {
    return new V1Node()
        .metadata(new V1ObjectMeta().name("n1").putLabelsItem("zone", "a"))
        .spec(
            new V1NodeSpec()
                .addTaintsItem(new V1Taint().key("k").value("v").effect("NoSchedule"))
                .unschedulable(true))
        .status(
            new V1NodeStatus().allocatable(Pods.list("cpu", "4", "memory", "8Gi", "pods", "10")));
  }

  private final PodInfo big =
      Pods.pod("big")
          .req("cpu", "1", "memory", "1Gi")
          .hostPort(null, null, 80)
          .pvc("data")
          .podAffinity()
          .info();
  private final PodInfo small =
      Pods.pod("small")
          .req()
          .hostPort("10.0.0.1", "UDP", 53)
          .pvc("data")
          .requiredAntiAffinity()
          .info();

  @Test
  void setNodeReadsAllocatableLabelsTaintsAndUnschedulable() {
    NodeInfo n = NodeInfo.of(node());

    assertThat(n.name()).isEqualTo("n1");
    assertThat(n.allocatable()).isEqualTo(new Resource(4000, 8 * GI, 0, 10, Map.of()));
    assertThat(n.labels()).isEqualTo(Map.of("zone", "a"));
    assertThat(n.taints()).containsExactly(new Taint("k", "v", "NoSchedule"));
    assertThat(n.unschedulable()).isTrue();
  }

  @Test
  void addPodsAccumulatesEverything() {
    NodeInfo n = NodeInfo.of(node());
    long g0 = n.generation();

    n.addPod(big);
    long g1 = n.generation();
    n.addPod(small);

    assertThat(n.pods()).containsExactly(big, small);
    assertThat(n.requested()).isEqualTo(new Resource(1000, GI, 0, 0, Map.of()));
    assertThat(List.of(n.nonZeroMilliCpu(), n.nonZeroMemory()))
        .isEqualTo(List.of(1000L + 100, GI + DEF_MEM));
    assertThat(n.usedPorts())
        .containsExactlyInAnyOrder(
            new HostPort("0.0.0.0", "TCP", 80), new HostPort("10.0.0.1", "UDP", 53));
    assertThat(n.pvcRefCounts()).isEqualTo(Map.of("default/data", 2));
    assertThat(n.podsWithAffinity()).containsExactlyInAnyOrder(big, small);
    assertThat(n.podsWithRequiredAntiAffinity()).containsExactly(small);
    assertThat(g1).isGreaterThan(g0);
    assertThat(n.generation()).isGreaterThan(g1);
  }

  @Test
  void removePodUndoesAddPod() {
    NodeInfo n = NodeInfo.of(node(), big, small);
    long before = n.generation();

    assertThat(n.removePod(small)).isTrue();

    assertThat(n.pods()).containsExactly(big);
    assertThat(n.requested()).isEqualTo(new Resource(1000, GI, 0, 0, Map.of()));
    assertThat(List.of(n.nonZeroMilliCpu(), n.nonZeroMemory())).isEqualTo(List.of(1000L, GI));
    assertThat(n.usedPorts()).containsExactly(new HostPort("0.0.0.0", "TCP", 80));
    assertThat(n.pvcRefCounts()).isEqualTo(Map.of("default/data", 1));
    assertThat(n.podsWithAffinity()).containsExactly(big);
    assertThat(n.podsWithRequiredAntiAffinity()).isEmpty();
    assertThat(n.generation()).isGreaterThan(before);

    assertThat(n.removePod(big)).isTrue();
    assertThat(n.requested()).isEqualTo(Resource.zero());
    assertThat(List.of(n.nonZeroMilliCpu(), n.nonZeroMemory())).isEqualTo(List.of(0L, 0L));
    assertThat(n.usedPorts()).isEmpty();
    assertThat(n.pvcRefCounts()).isEmpty();
    assertThat(n.podsWithAffinity()).isEmpty();
  }

  @Test
  void removePodMatchesByUidAndSubtractsTheStoredPod() {
    NodeInfo n = NodeInfo.of(node(), big);
    PodInfo sameUidOtherSpec = Pods.pod("big").req("cpu", "3").info();

    assertThat(n.removePod(sameUidOtherSpec)).isTrue();

    assertThat(n.pods()).isEmpty();
    assertThat(n.requested()).isEqualTo(Resource.zero());
    assertThat(n.podsWithAffinity()).isEmpty();
  }

  @Test
  void removingAnUnknownPodReportsFalseAndChangesNothing() {
    NodeInfo n = NodeInfo.of(node(), big);
    long before = n.generation();

    assertThat(n.removePod(small)).isFalse();

    assertThat(n.pods()).containsExactly(big);
    assertThat(n.requested()).isEqualTo(new Resource(1000, GI, 0, 0, Map.of()));
    assertThat(n.generation()).isEqualTo(before);
  }

  @Test
  void usedPortsAreASetLikeKube() {
    PodInfo a = Pods.pod("a").hostPort("", "", 8080).info();
    PodInfo b = Pods.pod("b").hostPort("0.0.0.0", "TCP", 8080).info();
    NodeInfo n = NodeInfo.of(node(), a, b);

    assertThat(n.usedPorts()).containsExactly(new HostPort("0.0.0.0", "TCP", 8080));
    n.removePod(a);
    assertThat(n.usedPorts()).isEmpty();
  }

  @Test
  void sidecarHostPortsAreUsedButNotThoseOfOtherInitContainers() {
    PodInfo pod =
        Pods.pod("p").sidecarHostPort(9090).initHostPort(7070).hostPort(null, null, 80).info();

    assertThat(pod.hostPorts())
        .containsExactly(new HostPort(null, null, 9090), new HostPort(null, null, 80));
    assertThat(NodeInfo.of(node(), pod).usedPorts())
        .containsExactly(new HostPort(null, null, 9090), new HostPort(null, null, 80));
  }

  @Test
  void snapshotIsIndependent() {
    NodeInfo n = NodeInfo.of(node(), big);
    NodeInfo copy = n.snapshot();

    assertThat(copy.generation()).isEqualTo(n.generation());
    copy.addPod(small);
    n.removePod(big);

    assertThat(n.pods()).isEmpty();
    assertThat(n.usedPorts()).isEmpty();
    assertThat(n.pvcRefCounts()).isEmpty();
    assertThat(copy.pods()).containsExactly(big, small);
    assertThat(copy.requested()).isEqualTo(new Resource(1000, GI, 0, 0, Map.of()));
    assertThat(copy.usedPorts()).hasSize(2);
    assertThat(copy.pvcRefCounts()).isEqualTo(Map.of("default/data", 2));
    assertThat(copy.podsWithAffinity()).containsExactlyInAnyOrder(big, small);
    assertThat(copy.podsWithRequiredAntiAffinity()).containsExactly(small);
  }

  @Test
  void removalMovesTheLastPodIntoTheHoleAndKeepsThePortsInOrder() {
    PodInfo a = Pods.pod("a").hostPort(null, null, 1).podAffinity().info();
    PodInfo b = Pods.pod("b").hostPort(null, null, 2).podAffinity().info();
    PodInfo c = Pods.pod("c").hostPort(null, null, 3).podAffinity().info();
    PodInfo d = Pods.pod("d").hostPort(null, null, 4).podAffinity().info();
    NodeInfo n = NodeInfo.of(node(), a, b, c, d);
    NodeInfo copy = n.snapshot();

    n.removePod(b);

    assertThat(n.pods()).containsExactly(a, d, c);
    assertThat(n.podsWithAffinity()).containsExactly(a, d, c);
    assertThat(n.usedPorts())
        .containsExactly(
            new HostPort(null, null, 1), new HostPort(null, null, 3), new HostPort(null, null, 4));
    assertThat(copy.podsWithAffinity()).containsExactly(a, b, c, d);
    assertThat(copy.usedPorts()).hasSize(4);
  }

  @Test
  void portConflictsConsultsUsedPorts() {
    NodeInfo n = NodeInfo.of(node(), small);

    assertThat(n.portConflicts(new HostPort("0.0.0.0", "UDP", 53))).isTrue();
    assertThat(n.portConflicts(new HostPort("10.0.0.2", "UDP", 53))).isFalse();
    assertThat(n.portConflicts(new HostPort("10.0.0.1", "TCP", 53))).isFalse();
  }

  @Test
  void removeNodeLeavesAGhostWithItsPods() {
    NodeInfo n = NodeInfo.of(node(), big);
    long before = n.generation();

    n.removeNode();

    assertThat(n.node()).isNull();
    assertThat(n.pods()).containsExactly(big);
    assertThat(n.generation()).isGreaterThan(before);
  }

  @Test
  void aSharedGenerationSourceIsUsed() {
    long[] counter = {100};
    NodeInfo n = new NodeInfo(() -> ++counter[0]);
    n.setNode(node());
    n.addPod(big);

    assertThat(n.generation()).isEqualTo(counter[0]).isEqualTo(103);
  }
}
