package io.kubesched.plugins.sample.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.testing.FakeClock;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class ResourceReservationTest {
  private static final String UID = "8e7f0c2a";

  private static MakeNode reservedNode() {
    return MakeNode.node()
        .name("n1")
        .capacity("cpu", "8", "memory", "16Gi", "pods", "10")
        .annotation("reserve.cpu/" + UID, "5000m")
        .annotation("reserve.owner/" + UID, "db/db-0");
  }

  static Stream<Arguments> cases() {
    PodInfo other = MakePod.pod().name("web").namespace("shop").req("cpu", "4").info();
    PodInfo small = MakePod.pod().name("tiny").namespace("shop").req("cpu", "3").info();
    PodInfo sameName =
        MakePod.pod().name("db-0").namespace("db").uid("new-uid").req("cpu", "5").info();
    PodInfo claimed =
        MakePod.pod()
            .name("db-x")
            .namespace("db")
            .uid("other-uid")
            .annotation(ResourceReservation.CLAIM_ANNOTATION, UID)
            .req("cpu", "5")
            .info();
    PodInfo original =
        MakePod.pod().name("db-0").namespace("db").uid(UID).node("n2").req("cpu", "5").info();
    PodInfo sibling =
        MakePod.pod()
            .name("web-new")
            .namespace("db")
            .uid("new")
            .ownerReference("ReplicaSet", "web")
            .req("cpu", "5")
            .info();
    PodInfo otherOwner =
        MakePod.pod()
            .name("api-new")
            .namespace("db")
            .uid("new2")
            .ownerReference("ReplicaSet", "api")
            .req("cpu", "5")
            .info();
    MakeNode ownerKeyed =
        reservedNode().annotation("reserve.controller/" + UID, "ReplicaSet/ReplicaSet/web");
    return Stream.of(
        Arguments.argumentSet(
            "a pod of the reservation's controller gets it",
            ownerKeyed.info(),
            sibling,
            Status.success()),
        Arguments.argumentSet(
            "a pod of another controller does not",
            ownerKeyed.info(),
            otherOwner,
            Status.unschedulable(ResourceReservation.REASON)),
        Arguments.argumentSet(
            "a bound sibling of the same controller does not end the reservation",
            ownerKeyed.info(
                MakePod.pod()
                    .name("web-old")
                    .namespace("db")
                    .uid("old")
                    .node("n1")
                    .ownerReference("ReplicaSet", "web")
                    .req("cpu", "1")
                    .info()),
            other,
            Status.unschedulable(ResourceReservation.REASON)),
        Arguments.argumentSet(
            "before its expiry the reservation counts",
            reservedNode().annotation("reserve.expires/" + UID, "2026-01-01T00:00:01Z").info(),
            other,
            Status.unschedulable(ResourceReservation.REASON)),
        Arguments.argumentSet(
            "from its expiry on the reservation no longer counts",
            reservedNode().annotation("reserve.expires/" + UID, "2026-01-01T00:00:00Z").info(),
            other,
            Status.success()),
        Arguments.argumentSet(
            "another pod cannot take the reserved cpu",
            reservedNode().info(),
            other,
            Status.unschedulable(ResourceReservation.REASON)),
        Arguments.argumentSet(
            "another pod may use what is left", reservedNode().info(), small, Status.success()),
        Arguments.argumentSet(
            "the recreated pod with the same name gets its place back",
            reservedNode().info(),
            sameName,
            Status.success()),
        Arguments.argumentSet(
            "a pod claiming the reservation by annotation gets it",
            reservedNode().info(),
            claimed,
            Status.success()),
        Arguments.argumentSet(
            "the reservation stops counting once its pod is bound",
            reservedNode().info(original),
            other,
            Status.success()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void filter(NodeInfo node, PodInfo pod, Status want) {
    ResourceReservation plugin =
        new ResourceReservation(FakeClock.at(Instant.parse("2026-01-01T00:00:00Z")));
    CycleState state = new CycleState();
    PreFilterResult pre = plugin.preFilter(state, pod, List.of(node));
    Status got = pre.status().isSkip() ? Status.success() : plugin.filter(state, pod, node);
    assertThat(got).isEqualTo(want);
  }

  @org.junit.jupiter.api.Test
  void withoutAnnotationsThePluginSkips() {
    PreFilterResult r =
        new ResourceReservation()
            .preFilter(
                new CycleState(),
                MakePod.pod().name("p").info(),
                List.of(MakeNode.node().name("n").info()));
    assertThat(r).isEqualTo(PreFilterResult.skip());
  }

  @org.junit.jupiter.api.Test
  void extendedResourceNames() {
    assertThat(ResourceReservation.resourceName("gpu.nvidia.com")).isEqualTo("nvidia.com/gpu");
    assertThat(ResourceReservation.resourceName("memory")).isEqualTo("memory");
  }
}
