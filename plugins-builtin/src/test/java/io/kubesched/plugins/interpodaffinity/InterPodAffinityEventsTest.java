package io.kubesched.plugins.interpodaffinity;

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
 * Events and queueing hints of InterPodAffinity, ported from kube's
 * Test_isSchedulableAfterPodChange and Test_isSchedulableAfterNodeChange.
 */
final class InterPodAffinityEventsTest {
  final InterPodAffinity plugin =
      new InterPodAffinity(InterPodAffinityArgs.defaults(), FakeHandle.of(List.of(), List.of()));

  @Test
  void registersPodAndNodeEvents() {
    assertThat(plugin.eventsToRegister().stream().map(ClusterEventWithHint::event).toList())
        .containsExactly(
            ClusterEvent.of(
                EventResource.POD,
                ActionType.ADD | ActionType.UPDATE_POD_LABEL | ActionType.DELETE),
            ClusterEvent.of(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL));
  }

  static V1Pod withAffinity() {
    return MakePod.pod().name("p").podAffinity("zone", "service", "securityscan").obj();
  }

  static V1Pod withAntiAffinity() {
    return MakePod.pod().name("p").podAntiAffinity("zone", "service", "securityscan").obj();
  }

  static V1Pod assigned(String name, String service) {
    return MakePod.pod().name(name).node("fake-node").label("service", service).obj();
  }

  static Stream<Arguments> podCases() {
    return Stream.of(
        Arguments.argumentSet("add a pod with a label that matches the affinity",
            withAffinity(), null, assigned("e", "securityscan"), QueueingHint.QUEUE),
        Arguments.argumentSet("add an unscheduled pod",
            withAffinity(), null,
            MakePod.pod().name("e").label("service", "securityscan").obj(), QueueingHint.SKIP),
        Arguments.argumentSet("add a pod that doesn't match the affinity",
            withAffinity(), null, assigned("e", "unmatched"), QueueingHint.SKIP),
        Arguments.argumentSet("update a pod's label to match the affinity",
            withAffinity(), assigned("e", "unmatched"), assigned("e", "securityscan"),
            QueueingHint.QUEUE),
        Arguments.argumentSet("update a pod's label that keeps matching the affinity",
            withAffinity(), assigned("e", "securityscan"),
            MakePod.pod().name("e").node("fake-node").label("service", "securityscan")
                .label("x", "y").obj(),
            QueueingHint.SKIP),
        Arguments.argumentSet("update a pod's label so it no longer matches the anti-affinity",
            withAntiAffinity(), assigned("e", "securityscan"), assigned("e", "unmatched"),
            QueueingHint.QUEUE),
        Arguments.argumentSet("delete a pod that matches the anti-affinity",
            withAntiAffinity(), assigned("e", "securityscan"), null, QueueingHint.QUEUE),
        Arguments.argumentSet("delete a pod that doesn't match the anti-affinity",
            withAntiAffinity(), assigned("e", "unmatched"), null, QueueingHint.SKIP),
        Arguments.argumentSet("delete a pod that matches the affinity",
            withAffinity(), assigned("e", "securityscan"), null, QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("podCases")
  void podHint(V1Pod target, V1Pod oldPod, V1Pod newPod, QueueingHint want) {
    assertThat(plugin.isSchedulableAfterPodChange(target, oldPod, newPod)).isEqualTo(want);
  }

  static V1Node node(String... labels) {
    MakeNode n = MakeNode.node().name("fake-node");
    for (int i = 0; i < labels.length; i += 2) {
      n.label(labels[i], labels[i + 1]);
    }
    return n.obj();
  }

  static Stream<Arguments> nodeCases() {
    return Stream.of(
        Arguments.argumentSet("add a node with the affinity topology key",
            withAffinity(), null, node("zone", "zone1"), QueueingHint.QUEUE),
        Arguments.argumentSet("add a node without the affinity topology key",
            withAffinity(), null, node("other", "x"), QueueingHint.SKIP),
        Arguments.argumentSet("the affinity topology key is added to a node",
            withAffinity(), node("other", "x"), node("other", "x", "zone", "zone1"),
            QueueingHint.QUEUE),
        Arguments.argumentSet("the affinity topology value changes",
            withAffinity(), node("zone", "zone1"), node("zone", "zone2"), QueueingHint.QUEUE),
        Arguments.argumentSet("an unrelated label changes",
            withAffinity(), node("zone", "zone1"), node("zone", "zone1", "other", "x"),
            QueueingHint.SKIP),
        Arguments.argumentSet("add any node for a pod with anti-affinity",
            withAntiAffinity(), null, node("other", "x"), QueueingHint.QUEUE),
        Arguments.argumentSet("the anti-affinity topology key is removed",
            withAntiAffinity(), node("zone", "zone1"), node("other", "x"), QueueingHint.QUEUE),
        Arguments.argumentSet("the anti-affinity topology key is added",
            withAntiAffinity(), node("other", "x"), node("zone", "zone1"), QueueingHint.SKIP),
        Arguments.argumentSet("the anti-affinity topology value changes",
            withAntiAffinity(), node("zone", "zone1"), node("zone", "zone2"),
            QueueingHint.QUEUE));
  }

  @ParameterizedTest
  @MethodSource("nodeCases")
  void nodeHint(V1Pod target, V1Node oldNode, V1Node newNode, QueueingHint want) {
    assertThat(plugin.isSchedulableAfterNodeChange(target, oldNode, newNode)).isEqualTo(want);
  }
}
