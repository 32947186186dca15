package io.kubesched.plugins.nodeunschedulable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports {@code TestNodeUnschedulable} and its queueing hint tests. */
final class NodeUnschedulableTest {
  private static final String TAINT = "node.kubernetes.io/unschedulable";

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)",
            MakePod.pod().name("p").info(),
            true,
            Status.unresolvable("node(s) were unschedulable")),
        argumentSet(
            "schedule pod to normal node", MakePod.pod().name("p").info(), false, Status.success()),
        argumentSet(
            "schedule pod with toleration to unschedulable node",
            MakePod.pod().name("p").tolerationExists(TAINT, "NoSchedule").info(),
            true,
            Status.success()),
        argumentSet(
            "a toleration of another effect does not help",
            MakePod.pod().name("p").tolerationExists(TAINT, "NoExecute").info(),
            true,
            Status.unresolvable("node(s) were unschedulable")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void filter(PodInfo pod, boolean unschedulable, Status want) {
    NodeInfo node = MakeNode.node().name("n").unschedulable(unschedulable).info();
    assertThat(
            BoundFaces.assertFilterFaces(
                new NodeUnschedulable(), new CycleState(), pod, List.of(node, new NodeInfo())))
        .containsExactly(want, Status.unresolvable(NodeUnschedulable.REASON_UNKNOWN_CONDITION));
  }

  @Test
  void eventsToRegister() {
    assertThat(new NodeUnschedulable().eventsToRegister())
        .extracting(ClusterEventWithHint::event)
        .containsExactly(
            ClusterEvent.of(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT),
            ClusterEvent.of(EventResource.POD, ActionType.UPDATE_POD_TOLERATION));
  }

  static Stream<Arguments> nodeHints() {
    return Stream.of(
        argumentSet(
            "queue on a schedulable node added",
            null,
            MakeNode.node().name("n").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "skip an unschedulable node added",
            null,
            MakeNode.node().name("n").unschedulable(true).obj(),
            QueueingHint.SKIP),
        argumentSet(
            "queue when a node becomes schedulable",
            MakeNode.node().name("n").unschedulable(true).obj(),
            MakeNode.node().name("n").unschedulable(false).obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "skip when a node stays schedulable",
            MakeNode.node().name("n").obj(),
            MakeNode.node().name("n").label("a", "b").obj(),
            QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("nodeHints")
  void nodeHint(V1Node oldNode, V1Node newNode, QueueingHint want) {
    assertThat(
            NodeUnschedulable.isSchedulableAfterNodeChange(
                MakePod.pod().name("p").obj(), oldNode, newNode))
        .isEqualTo(want);
  }

  @Test
  void podHintQueuesWhenThePodNowToleratesTheTaint() {
    V1Pod before = MakePod.pod().name("p").uid("u").obj();
    V1Pod after = MakePod.pod().name("p").uid("u").tolerationExists(TAINT, "NoSchedule").obj();
    V1Pod other = MakePod.pod().name("q").uid("v").tolerationExists(TAINT, "NoSchedule").obj();
    assertThat(NodeUnschedulable.isSchedulableAfterPodTolerationChange(before, before, after))
        .isEqualTo(QueueingHint.QUEUE);
    assertThat(NodeUnschedulable.isSchedulableAfterPodTolerationChange(before, before, before))
        .isEqualTo(QueueingHint.SKIP);
    assertThat(NodeUnschedulable.isSchedulableAfterPodTolerationChange(before, before, other))
        .isEqualTo(QueueingHint.SKIP);
  }

  static Stream<Arguments> signatures() {
    PodInfo plain = PodInfo.of(MakePod.pod().name("a").obj());
    return Stream.of(
        argumentSet(
            "other tolerations do not matter",
            plain,
            PodInfo.of(MakePod.pod().name("b").tolerationExists("gpu", "NoSchedule").obj()),
            true),
        argumentSet(
            "tolerating the unschedulable taint does",
            plain,
            PodInfo.of(
                MakePod.pod()
                    .name("c")
                    .tolerationExists("node.kubernetes.io/unschedulable", "NoSchedule")
                    .obj()),
            false),
        argumentSet(
            "an empty key with Exists tolerates every taint",
            plain,
            PodInfo.of(MakePod.pod().name("d").tolerationExists("", null).obj()),
            false));
  }

  @ParameterizedTest
  @MethodSource("signatures")
  void podsSignAlikeExactlyWhenTheFilterTreatsThemAlike(PodInfo a, PodInfo b, boolean same) {
    NodeUnschedulable pl = new NodeUnschedulable();

    assertThat(pl.signPod(a).orElseThrow().equals(pl.signPod(b).orElseThrow())).isEqualTo(same);
  }
}
