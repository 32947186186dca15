package io.kubesched.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.QueueingHint;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports {@code TestEventsToRegister} and the queueing hint tests of {@code fit_test.go}. */
final class FitEventsTest {

  @Test
  void eventsToRegisterWithQueueingHintsAndInPlaceScaling() {
    assertThat(new Fit(NodeResourcesFitArgs.defaults()).eventsToRegister())
        .extracting(ClusterEventWithHint::event)
        .containsExactly(
            ClusterEvent.of(
                EventResource.POD, ActionType.DELETE | ActionType.UPDATE_POD_SCALE_DOWN),
            ClusterEvent.of(
                EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_ALLOCATABLE));
  }

  static Stream<Arguments> podCases() {
    return Stream.of(
        argumentSet(
            "queue on other pod deleted",
            MakePod.pod().name("pod1").req("cpu", "1").obj(),
            MakePod.pod().name("pod2").req("cpu", "1").node("fake").obj(),
            null,
            QueueingHint.QUEUE),
        argumentSet(
            "skip queue on unscheduled pod deleted",
            MakePod.pod().name("pod1").obj(),
            MakePod.pod().name("pod2").obj(),
            null,
            QueueingHint.SKIP),
        argumentSet(
            "skip queue on other unscheduled pod",
            MakePod.pod().name("pod1").uid("uid0").req("cpu", "1").obj(),
            MakePod.pod().name("pod2").uid("uid1").req("cpu", "2").obj(),
            MakePod.pod().name("pod2").uid("uid1").req("cpu", "1").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "skip queue on other pod unrelated resource scaled down",
            MakePod.pod().name("pod1").uid("pod1").req("cpu", "1").obj(),
            MakePod.pod().name("pod2").uid("pod2").req("memory", "2").node("fake").obj(),
            MakePod.pod().name("pod2").uid("pod2").req("memory", "1").node("fake").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "queue on other pod some resource scale down",
            MakePod.pod().name("pod1").uid("pod1").req("cpu", "1").obj(),
            MakePod.pod().name("pod2").uid("pod2").req("cpu", "2").node("fake").obj(),
            MakePod.pod().name("pod2").uid("pod2").req("cpu", "1").node("fake").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "queue on target pod some resource scale down",
            MakePod.pod().name("pod1").uid("pod1").req("cpu", "1").obj(),
            MakePod.pod().name("pod1").uid("pod1").req("cpu", "2").obj(),
            MakePod.pod().name("pod1").uid("pod1").req("cpu", "1").obj(),
            QueueingHint.QUEUE));
  }

  @ParameterizedTest
  @MethodSource("podCases")
  void podHint(V1Pod pod, Object oldObj, Object newObj, QueueingHint want) {
    assertThat(Fit.isSchedulableAfterPodEvent(pod, oldObj, newObj)).isEqualTo(want);
  }

  @Test
  void podHintRejectsObjectsOfAnotherType() {
    assertThatThrownBy(() -> Fit.isSchedulableAfterPodEvent(new V1Pod(), "not-a-pod", null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  static Stream<Arguments> nodeCases() {
    return Stream.of(
        argumentSet(
            "queue on node add",
            MakePod.pod().req("cpu", "1").obj(),
            null,
            MakeNode.node().name("n").capacity("cpu", "1").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "skip queue on node add without enough resources",
            MakePod.pod().req("cpu", "2").obj(),
            null,
            MakeNode.node().name("n").capacity("cpu", "1").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "skip queue on node unrelated changes",
            MakePod.pod().req("cpu", "1").obj(),
            MakeNode.node().name("n").capacity("cpu", "2").obj(),
            MakeNode.node().name("n").capacity("cpu", "2").label("zone", "zone1").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "queue on pod requested resources increase",
            MakePod.pod().req("cpu", "1").obj(),
            MakeNode.node().name("n").capacity("cpu", "1").obj(),
            MakeNode.node().name("n").capacity("cpu", "2").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "skip queue on node changes from suitable to unsuitable",
            MakePod.pod().req("cpu", "2").obj(),
            MakeNode.node().name("n").capacity("cpu", "2").obj(),
            MakeNode.node().name("n").capacity("cpu", "1").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "queue on node changes from unsuitable to suitable",
            MakePod.pod().req("cpu", "2").obj(),
            MakeNode.node().name("n").capacity("cpu", "1").obj(),
            MakeNode.node().name("n").capacity("cpu", "2").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "queue when the allowed pod number increases",
            MakePod.pod().obj(),
            MakeNode.node().name("n").capacity("cpu", "1", "pods", "1").obj(),
            MakeNode.node().name("n").capacity("cpu", "1", "pods", "2").obj(),
            QueueingHint.QUEUE));
  }

  @ParameterizedTest
  @MethodSource("nodeCases")
  void nodeHint(V1Pod pod, Object oldObj, Object newObj, QueueingHint want) {
    assertThat(Fit.isSchedulableAfterNodeChange(pod, oldObj, newObj)).isEqualTo(want);
  }
}
