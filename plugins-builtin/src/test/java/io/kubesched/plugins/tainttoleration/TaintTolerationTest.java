package io.kubesched.plugins.tainttoleration;

import static io.kubesched.framework.Taint.NO_EXECUTE;
import static io.kubesched.framework.Taint.NO_SCHEDULE;
import static io.kubesched.framework.Taint.PREFER_NO_SCHEDULE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class TaintTolerationTest {
  private final TaintToleration plugin = new TaintToleration();

  static Stream<Arguments> filterCases() {
    return Stream.of(
        argumentSet(
            "a pod having no tolerations can't be scheduled onto a node with nonempty taints",
            MakePod.pod().name("pod1").info(),
            MakeNode.node().name("nodeA").taint("dedicated", "user1", NO_SCHEDULE).info(),
            Status.unresolvable("node(s) had untolerated taint {dedicated: user1}")),
        argumentSet(
            "a pod which can be scheduled on a dedicated node assigned to user1 with effect"
                + " NoSchedule",
            MakePod.pod().name("pod1").toleration("dedicated", "user1", NO_SCHEDULE).info(),
            MakeNode.node().name("nodeA").taint("dedicated", "user1", NO_SCHEDULE).info(),
            Status.success()),
        argumentSet(
            "a pod which can't be scheduled on a dedicated node assigned to user2 with effect"
                + " NoSchedule",
            MakePod.pod().name("pod1").toleration("dedicated", "user2", NO_SCHEDULE).info(),
            MakeNode.node().name("nodeA").taint("dedicated", "user1", NO_SCHEDULE).info(),
            Status.unresolvable("node(s) had untolerated taint {dedicated: user1}")),
        argumentSet(
            "a pod can be scheduled onto the node, with a toleration uses operator Exists that"
                + " tolerates the taints on the node",
            MakePod.pod().name("pod1").tolerationExists("foo", NO_SCHEDULE).info(),
            MakeNode.node().name("nodeA").taint("foo", "bar", NO_SCHEDULE).info(),
            Status.success()),
        argumentSet(
            "a pod has multiple tolerations, node has multiple taints, all the taints are"
                + " tolerated, pod can be scheduled onto the node",
            MakePod.pod()
                .name("pod1")
                .toleration("dedicated", "user2", NO_SCHEDULE)
                .tolerationExists("foo", NO_SCHEDULE)
                .info(),
            MakeNode.node()
                .name("nodeA")
                .taint("dedicated", "user2", NO_SCHEDULE)
                .taint("foo", "bar", NO_SCHEDULE)
                .info(),
            Status.success()),
        argumentSet(
            "a pod has a toleration that keys and values match the taint on the node, but"
                + " (non-empty) effect doesn't match, can't be scheduled onto the node",
            MakePod.pod().name("pod1").toleration("foo", "bar", PREFER_NO_SCHEDULE).info(),
            MakeNode.node().name("nodeA").taint("foo", "bar", NO_SCHEDULE).info(),
            Status.unresolvable("node(s) had untolerated taint {foo: bar}")),
        argumentSet(
            "the pod has a toleration that keys and values match the taint on the node, the"
                + " effect of toleration is empty, and the effect of taint is NoSchedule",
            MakePod.pod()
                .name("pod1")
                .toleration(new V1Toleration().key("foo").operator("Equal").value("bar"))
                .info(),
            MakeNode.node().name("nodeA").taint("foo", "bar", NO_SCHEDULE).info(),
            Status.success()),
        argumentSet(
            "the pod has a toleration that key and value don't match the taint on the node, but"
                + " the effect of taint on node is PreferNoSchedule",
            MakePod.pod().name("pod1").toleration("dedicated", "user2", NO_SCHEDULE).info(),
            MakeNode.node().name("nodeA").taint("dedicated", "user1", PREFER_NO_SCHEDULE).info(),
            Status.success()),
        argumentSet(
            "the pod has no toleration, but the effect of taint on node is PreferNoSchedule",
            MakePod.pod().name("pod1").info(),
            MakeNode.node().name("nodeA").taint("dedicated", "user1", PREFER_NO_SCHEDULE).info(),
            Status.success()),
        argumentSet(
            "a NoExecute taint the pod does not tolerate rejects the node, reported with its"
                + " empty value",
            MakePod.pod().name("pod1").info(),
            MakeNode.node().name("nodeA").taint("evict", null, NO_EXECUTE).info(),
            Status.unresolvable("node(s) had untolerated taint {evict: }")),
        argumentSet(
            "the first untolerated taint is the one reported",
            MakePod.pod().name("pod1").toleration("a", "1", NO_SCHEDULE).info(),
            MakeNode.node()
                .name("nodeA")
                .taint("a", "1", NO_SCHEDULE)
                .taint("b", "2", NO_EXECUTE)
                .taint("c", "3", NO_SCHEDULE)
                .info(),
            Status.unresolvable("node(s) had untolerated taint {b: 2}")));
  }

  @ParameterizedTest
  @MethodSource("filterCases")
  void filter(PodInfo pod, NodeInfo node, Status want) {
    assertThat(BoundFaces.assertFilterFaces(plugin, new CycleState(), pod, List.of(node)))
        .containsExactly(want);
  }

  static Stream<Arguments> scoreCases() {
    return Stream.of(
        argumentSet(
            "node with taints tolerated by the pod, gets a higher score than those node with"
                + " intolerable taints",
            MakePod.pod().toleration("foo", "bar", PREFER_NO_SCHEDULE).info(),
            List.of(
                MakeNode.node().name("nodeA").taint("foo", "bar", PREFER_NO_SCHEDULE),
                MakeNode.node().name("nodeB").taint("foo", "blah", PREFER_NO_SCHEDULE)),
            List.of(new NodeScore("nodeA", 100), new NodeScore("nodeB", 0))),
        argumentSet(
            "the nodes that all of their taints are tolerated by the pod, get the same score, no"
                + " matter how many tolerable taints a node has",
            MakePod.pod()
                .toleration("cpu-type", "arm64", PREFER_NO_SCHEDULE)
                .toleration("disk-type", "ssd", PREFER_NO_SCHEDULE)
                .info(),
            List.of(
                MakeNode.node().name("nodeA"),
                MakeNode.node().name("nodeB").taint("cpu-type", "arm64", PREFER_NO_SCHEDULE),
                MakeNode.node()
                    .name("nodeC")
                    .taint("cpu-type", "arm64", PREFER_NO_SCHEDULE)
                    .taint("disk-type", "ssd", PREFER_NO_SCHEDULE)),
            List.of(
                new NodeScore("nodeA", 100),
                new NodeScore("nodeB", 100),
                new NodeScore("nodeC", 100))),
        argumentSet(
            "the more intolerable taints a node has, the lower score it gets",
            MakePod.pod().toleration("foo", "bar", PREFER_NO_SCHEDULE).info(),
            List.of(
                MakeNode.node().name("nodeA"),
                MakeNode.node().name("nodeB").taint("cpu-type", "arm64", PREFER_NO_SCHEDULE),
                MakeNode.node()
                    .name("nodeC")
                    .taint("cpu-type", "arm64", PREFER_NO_SCHEDULE)
                    .taint("disk-type", "ssd", PREFER_NO_SCHEDULE)),
            List.of(
                new NodeScore("nodeA", 100),
                new NodeScore("nodeB", 50),
                new NodeScore("nodeC", 0))),
        argumentSet(
            "only taints and tolerations that have effect PreferNoSchedule are checked by the"
                + " score",
            MakePod.pod()
                .toleration("cpu-type", "arm64", NO_SCHEDULE)
                .toleration("disk-type", "ssd", NO_SCHEDULE)
                .info(),
            List.of(
                MakeNode.node().name("nodeA"),
                MakeNode.node().name("nodeB").taint("cpu-type", "arm64", NO_SCHEDULE),
                MakeNode.node()
                    .name("nodeC")
                    .taint("cpu-type", "arm64", PREFER_NO_SCHEDULE)
                    .taint("disk-type", "ssd", PREFER_NO_SCHEDULE)),
            List.of(
                new NodeScore("nodeA", 100),
                new NodeScore("nodeB", 100),
                new NodeScore("nodeC", 0))),
        argumentSet(
            "default behaviour: no taints and tolerations, lands on node with no taints",
            MakePod.pod().toleration("foo", "bar", NO_SCHEDULE).info(),
            List.of(
                MakeNode.node().name("nodeA"),
                MakeNode.node().name("nodeB").taint("cpu-type", "arm64", PREFER_NO_SCHEDULE)),
            List.of(new NodeScore("nodeA", 100), new NodeScore("nodeB", 0))));
  }

  @ParameterizedTest
  @MethodSource("scoreCases")
  void score(PodInfo pod, List<MakeNode> nodes, List<NodeScore> want) {
    List<NodeInfo> infos = new ArrayList<>();
    for (MakeNode n : nodes) {
      infos.add(n.info());
    }
    CycleState state = new CycleState();
    assertThat(plugin.preScore(state, pod, infos)).isEqualTo(Status.success());
    NodeScores scores = new NodeScores(infos);
    long[] raw = BoundFaces.assertScoreFaces(plugin, state, pod, infos);
    for (int i = 0; i < infos.size(); i++) {
      scores.set(i, raw[i]);
    }
    assertThat(plugin.normalizeScore(state, pod, scores)).isEqualTo(Status.success());
    assertThat(scores.toList()).isEqualTo(want);
  }

  @Test
  void eventsToRegisterNodeAddOrTaintAndPodToleration() {
    assertThat(plugin.eventsToRegister())
        .extracting(ClusterEventWithHint::event)
        .containsExactly(
            ClusterEvent.of(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT),
            ClusterEvent.of(EventResource.POD, ActionType.UPDATE_POD_TOLERATION));
  }

  static Stream<Arguments> nodeHintCases() {
    V1Pod pod = MakePod.pod().name("p").toleration("foo", "bar", NO_SCHEDULE).obj();
    return Stream.of(
        argumentSet(
            "an added node without untolerated taints queues the pod",
            pod,
            null,
            MakeNode.node().name("n").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "an added node with an untolerated taint is skipped",
            pod,
            null,
            MakeNode.node().name("n").taint("x", "y", NO_SCHEDULE).obj(),
            QueueingHint.SKIP),
        argumentSet(
            "removing the untolerated taint queues the pod",
            pod,
            MakeNode.node().name("n").taint("x", "y", NO_SCHEDULE).obj(),
            MakeNode.node().name("n").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "an update of a node whose taints were already tolerated is skipped",
            pod,
            MakeNode.node().name("n").taint("foo", "bar", NO_SCHEDULE).obj(),
            MakeNode.node().name("n").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "replacing one untolerated taint with another is skipped",
            pod,
            MakeNode.node().name("n").taint("x", "y", NO_SCHEDULE).obj(),
            MakeNode.node().name("n").taint("x", "z", NO_EXECUTE).obj(),
            QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("nodeHintCases")
  void nodeHint(V1Pod pod, V1Node oldNode, V1Node newNode, QueueingHint want) {
    assertThat(TaintToleration.isSchedulableAfterNodeChange(pod, oldNode, newNode)).isEqualTo(want);
  }

  @Test
  void podTolerationHintQueuesOnlyTheRejectedPodItself() {
    V1Pod pod = MakePod.pod().name("p").uid("u1").obj();
    V1Pod other = MakePod.pod().name("q").uid("u2").obj();
    V1Pod updated = MakePod.pod().name("p").uid("u1").toleration("a", "b", NO_SCHEDULE).obj();
    assertThat(TaintToleration.isSchedulableAfterPodTolerationChange(pod, pod, updated))
        .isEqualTo(QueueingHint.QUEUE);
    assertThat(TaintToleration.isSchedulableAfterPodTolerationChange(pod, other, other))
        .isEqualTo(QueueingHint.SKIP);
  }
}
