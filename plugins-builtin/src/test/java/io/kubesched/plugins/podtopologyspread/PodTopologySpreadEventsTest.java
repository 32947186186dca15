package io.kubesched.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.QueueingHint;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Events and queueing hints of PodTopologySpread, ported from kube's
 * Test_isSchedulableAfterNodeChange and Test_isSchedulableAfterPodChange.
 */
final class PodTopologySpreadEventsTest {
  final PodTopologySpread plugin =
      new PodTopologySpread(
          new PodTopologySpreadArgs(List.of(), "List"), FakeHandle.of(List.of(), List.of()));

  @Test
  void registersPodAndNodeEvents() {
    List<ClusterEvent> events =
        plugin.eventsToRegister().stream().map(ClusterEventWithHint::event).toList();
    assertThat(events)
        .containsExactly(
            ClusterEvent.of(
                EventResource.POD,
                ActionType.ADD
                    | ActionType.UPDATE_POD_LABEL
                    | ActionType.UPDATE_POD_TOLERATION
                    | ActionType.DELETE),
            ClusterEvent.of(
                EventResource.NODE,
                ActionType.ADD
                    | ActionType.DELETE
                    | ActionType.UPDATE_NODE_LABEL
                    | ActionType.UPDATE_NODE_TAINT));
  }

  static V1Pod target() {
    return MakePod.pod().name("p").label("foo", "")
        .spreadConstraint(s -> s.maxSkew(1).topologyKey("zone").selectorExists("foo"))
        .spreadConstraint(s -> s.maxSkew(1).topologyKey("node").selectorExists("foo"))
        .obj();
  }

  static V1Node node(String... labels) {
    MakeNode n = MakeNode.node().name("node-a");
    for (int i = 0; i < labels.length; i += 2) {
      n.label(labels[i], labels[i + 1]);
    }
    return n.obj();
  }

  static Stream<Arguments> nodeCases() {
    return Stream.of(
        Arguments.argumentSet("node without the topology keys added",
            null, node("foo", "bar"), QueueingHint.SKIP),
        Arguments.argumentSet("node with the topology keys added",
            null, node("zone", "zone1", "node", "node-a"), QueueingHint.QUEUE),
        Arguments.argumentSet("node without the topology keys deleted",
            node("foo", "bar"), null, QueueingHint.SKIP),
        Arguments.argumentSet("node with the topology keys deleted",
            node("zone", "zone1", "node", "node-a"), null, QueueingHint.QUEUE),
        Arguments.argumentSet("topology key value changed",
            node("zone", "zone1", "node", "node-a"), node("zone", "zone2", "node", "node-a"),
            QueueingHint.QUEUE),
        Arguments.argumentSet("unrelated label changed",
            node("zone", "zone1", "node", "node-a"),
            node("zone", "zone1", "node", "node-a", "other", "x"), QueueingHint.SKIP),
        Arguments.argumentSet("topology key added to a node that lacked it",
            node("zone", "zone1"), node("zone", "zone1", "node", "node-a"), QueueingHint.QUEUE),
        Arguments.argumentSet("taint changed on a matching node",
            node("zone", "zone1", "node", "node-a"),
            MakeNode.node().name("node-a").label("zone", "zone1").label("node", "node-a")
                .taint("k", "v", "NoSchedule").obj(),
            QueueingHint.QUEUE));
  }

  @ParameterizedTest
  @MethodSource("nodeCases")
  void nodeHint(V1Node oldNode, V1Node newNode, QueueingHint want) {
    assertThat(plugin.isSchedulableAfterNodeChange(target(), oldNode, newNode)).isEqualTo(want);
  }

  static Stream<Arguments> podCases() {
    return Stream.of(
        Arguments.argumentSet("add a pod with a matching label",
            null, MakePod.pod().name("e").node("node-a").label("foo", "").obj(),
            QueueingHint.QUEUE),
        Arguments.argumentSet("add an unscheduled pod",
            null, MakePod.pod().name("e").label("foo", "").obj(), QueueingHint.SKIP),
        Arguments.argumentSet("add a pod in another namespace",
            null, MakePod.pod().name("e").namespace("ns1").node("node-a").label("foo", "").obj(),
            QueueingHint.SKIP),
        Arguments.argumentSet("add a pod without a matching label",
            null, MakePod.pod().name("e").node("node-a").label("bar", "").obj(),
            QueueingHint.SKIP),
        Arguments.argumentSet("delete a pod with a matching label",
            MakePod.pod().name("e").node("node-a").label("foo", "").obj(), null,
            QueueingHint.QUEUE),
        Arguments.argumentSet("update a pod's label so that it no longer matches",
            MakePod.pod().name("e").node("node-a").label("foo", "").obj(),
            MakePod.pod().name("e").node("node-a").label("bar", "").obj(),
            QueueingHint.QUEUE),
        Arguments.argumentSet("update a pod's unrelated label",
            MakePod.pod().name("e").node("node-a").label("foo", "").obj(),
            MakePod.pod().name("e").node("node-a").label("foo", "").label("x", "y").obj(),
            QueueingHint.SKIP),
        Arguments.argumentSet("the target pod gets a toleration without Honor taints",
            target(),
            MakePod.pod().name("p").label("foo", "").tolerationExists("k", "NoSchedule").obj(),
            QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("podCases")
  void podHint(V1Pod oldPod, V1Pod newPod, QueueingHint want) {
    assertThat(plugin.isSchedulableAfterPodChange(target(), oldPod, newPod)).isEqualTo(want);
  }

  @Test
  void targetPodGettingATolerationIsQueuedWhenAConstraintHonorsTaints() {
    V1Pod target =
        MakePod.pod().name("p").label("foo", "")
            .spreadConstraint(s -> s.maxSkew(1).topologyKey("zone").selectorExists("foo")
                .nodeTaintsPolicy("Honor"))
            .obj();
    V1Pod updated =
        MakePod.pod().name("p").label("foo", "")
            .spreadConstraint(s -> s.maxSkew(1).topologyKey("zone").selectorExists("foo")
                .nodeTaintsPolicy("Honor"))
            .tolerationExists("k", "NoSchedule")
            .obj();

    assertThat(plugin.isSchedulableAfterPodChange(target, target, updated))
        .isEqualTo(QueueingHint.QUEUE);
  }
}
