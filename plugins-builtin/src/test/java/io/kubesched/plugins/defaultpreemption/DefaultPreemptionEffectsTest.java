package io.kubesched.plugins.defaultpreemption;

import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.HIGH;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.LOW;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.MID;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.node;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.Event;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.FakeHandle;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.FakeWaitingPod;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.NodeStatuses;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.ResourceFit;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.ScriptedRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What DefaultPreemption does to the cluster once a node is chosen (kube's {@code
 * prepareCandidate}), its eligibility rules ({@code TestPodEligibleToPreemptOthers}) and its
 * PreEnqueue gate.
 */
final class DefaultPreemptionEffectsTest {
  private static final String CONDITION =
      "DisruptionTarget=True PreemptionByScheduler"
          + " \"default-scheduler: preempting to accommodate a higher priority pod\"";

  private final FakeHandle handle = new FakeHandle();

  private DefaultPreemption plugin() {
    return new DefaultPreemption(DefaultPreemptionArgs.defaults(), handle, new ScriptedRandom(0));
  }

  /** One node with room for one pod; {@code victims} run on it. */
  private PostFilterResult preemptOnOneNode(V1Pod preemptor, V1Pod... victims) {
    return preemptOnOneNode(plugin(), preemptor, victims);
  }

  private PostFilterResult preemptOnOneNode(
      DefaultPreemption pl, V1Pod preemptor, V1Pod... victims) {
    handle.with(List.of(node("node1", 1, 0, 0)), List.of(victims)).filter(new ResourceFit());
    handle.client.add(preemptor);
    return pl.postFilter(
        new CycleState(), PodInfo.of(preemptor), NodeStatuses.allUnschedulable(List.of("node1")));
  }

  @Test
  void victimIsMarkedDeletedAndReported() {
    PostFilterResult got =
        preemptOnOneNode(pod("p").priority(HIGH).obj(), pod("p1").node("node1").obj());

    assertThat(got).isEqualTo(PostFilterResult.nominate("node1"));
    assertThat(handle.client.writes)
        .containsExactly("condition default/p1 " + CONDITION, "delete default/p1");
    assertThat(handle.client.events)
        .containsExactly(
            new Event(
                "default/p1",
                "Normal",
                "Preempted",
                "Preempting",
                "Preempted by pod p on node node1"));
  }

  @Test
  void lowerPriorityNominationsOnTheNodeAreClearedFirst() {
    handle.nominated.put(
        "node1",
        List.of(
            pod("n-low").priority(LOW).nominated("node1").info(),
            pod("n-high").priority(HIGH + 1).nominated("node1").info(),
            pod("n-equal").priority(HIGH).nominated("node1").info(),
            pod("n-in-memory-only").priority(LOW).info()));

    // room for the two nominated pods of equal or higher priority and the preemptor
    V1Pod preemptor = pod("p").priority(HIGH).obj();
    handle
        .with(List.of(node("node1", 3, 0, 0)), List.of(pod("p1").node("node1").obj()))
        .filter(new ResourceFit());
    handle.client.add(preemptor);

    PostFilterResult got =
        plugin()
            .postFilter(
                new CycleState(),
                PodInfo.of(preemptor),
                NodeStatuses.allUnschedulable(List.of("node1")));

    assertThat(got).isEqualTo(PostFilterResult.nominate("node1"));
    assertThat(handle.client.writes)
        .containsExactly(
            "nominate default/n-low \"\"",
            "condition default/p1 " + CONDITION,
            "delete default/p1");
  }

  @Test
  void waitingVictimIsRejectedInsteadOfDeleted() {
    V1Pod victim = pod("p1").node("node1").obj();
    FakeWaitingPod waiting = new FakeWaitingPod(PodInfo.of(victim));
    handle.waiting.put("p1", waiting);

    PostFilterResult got = preemptOnOneNode(pod("p").priority(HIGH).obj(), victim);

    assertThat(got).isEqualTo(PostFilterResult.nominate("node1"));
    assertThat(List.of(waiting.rejectedBy, waiting.rejectMessage))
        .containsExactly(DefaultPreemption.NAME, "preempted");
    assertThat(handle.client.writes).isEmpty();
    assertThat(handle.client.events).hasSize(1);
  }

  @Test
  void victimAlreadyMarkedIsNotPatchedAgain() {
    V1Pod victim = pod("p1").node("node1").obj();
    victim
        .getStatus()
        .addConditionsItem(
            new V1PodCondition()
                .type("DisruptionTarget")
                .status("True")
                .reason("PreemptionByScheduler")
                .message("default-scheduler: preempting to accommodate a higher priority pod"));

    preemptOnOneNode(pod("p").priority(HIGH).obj(), victim);

    assertThat(handle.client.writes).containsExactly("delete default/p1");
  }

  @Test
  void failedDeletionStopsEvictionAndActivatesThePreemptorButKeepsTheNomination() {
    V1Pod preemptor = pod("p").priority(HIGH).obj();
    handle.client.failDeletes.add("v1");

    PostFilterResult got =
        preemptOnOneNode(
            preemptor,
            pod("v1").priority(MID).node("node1").obj(),
            pod("v2").priority(LOW).node("node1").obj());

    assertThat(got).isEqualTo(PostFilterResult.nominate("node1"));
    assertThat(handle.client.writes).containsExactly("condition default/v1 " + CONDITION);
    assertThat(handle.client.events).isEmpty();
    assertThat(handle.activated).containsExactly(preemptor);
  }

  @Test
  void preEnqueueHoldsThePreemptorBackUntilTheLastVictimIsDeleted() {
    DefaultPreemption pl = plugin();
    V1Pod preemptor = pod("p").priority(HIGH).obj();
    List<Status> gate = new ArrayList<>();
    handle.client.onDelete = v -> gate.add(pl.preEnqueue(PodInfo.of(preemptor)));

    preemptOnOneNode(
        pl,
        preemptor,
        pod("v1").priority(MID).node("node1").obj(),
        pod("v2").priority(LOW).node("node1").obj(),
        pod("v3").priority(LOW).node("node1").obj());

    assertThat(gate)
        .containsExactly(
            Status.unresolvable(DefaultPreemption.REASON_PREEMPTION_RUNNING),
            Status.unresolvable(DefaultPreemption.REASON_PREEMPTION_RUNNING),
            Status.success());
    assertThat(pl.preEnqueue(PodInfo.of(preemptor))).isEqualTo(Status.success());
  }

  @Test
  void preemptorMissingFromTheClusterIsAnError() {
    DefaultPreemption pl = plugin();
    handle.with(List.of(node("node1", 1, 0, 0)), List.of(pod("p1").node("node1").obj()));

    PostFilterResult got =
        pl.postFilter(
            new CycleState(),
            pod("p").priority(HIGH).info(),
            NodeStatuses.allUnschedulable(List.of("node1")));

    assertThat(got).isEqualTo(PostFilterResult.of(Status.error("preemption: pod \"p\" not found")));
  }

  @Test
  void registersPodDeletionWithAHintThatAlwaysSkips() throws Exception {
    var events = plugin().eventsToRegister();

    assertThat(events).hasSize(1);
    assertThat(events.get(0).event())
        .isEqualTo(ClusterEvent.of(EventResource.POD, ActionType.DELETE));
    assertThat(events.get(0).hint().hint(pod("p").obj(), pod("q").obj(), null))
        .isEqualTo(QueueingHint.SKIP);
  }

  static Stream<Arguments> eligibilityCases() {
    return Stream.of(
        argumentSet(
            "pod without nominated node",
            pod("p").priority(HIGH).obj(),
            List.of(pod("p1").priority(LOW).node("node1").terminatingByPreemption().obj()),
            Status.unschedulable(),
            Optional.empty()),
        argumentSet(
            "pod with preemptionPolicy Never",
            pod("p").priority(HIGH).neverPreempt().obj(),
            List.of(),
            Status.unschedulable(),
            Optional.of(DefaultPreemption.REASON_NEVER)),
        argumentSet(
            "victim pod terminating because of preemption on the nominated node",
            pod("p").priority(HIGH).nominated("node1").obj(),
            List.of(pod("p1").priority(LOW).node("node1").terminatingByPreemption().obj()),
            Status.unschedulable(),
            Optional.of(DefaultPreemption.REASON_TERMINATING_VICTIM)),
        argumentSet(
            "nominated node is UnschedulableAndUnresolvable",
            pod("p").priority(HIGH).nominated("node1").obj(),
            List.of(pod("p1").priority(LOW).node("node1").terminatingByPreemption().obj()),
            Status.unresolvable(),
            Optional.empty()),
        argumentSet(
            "lower-priority pod terminating for another reason",
            pod("p").priority(HIGH).nominated("node1").obj(),
            List.of(pod("p1").priority(LOW).node("node1").terminating().obj()),
            Status.unschedulable(),
            Optional.empty()),
        argumentSet(
            "higher-priority pod terminating because of preemption",
            pod("p").priority(MID).nominated("node1").obj(),
            List.of(pod("p1").priority(HIGH).node("node1").terminatingByPreemption().obj()),
            Status.unschedulable(),
            Optional.empty()),
        argumentSet(
            "nominated node is gone",
            pod("p").priority(HIGH).nominated("node9").obj(),
            List.of(pod("p1").priority(LOW).node("node1").terminatingByPreemption().obj()),
            Status.unschedulable(),
            Optional.empty()));
  }

  @ParameterizedTest
  @MethodSource("eligibilityCases")
  void eligibility(
      V1Pod preemptor, List<V1Pod> pods, Status nominatedStatus, Optional<String> want) {
    handle.with(List.of(node("node1", 32, 1000, 1000)), pods);

    assertThat(plugin().podEligibleToPreemptOthers(PodInfo.of(preemptor), nominatedStatus))
        .isEqualTo(want);
  }

  @Test
  void noNodeWherePreemptionHelpsClearsThePreemptorsNomination() {
    DefaultPreemption pl = plugin();
    V1Pod preemptor = pod("p").priority(HIGH).nominated("node1").obj();
    handle.with(List.of(node("node1", 1, 0, 0)), List.of(pod("p1").node("node1").obj()));
    handle.client.add(preemptor);

    pl.postFilter(
        new CycleState(), PodInfo.of(preemptor), new NodeStatuses(Map.of(), Status.unresolvable()));

    assertThat(handle.client.writes).containsExactly("nominate default/p \"\"");
  }
}
