package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A node's requested resources after any sequence of added and removed pods equal the sum that
 * {@link Resource#add} and {@link Resource#subtract} give over the pods' requests (the flat figures
 * and the {@link Resource} alike), whether or not they are read in between, on the node and on
 * snapshots taken on the way.
 */
final class NodeInfoRequestedTest {
  private static final Map<String, PodInfo> PODS =
      Map.of(
          "cpu", Pods.pod("cpu").req("cpu", "300m", "memory", "1Gi").info(),
          "none", Pods.pod("none").req().info(),
          "disk", Pods.pod("disk").req("cpu", "1", "ephemeral-storage", "2Gi").info(),
          "gpu", Pods.pod("gpu").req("cpu", "100m", "example.com/gpu", "2").info(),
          "fpga", Pods.pod("fpga").req("example.com/fpga", "1", "example.com/gpu", "1").info(),
          "two", Pods.pod("two").req("cpu", "50m").req("memory", "3Mi").info());

  static Stream<Arguments> sequences() {
    return Stream.of(
        argumentSet("plain pods added", List.of("+cpu", "+none", "+disk")),
        argumentSet("plain pods added and removed", List.of("+cpu", "+disk", "-cpu", "+two")),
        argumentSet("everything removed", List.of("+cpu", "+disk", "-disk", "-cpu")),
        argumentSet("scalar pods only", List.of("+gpu", "+fpga", "-gpu")),
        argumentSet(
            "plain and scalar pods mixed",
            List.of("+cpu", "+gpu", "+disk", "-cpu", "+fpga", "+two", "-gpu", "-disk")),
        argumentSet(
            "a scalar pod removed to zero, then plain pods",
            List.of("+gpu", "-gpu", "+cpu", "+two", "-cpu")),
        argumentSet("a removal of an absent pod changes nothing", List.of("+cpu", "-disk")));
  }

  private static NodeInfo node() {
    return NodeInfo.of(
        new V1Node()
            .metadata(new V1ObjectMeta().name("n1"))
            .status(new V1NodeStatus().allocatable(Pods.list("cpu", "8", "memory", "16Gi"))));
  }

  @ParameterizedTest
  @MethodSource("sequences")
  void requestedIsTheSumOfThePodsRequests(List<String> ops) {
    for (boolean readOnTheWay : new boolean[] {false, true}) {
      NodeInfo n = node();
      Resource want = Resource.zero();
      List<NodeInfo> copies = new ArrayList<>();
      List<Resource> copyWants = new ArrayList<>();
      for (String op : ops) {
        PodInfo p = PODS.get(op.substring(1));
        if (op.charAt(0) == '+') {
          n.addPod(p);
          want = want.add(p.requests());
        } else if (n.removePod(p)) {
          want = want.subtract(p.requests());
        }
        if (readOnTheWay) {
          assertRequested(n, want);
        }
        copies.add(n.snapshot());
        copyWants.add(want);
      }
      assertRequested(n, want);
      for (int i = 0; i < copies.size(); i++) {
        assertRequested(copies.get(i), copyWants.get(i));
      }
      // a copy changed afterwards leaves the node as it was
      NodeInfo copy = n.snapshot();
      copy.addPod(PODS.get("cpu"));
      copy.addPod(PODS.get("gpu"));
      assertRequested(copy, want.add(PODS.get("cpu").requests()).add(PODS.get("gpu").requests()));
      assertRequested(n, want);
    }
  }

  private static void assertRequested(NodeInfo n, Resource want) {
    assertThat(n.requested()).isEqualTo(want);
    assertThat(List.of(n.requestedMilliCpu(), n.requestedMemory(), n.requestedEphemeralStorage()))
        .isEqualTo(List.of(want.milliCpu(), want.memory(), want.ephemeralStorage()));
  }
}
