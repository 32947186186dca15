package io.kubesched.e2e;

import static io.kubesched.e2e.E2eCluster.failed;
import static io.kubesched.e2e.E2eCluster.node;
import static io.kubesched.e2e.E2eCluster.scheduled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetSpec;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetStatus;
import io.kubernetes.client.custom.IntOrString;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** DefaultPreemption through the whole engine: victims, events, nomination and the rebind. */
final class PreemptionE2eTest {
  private static MakePod pod(String name, int priority) {
    return MakePod.pod().name(name).priority(priority).req("cpu", "1");
  }

  private static String preempted(String preemptor, String node) {
    return "Normal Preempted Preempting: Preempted by pod default/" + preemptor + " on node " + node;
  }

  @Test
  void theLowestPriorityVictimIsEvictedThenThePreemptorIsBound() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "3", "8Gi"));
      c.add(
          pod("low", 1).node("n1").obj(),
          pod("lower", 0).node("n1").obj(),
          pod("mid", 5).node("n1").obj());
      c.add(pod("pre", 10).obj());

      c.scheduler().scheduleOne();

      assertThat(c.nominatedNode("pre")).isEqualTo("n1");
      assertThat(c.podScheduled("pre"))
          .containsExactly("False", "Unschedulable", "0/1 nodes are available: 1 Insufficient cpu.");

      c.run();

      assertThat(c.placements()).isEqualTo(PlacementE2eTest.map("low", "n1", "mid", "n1", "pre", "n1"));
      assertThat(c.nominatedNode("pre")).isEqualTo("n1");
      assertThat(c.podScheduled("pre")).containsExactly("True", null, null);
      assertThat(c.events("lower")).containsExactly(preempted("pre", "n1"));
      assertThat(c.events("low")).isEmpty();
      assertThat(c.events("pre"))
          .containsExactly(
              failed("0/1 nodes are available: 1 Insufficient cpu."), scheduled("pre", "n1"));
    }
  }

  @Test
  void severalVictimsAreEvictedWhenOneIsNotEnough() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "3", "8Gi"));
      c.add(
          pod("a", 1).node("n1").obj(),
          pod("b", 2).node("n1").obj(),
          pod("c", 3).node("n1").obj());
      c.add(MakePod.pod().name("pre").priority(10).req("cpu", "2").obj());
      c.run();

      assertThat(c.placements()).isEqualTo(PlacementE2eTest.map("c", "n1", "pre", "n1"));
      assertThat(c.events("a")).containsExactly(preempted("pre", "n1"));
      assertThat(c.events("b")).containsExactly(preempted("pre", "n1"));
    }
  }

  @Test
  void preemptionPolicyNeverLeavesThePodPendingAndEvictsNothing() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi"));
      c.add(pod("low", 0).node("n1").obj());
      c.add(pod("pre", 10).preemptionPolicy("Never").obj());
      c.run();

      String message =
          "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to"
              + " preemptionPolicy=Never.";
      assertThat(c.placements()).isEqualTo(PlacementE2eTest.map("low", "n1", "pre", ""));
      assertThat(c.podScheduled("pre")).containsExactly("False", "Unschedulable", message);
      assertThat(c.distinctEvents("pre")).containsExactly(failed(message));
      assertThat(c.nominatedNode("pre")).isNull();
    }
  }

  static Stream<Arguments> budgets() {
    return Stream.of(
        argumentSet("without a budget the node with the lowest-priority victim is chosen", false, "n1", "v1"),
        argumentSet("a budget that allows no disruption moves preemption to the other node", true, "n2", "v2"));
  }

  @ParameterizedTest
  @MethodSource("budgets")
  void podDisruptionBudgetsAreRespectedWhenPossible(
      boolean budget, String expectedNode, String expectedVictim) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      if (budget) {
        c.api.create(
            new V1PodDisruptionBudget()
                .metadata(new V1ObjectMeta().name("protect").namespace("default"))
                .spec(
                    new V1PodDisruptionBudgetSpec()
                        .minAvailable(new IntOrString(1))
                        .selector(new V1LabelSelector().matchLabels(Map.of("app", "protected"))))
                .status(
                    new V1PodDisruptionBudgetStatus()
                        .disruptionsAllowed(0)
                        .currentHealthy(1)
                        .desiredHealthy(1)
                        .expectedPods(1)));
      }
      c.add(node("n1", "1", "8Gi"), node("n2", "1", "8Gi"));
      c.add(pod("v1", 1).label("app", "protected").node("n1").obj(), pod("v2", 2).node("n2").obj());
      c.add(pod("pre", 10).obj());
      c.run();

      assertThat(c.nodeOf("pre")).isEqualTo(expectedNode);
      assertThat(c.exists(expectedVictim)).isFalse();
      assertThat(c.events(expectedVictim)).containsExactly(preempted("pre", expectedNode));
      assertThat(c.api.listPods()).hasSize(2);
    }
  }

  @Test
  void aHigherPriorityPodPreemptsAcrossNodesOnlyWhereItHelps() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(
          node("n1", "1", "8Gi").taint("dedicated", "x", "NoSchedule"),
          node("n2", "1", "8Gi"));
      c.add(
          pod("t", 0).toleration("dedicated", "x", "NoSchedule").node("n1").obj(),
          pod("v", 0).node("n2").obj());
      c.add(pod("pre", 10).obj());
      c.run();

      assertThat(c.placements())
          .isEqualTo(PlacementE2eTest.map("t", "n1", "pre", "n2"));
      assertThat(c.events("pre"))
          .containsExactly(
              failed(
                  "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint"
                      + " {dedicated: x}."),
              scheduled("pre", "n2"));
      assertThat(List.of(c.events("t"), c.events("v")))
          .containsExactly(List.of(), List.of(preempted("pre", "n2")));
    }
  }

  @Test
  void theNodeWhoseVictimsHaveTheLowestPriorityIsChosen() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi"), node("n2", "1", "8Gi"), node("n3", "1", "8Gi"));
      c.add(
          pod("v1", 5).node("n1").obj(),
          pod("v2", 1).node("n2").obj(),
          pod("v3", 3).node("n3").obj());
      c.add(pod("pre", 10).obj());
      c.run();

      assertThat(c.placements())
          .isEqualTo(PlacementE2eTest.map("v1", "n1", "v3", "n3", "pre", "n2"));
      assertThat(c.events("v2")).containsExactly(preempted("pre", "n2"));
    }
  }

  @Test
  void fewerVictimsWinWhenTheirPrioritiesTie() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "2", "8Gi"), node("n2", "2", "8Gi"));
      c.add(
          pod("a1", 1).node("n1").obj(),
          pod("a2", 1).node("n1").obj(),
          MakePod.pod().name("b1").priority(1).req("cpu", "2").node("n2").obj());
      c.add(MakePod.pod().name("pre").priority(10).req("cpu", "2").obj());
      c.run();

      assertThat(c.placements()).isEqualTo(PlacementE2eTest.map("a1", "n1", "a2", "n1", "pre", "n2"));
      assertThat(c.events("b1")).containsExactly(preempted("pre", "n2"));
    }
  }

  @Test
  void aLowerPriorityPodBlockingByAntiAffinityIsPreempted() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "4", "8Gi"));
      c.add(MakePod.pod().name("low").priority(1).label("app", "batch").node("n1").obj());
      c.add(
          MakePod.pod()
              .name("pre")
              .priority(10)
              .podAntiAffinity(E2eCluster.HOSTNAME, "app", "batch")
              .obj());
      c.run();

      assertThat(c.placements()).isEqualTo(PlacementE2eTest.map("pre", "n1"));
      assertThat(c.events("low")).containsExactly(preempted("pre", "n1"));
      assertThat(c.events("pre"))
          .containsExactly(
              failed("0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules."),
              scheduled("pre", "n1"));
    }
  }

  @Test
  void aBudgetIsViolatedWhenNoOtherVictimExists() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.api.create(
          new V1PodDisruptionBudget()
              .metadata(new V1ObjectMeta().name("protect").namespace("default"))
              .spec(
                  new V1PodDisruptionBudgetSpec()
                      .minAvailable(new IntOrString(1))
                      .selector(new V1LabelSelector().matchLabels(Map.of("app", "protected"))))
              .status(new V1PodDisruptionBudgetStatus().disruptionsAllowed(0)));
      c.add(node("n1", "1", "8Gi"));
      c.add(pod("v", 1).label("app", "protected").node("n1").obj());
      c.add(pod("pre", 10).obj());
      c.run();

      assertThat(c.placements()).isEqualTo(PlacementE2eTest.map("pre", "n1"));
      assertThat(c.events("v")).containsExactly(preempted("pre", "n1"));
    }
  }

  @Test
  void aPreemptorWaitsForItsNominatedNodeWhileALowerPriorityPodCannotTakeIt() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi"));
      c.add(pod("victim", 1).node("n1").obj());
      c.add(pod("pre", 10).obj());
      c.scheduler().scheduleOne();
      assertThat(c.nominatedNode("pre")).isEqualTo("n1");

      c.add(pod("sneaky", 5).obj());
      c.run();

      assertThat(c.placements()).isEqualTo(PlacementE2eTest.map("pre", "n1", "sneaky", ""));
      assertThat(c.distinctEvents("sneaky"))
          .containsExactly(
              failed(
                  "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are"
                      + " available: 1 No preemption victims found for incoming pod."));
    }
  }

  @Test
  void twoPreemptorsTakeTwoDifferentNodes() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi"), node("n2", "1", "8Gi"));
      c.add(pod("v1", 1).node("n1").obj(), pod("v2", 1).node("n2").obj());
      c.add(pod("pre1", 10).obj(), pod("pre2", 10).obj());
      c.run();

      assertThat(c.countsByNode()).isEqualTo(Map.of("n1", 1, "n2", 1));
      assertThat(List.of(c.exists("v1"), c.exists("v2"), c.nodeOf("pre1") != null, c.nodeOf("pre2") != null))
          .containsExactly(false, false, true, true);
    }
  }

  @Test
  void onlyPodsOfLowerPriorityInAnyNamespaceAreVictims() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "2", "8Gi"));
      c.add(
          MakePod.pod().name("same").namespace("team-a").priority(10).req("cpu", "1").node("n1").obj(),
          MakePod.pod().name("lower").namespace("team-b").priority(9).req("cpu", "1").node("n1").obj());
      c.add(pod("pre", 10).obj());
      c.run();

      assertThat(c.nodeOf("pre")).isEqualTo("n1");
      assertThat(c.api.getPod("team-a", "same")).isPresent();
      assertThat(c.api.getPod("team-b", "lower")).isEmpty();
      assertThat(c.api.eventsFor("Pod", "team-b", "lower").stream().map(E2eCluster::format).toList())
          .containsExactly(preempted("pre", "n1"));
    }
  }
}
