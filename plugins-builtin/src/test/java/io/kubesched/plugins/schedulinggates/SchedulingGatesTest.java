package io.kubesched.plugins.schedulinggates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.testing.MakePod;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports {@code TestPreEnqueue} and {@code
 * Test_isSchedulableAfterUpdatePodSchedulingGatesEliminated}.
 */
final class SchedulingGatesTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "pod does not carry scheduling gates",
            MakePod.pod().name("p").info(),
            Status.success()),
        argumentSet(
            "pod carries scheduling gates",
            MakePod.pod().name("p").schedulingGate("foo").schedulingGate("bar").info(),
            Status.unresolvable("waiting for scheduling gates: [foo bar]")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void preEnqueue(PodInfo pod, Status want) {
    assertThat(new SchedulingGates().preEnqueue(pod)).isEqualTo(want);
  }

  @Test
  void eventsToRegister() {
    assertThat(new SchedulingGates().eventsToRegister())
        .extracting(ClusterEventWithHint::event)
        .containsExactly(
            ClusterEvent.of(EventResource.POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED));
  }

  @Test
  void hintQueuesOnlyThePodItself() {
    V1Pod pod = MakePod.pod().name("p").uid("p").schedulingGate("g").obj();
    V1Pod updated = MakePod.pod().name("p").uid("p").obj();
    V1Pod other = MakePod.pod().name("q").uid("q").obj();
    assertThat(SchedulingGates.isSchedulableAfterGatesEliminated(pod, pod, updated))
        .isEqualTo(QueueingHint.QUEUE);
    assertThat(SchedulingGates.isSchedulableAfterGatesEliminated(pod, other, other))
        .isEqualTo(QueueingHint.SKIP);
  }
}
