package io.kubesched.plugins.nodeports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports {@code TestNodePorts} and the queueing hint tests of {@code node_ports_test.go}. */
final class NodePortsTest {
  private static final Status CONFLICT = Status.unschedulable(NodePorts.REASON);
  private final NodePorts plugin = new NodePorts();

  /** A pod with the given host ports, each written {@code PROTO/ip/port}. */
  static MakePod pod(String name, String... ports) {
    MakePod p = MakePod.pod().name(name).container("img");
    for (String spec : ports) {
      String[] parts = spec.split("/");
      p.hostPort(parts[1], parts[0], Integer.parseInt(parts[2]));
    }
    return p;
  }

  static Stream<Arguments> filterCases() {
    return Stream.of(
        argumentSet(
            "other port",
            pod("p", "UDP/127.0.0.1/8080"),
            pod("e", "UDP/127.0.0.1/9090"),
            Status.success()),
        argumentSet(
            "same udp port",
            pod("p", "UDP/127.0.0.1/8080"),
            pod("e", "UDP/127.0.0.1/8080"),
            CONFLICT),
        argumentSet(
            "same tcp port",
            pod("p", "TCP/127.0.0.1/8080"),
            pod("e", "TCP/127.0.0.1/8080"),
            CONFLICT),
        argumentSet(
            "different host ip",
            pod("p", "TCP/127.0.0.1/8080"),
            pod("e", "TCP/127.0.0.2/8080"),
            Status.success()),
        argumentSet(
            "different protocol",
            pod("p", "UDP/127.0.0.1/8080"),
            pod("e", "TCP/127.0.0.1/8080"),
            Status.success()),
        argumentSet(
            "second udp port conflict",
            pod("p", "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"),
            pod("e", "UDP/127.0.0.1/8080"),
            CONFLICT),
        argumentSet(
            "first tcp port conflict",
            pod("p", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
            pod("e", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"),
            CONFLICT),
        argumentSet(
            "first tcp port conflict due to 0.0.0.0 hostIP",
            pod("p", "TCP/0.0.0.0/8001"),
            pod("e", "TCP/127.0.0.1/8001"),
            CONFLICT),
        argumentSet(
            "TCP hostPort conflict due to 0.0.0.0 hostIP",
            pod("p", "TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"),
            pod("e", "TCP/127.0.0.1/8001"),
            CONFLICT),
        argumentSet(
            "second tcp port conflict to 0.0.0.0 hostIP",
            pod("p", "TCP/127.0.0.1/8001"),
            pod("e", "TCP/0.0.0.0/8001"),
            CONFLICT),
        argumentSet(
            "second different protocol",
            pod("p", "UDP/127.0.0.1/8001"),
            pod("e", "TCP/0.0.0.0/8001"),
            Status.success()),
        argumentSet(
            "UDP hostPort conflict due to 0.0.0.0 hostIP",
            pod("p", "UDP/127.0.0.1/8001"),
            pod("e", "TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"),
            CONFLICT),
        argumentSet(
            "an empty host IP means 0.0.0.0",
            pod("p", "TCP//8001"),
            pod("e", "TCP/127.0.0.1/8001"),
            CONFLICT));
  }

  @ParameterizedTest
  @MethodSource("filterCases")
  void filter(MakePod pod, MakePod existing, Status want) {
    PodInfo info = pod.info();
    CycleState state = new CycleState();
    assertThat(plugin.preFilter(state, info, List.of())).isEqualTo(PreFilterResult.success());
    assertThat(
            plugin.filter(state, info, MakeNode.node().name("n").info(existing.node("n").info())))
        .isEqualTo(want);
  }

  @Test
  void preFilterSkipsPodsWithoutHostPorts() {
    PodInfo info = MakePod.pod().name("p").container("img").info();
    assertThat(plugin.preFilter(new CycleState(), info, List.of()))
        .isEqualTo(PreFilterResult.skip());
  }

  @Test
  void eventsToRegister() {
    assertThat(plugin.eventsToRegister())
        .extracting(ClusterEventWithHint::event)
        .containsExactly(
            ClusterEvent.of(EventResource.POD, ActionType.DELETE),
            ClusterEvent.of(EventResource.NODE, ActionType.ADD));
    assertThat(plugin.eventsToRegister().get(1).hint()).isNull();
  }

  static Stream<Arguments> hintCases() {
    V1Pod pod = pod("p", "TCP/0.0.0.0/8080").obj();
    return Stream.of(
        argumentSet(
            "queue on a deleted assigned pod using the port",
            pod,
            pod("e", "TCP/0.0.0.0/8080").node("n").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "skip a deleted pod that was not assigned",
            pod,
            pod("e", "TCP/0.0.0.0/8080").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "skip a deleted pod without host ports",
            pod,
            MakePod.pod().name("e").node("n").container("img").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "skip a deleted pod whose ports do not conflict",
            pod,
            pod("e", "UDP/0.0.0.0/8080").node("n").obj(),
            QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("hintCases")
  void podDeletedHint(V1Pod pod, V1Pod deleted, QueueingHint want) {
    assertThat(NodePorts.isSchedulableAfterPodDeleted(pod, deleted, null)).isEqualTo(want);
  }
}
