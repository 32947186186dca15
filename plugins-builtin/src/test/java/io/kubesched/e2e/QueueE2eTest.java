package io.kubesched.e2e;

import static io.kubesched.e2e.E2eCluster.failed;
import static io.kubesched.e2e.E2eCluster.node;
import static io.kubesched.e2e.E2eCluster.scheduled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cluster.ObjectCopier;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Requeueing through cluster events and scheduling gates, through the whole engine. */
final class QueueE2eTest {
  private static final String TOO_BIG =
      "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No"
          + " preemption victims found for incoming pod.";

  @Test
  void aPodThatFitsNowhereGetsOneFailureMessageThenIsScheduledWhenANodeIsAdded() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("small", "1", "8Gi"));
      c.add(MakePod.pod().name("p").req("cpu", "2").obj()).run();

      assertThat(c.nodeOf("p")).isNull();
      assertThat(c.distinctEvents("p")).containsExactly(failed(TOO_BIG));
      assertThat(c.podScheduled("p")).containsExactly("False", "Unschedulable", TOO_BIG);

      c.add(node("big", "4", "8Gi")).run();

      assertThat(c.nodeOf("p")).isEqualTo("big");
      assertThat(c.distinctEvents("p")).containsExactly(failed(TOO_BIG), scheduled("p", "big"));
      assertThat(c.podScheduled("p").get(0)).isEqualTo("True");
    }
  }

  @Test
  void deletingAnAssignedPodLetsThePendingPodIn() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi"));
      c.add(MakePod.pod().name("old").req("cpu", "1").node("n1").obj());
      c.add(MakePod.pod().name("p").req("cpu", "1").obj()).run();

      assertThat(c.distinctEvents("p"))
          .containsExactly(
              failed(
                  "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are"
                      + " available: 1 No preemption victims found for incoming pod."));

      c.api.deletePod(c.pod("old"));
      c.run();

      assertThat(c.nodeOf("p")).isEqualTo("n1");
    }
  }

  @Test
  void uncordoningANodeLetsThePendingPodIn() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi").unschedulable(true));
      c.add(MakePod.pod().name("p").obj()).run();

      assertThat(c.distinctEvents("p"))
          .containsExactly(
              failed(
                  "0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes"
                      + " are available: 1 Preemption is not helpful for scheduling."));

      c.api.updateNode(node("n1", "1", "8Gi").obj());
      c.run();

      assertThat(c.nodeOf("p")).isEqualTo("n1");
    }
  }

  @Test
  void schedulingGatesKeepThePodOutUntilRemoved() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "4", "8Gi"));
      c.add(MakePod.pod().name("p").schedulingGate("example.com/quota").obj()).run();

      assertThat(c.nodeOf("p")).isNull();
      assertThat(c.events("p")).isEmpty();
      assertThat(c.scheduler().queue().sizes().gated()).isEqualTo(1);
      assertThat(c.podScheduled("p"))
          .containsExactly(
              "False",
              "SchedulingGated",
              "Scheduling is blocked due to non-empty scheduling gates");

      V1Pod ungated = ObjectCopier.deepCopy(c.pod("p"));
      ungated.getSpec().setSchedulingGates(List.of());
      c.api.updatePod(ungated);
      c.run();

      assertThat(c.nodeOf("p")).isEqualTo("n1");
      assertThat(c.events("p")).containsExactly(scheduled("p", "n1"));
      assertThat(c.scheduler().queue().sizes().gated()).isEqualTo(0);
    }
  }

  private static V1Pod copy(E2eCluster c, String name) {
    return ObjectCopier.deepCopy(c.pod(name));
  }

  private static Arguments requeue(
      String name,
      List<MakeNode> nodes,
      List<V1Pod> bound,
      V1Pod pod,
      Consumer<E2eCluster> change) {
    return argumentSet(name, nodes, bound, pod, change, null);
  }

  private static Arguments requeue(
      String name,
      List<MakeNode> nodes,
      List<V1Pod> bound,
      V1Pod pod,
      Consumer<E2eCluster> change,
      Duration delay) {
    return argumentSet(name, nodes, bound, pod, change, delay);
  }

  static Stream<Arguments> requeues() {
    return Stream.of(
        requeue(
            "a node label update satisfies the nodeSelector",
            List.of(node("n1", "4", "8Gi")),
            List.of(),
            MakePod.pod().name("p").nodeSelector(Map.of("disk", "ssd")).obj(),
            c -> c.api.updateNode(node("n1", "4", "8Gi").label("disk", "ssd").obj())),
        requeue(
            "removing a taint",
            List.of(node("n1", "4", "8Gi").taint("maintenance", "true", "NoSchedule")),
            List.of(),
            MakePod.pod().name("p").obj(),
            c -> c.api.updateNode(node("n1", "4", "8Gi").obj())),
        requeue(
            "more allocatable cpu",
            List.of(node("n1", "1", "8Gi")),
            List.of(),
            MakePod.pod().name("p").req("cpu", "2").obj(),
            c -> c.api.updateNode(node("n1", "4", "8Gi").obj())),
        requeue(
            "deleting an existing pod whose anti-affinity rejected it waits for the flush"
                + " (upstream's InterPodAffinity hint only looks at the target pod's own"
                + " anti-affinity terms)",
            List.of(node("n1", "4", "8Gi")),
            List.of(
                MakePod.pod()
                    .name("db")
                    .label("app", "db")
                    .podAntiAffinity(E2eCluster.HOSTNAME, "app", "web")
                    .node("n1")
                    .obj()),
            MakePod.pod().name("p").label("app", "web").obj(),
            c -> c.api.deletePod(c.pod("db")),
            Duration.ofMinutes(5).plusSeconds(30)),
        requeue(
            "deleting the pod the target's own anti-affinity rejects",
            List.of(node("n1", "4", "8Gi")),
            List.of(MakePod.pod().name("w").label("app", "web").node("n1").obj()),
            MakePod.pod().name("p").podAntiAffinity(E2eCluster.HOSTNAME, "app", "web").obj(),
            c -> c.api.deletePod(c.pod("w"))),
        requeue(
            "a matching pod appears for the required affinity",
            List.of(node("n1", "4", "8Gi")),
            List.of(),
            MakePod.pod().name("p").podAffinity(E2eCluster.HOSTNAME, "app", "cache").obj(),
            c -> c.add(MakePod.pod().name("cache").label("app", "cache").node("n1").obj())),
        requeue(
            "an existing pod's label changes so anti-affinity no longer applies",
            List.of(node("n1", "4", "8Gi")),
            List.of(MakePod.pod().name("w").label("app", "web").node("n1").obj()),
            MakePod.pod().name("p").podAntiAffinity(E2eCluster.HOSTNAME, "app", "web").obj(),
            c -> {
              V1Pod w = copy(c, "w");
              w.getMetadata().putLabelsItem("app", "other");
              c.api.updatePod(w);
            }),
        requeue(
            "freeing the host port",
            List.of(node("n1", "4", "8Gi")),
            List.of(MakePod.pod().name("a").hostPort(80).node("n1").obj()),
            MakePod.pod().name("p").hostPort(80).obj(),
            c -> c.api.deletePod(c.pod("a"))),
        requeue(
            "a new node in the zone the spread constraint needs",
            List.of(
                node("a1", "4", "8Gi").label(E2eCluster.ZONE, "a"),
                node("b1", "1", "8Gi").label(E2eCluster.ZONE, "b")),
            List.of(
                MakePod.pod().name("w1").label("app", "web").node("a1").obj(),
                MakePod.pod().name("w2").label("app", "web").req("cpu", "1").node("b1").obj(),
                MakePod.pod().name("w3").label("app", "web").node("a1").obj()),
            MakePod.pod()
                .name("p")
                .label("app", "web")
                .req("cpu", "1")
                .spreadConstraint(
                    s -> s.maxSkew(1).topologyKey(E2eCluster.ZONE).selectorIn("app", "web"))
                .obj(),
            c -> c.add(node("b2", "4", "8Gi").label(E2eCluster.ZONE, "b"))),
        requeue(
            "the pod's own toleration is added",
            List.of(node("n1", "4", "8Gi").taint("dedicated", "x", "NoSchedule")),
            List.of(),
            MakePod.pod().name("p").obj(),
            c -> {
              V1Pod p = copy(c, "p");
              p.getSpec()
                  .addTolerationsItem(
                      new io.kubernetes.client.openapi.models.V1Toleration()
                          .key("dedicated")
                          .operator("Equal")
                          .value("x")
                          .effect("NoSchedule"));
              c.api.updatePod(p);
            }));
  }

  @ParameterizedTest
  @MethodSource("requeues")
  void aClusterEventThatCanHelpRequeuesThePod(
      List<MakeNode> nodes,
      List<V1Pod> bound,
      V1Pod pod,
      Consumer<E2eCluster> change,
      Duration expectedDelay) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      nodes.forEach(c::add);
      bound.forEach(c::add);
      c.add(pod).run();
      assertThat(c.nodeOf("p")).isNull();
      Instant changed = c.time.now();

      change.accept(c);
      c.run();

      assertThat(c.nodeOf("p")).isNotNull();
      Instant boundAt =
          c.api.eventsFor("Pod", "default", "p").stream()
              .filter(e -> e.reason().equals("Scheduled"))
              .findFirst()
              .orElseThrow()
              .timestamp();
      assertThat(Duration.between(changed, boundAt))
          .isLessThanOrEqualTo(expectedDelay == null ? Duration.ofSeconds(10) : expectedDelay);
      if (expectedDelay != null) {
        assertThat(Duration.between(changed, boundAt)).isGreaterThan(Duration.ofMinutes(4));
      }
    }
  }

  @Test
  void aGatedPodsNodeSelectorMayBeChangedBeforeItsGateIsRemoved() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "4", "8Gi"), node("n2", "4", "8Gi").label("disk", "ssd"));
      c.add(MakePod.pod().name("p").schedulingGate("example.com/placement").obj()).run();

      V1Pod placed = copy(c, "p");
      placed.getSpec().setNodeSelector(Map.of("disk", "ssd"));
      placed.getSpec().setSchedulingGates(List.of());
      c.api.updatePod(placed);
      c.run();

      assertThat(c.nodeOf("p")).isEqualTo("n2");
    }
  }

  @Test
  void aPendingPodThatIsDeletedIsNoLongerRetried() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi"));
      c.add(MakePod.pod().name("p").req("cpu", "2").obj());
      c.scheduler().scheduleOne();
      assertThat(c.events("p")).hasSize(1);

      c.api.deletePod(c.pod("p"));
      c.add(node("n2", "4", "8Gi")).run();

      assertThat(c.api.eventsFor("Pod", "default", "p")).hasSize(1);
      assertThat(c.scheduler().queue().pendingPods()).isEmpty();
    }
  }
}
