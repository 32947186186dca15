package io.kubesched.e2e;

import static io.kubesched.e2e.E2eCluster.HOSTNAME;
import static io.kubesched.e2e.E2eCluster.ZONE;
import static io.kubesched.e2e.E2eCluster.failed;
import static io.kubesched.e2e.E2eCluster.node;
import static io.kubesched.e2e.E2eCluster.scheduled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodAntiAffinity;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Where the default profile puts pods: spreading, affinity, selectors, taints, priorities. */
final class PlacementE2eTest {
  private static final String WEB = "web";

  private static MakePod pod(String name) {
    return MakePod.pod().name(name).container("registry.k8s.io/pause:3.10");
  }

  /** Two nodes in each of the zones a, b and c. */
  private static List<MakeNode> threeZones() {
    return List.of(
        node("a1", "4", "8Gi").label(ZONE, "a"),
        node("a2", "4", "8Gi").label(ZONE, "a"),
        node("b1", "4", "8Gi").label(ZONE, "b"),
        node("b2", "4", "8Gi").label(ZONE, "b"),
        node("c1", "4", "8Gi").label(ZONE, "c"),
        node("c2", "4", "8Gi").label(ZONE, "c"));
  }

  private static Map<String, Integer> podsPerZone(E2eCluster c) {
    Map<String, Integer> zones = new TreeMap<>();
    c.placements()
        .forEach(
            (pod, node) -> {
              if (!node.isEmpty()) {
                zones.merge(node.substring(0, 1), 1, Integer::sum);
              }
            });
    return zones;
  }

  static Stream<Arguments> spreading() {
    return Stream.of(
        argumentSet("a hard constraint (DoNotSchedule) fills the emptier zones", "DoNotSchedule"),
        argumentSet("a soft constraint (ScheduleAnyway) prefers the emptier zones", "ScheduleAnyway"));
  }

  @ParameterizedTest
  @MethodSource("spreading")
  void spreadingOverThreeZonesBalancesTheReplicas(String whenUnsatisfiable) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      threeZones().forEach(c::add);
      c.add(pod("old-0").label("app", WEB).node("a1").obj(), pod("old-1").label("app", WEB).node("a2").obj());
      for (int i = 0; i < 4; i++) {
        c.add(
            pod("web-" + i)
                .label("app", WEB)
                .spreadConstraint(
                    s ->
                        s.maxSkew(1)
                            .topologyKey(ZONE)
                            .whenUnsatisfiable(whenUnsatisfiable)
                            .selectorIn("app", WEB))
                .obj());
      }
      c.run();

      assertThat(podsPerZone(c)).isEqualTo(Map.of("a", 2, "b", 2, "c", 2));
    }
  }

  @Test
  void aHardSpreadConstraintNeverExceedsMaxSkew() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      threeZones().forEach(c::add);
      for (int i = 0; i < 8; i++) {
        c.add(
            pod("web-" + i)
                .label("app", WEB)
                .spreadConstraint(s -> s.maxSkew(1).topologyKey(ZONE).selectorIn("app", WEB))
                .obj());
      }
      c.run();

      Map<String, Integer> zones = podsPerZone(c);
      assertThat(zones.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(8);
      assertThat(zones.values()).allSatisfy(n -> assertThat(n).isBetween(2, 3));
    }
  }

  @Test
  void aHardSpreadConstraintLeavesAPodPendingWhenOnlyTheFullZoneHasRoom() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(
          node("a1", "4", "8Gi").label(ZONE, "a"),
          node("b1", "1", "8Gi").label(ZONE, "b"));
      c.add(pod("old-0").label("app", WEB).req("cpu", "1").node("b1").obj());
      c.add(pod("old-1").label("app", WEB).node("a1").obj());
      c.add(pod("old-2").label("app", WEB).node("a1").obj());
      c.add(
          pod("p")
              .label("app", WEB)
              .req("cpu", "1")
              .spreadConstraint(s -> s.maxSkew(1).topologyKey(ZONE).selectorIn("app", WEB))
              .obj());
      c.run();

      String message =
          "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread"
              + " constraints. preemption: 0/2 nodes are available: 2 No preemption victims found"
              + " for incoming pod.";
      assertThat(c.nodeOf("p")).isNull();
      assertThat(c.distinctEvents("p")).containsExactly(failed(message));
    }
  }

  @Test
  void requiredAntiAffinityOnHostnamePutsOneReplicaPerNodeAndLeavesTheExtraPending() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "4", "8Gi"), node("n2", "4", "8Gi"), node("n3", "4", "8Gi"));
      for (int i = 0; i < 4; i++) {
        c.add(pod("web-" + i).label("app", WEB).podAntiAffinity(HOSTNAME, "app", WEB).obj());
      }
      c.run();

      assertThat(c.countsByNode()).isEqualTo(Map.of("n1", 1, "n2", 1, "n3", 1));
      List<String> pending =
          c.placements().entrySet().stream().filter(e -> e.getValue().isEmpty()).map(Map.Entry::getKey).toList();
      assertThat(pending).hasSize(1);
      String message =
          "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption:"
              + " 0/3 nodes are available: 3 No preemption victims found for incoming pod.";
      assertThat(c.podScheduled(pending.get(0))).containsExactly("False", "Unschedulable", message);
      assertThat(c.distinctEvents(pending.get(0))).containsExactly(failed(message));
    }
  }

  @Test
  void requiredPodAffinityCoLocatesWithTheMatchingPod() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "4", "8Gi"), node("n2", "4", "8Gi"), node("n3", "4", "8Gi"));
      c.add(pod("cache").label("app", "cache").node("n2").obj());
      c.add(pod("web").podAffinity(HOSTNAME, "app", "cache").obj());
      c.run();

      assertThat(c.nodeOf("web")).isEqualTo("n2");
      assertThat(c.events("web")).containsExactly(scheduled("web", "n2"));
    }
  }

  static Stream<Arguments> steering() {
    return Stream.of(
        argumentSet(
            "a nodeSelector",
            pod("p").nodeSelector(Map.of("disk", "ssd")).obj(),
            "n3"),
        argumentSet(
            "required node affinity (In)",
            pod("p").nodeAffinityIn(ZONE, "b").obj(),
            "n2"),
        argumentSet(
            "required node affinity (NotIn) and the other nodes' taint",
            pod("p").nodeAffinityNotIn(ZONE, "a", "b").obj(),
            "n3"),
        argumentSet(
            "a toleration of the tainted node and a selector of its label",
            pod("p").toleration("dedicated", "gpu", "NoSchedule").nodeSelector(Map.of("gpu", "true")).obj(),
            "n1"),
        argumentSet(
            "preferred node affinity",
            pod("p").preferredNodeAffinity(50, ZONE, "c").obj(),
            "n3"));
  }

  @ParameterizedTest
  @MethodSource("steering")
  void nodeAffinitySelectorsAndTaintsSteerThePod(V1Pod pod, String expectedNode) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(
          node("n1", "4", "8Gi").label(ZONE, "a").label("gpu", "true").taint("dedicated", "gpu", "NoSchedule"),
          node("n2", "4", "8Gi").label(ZONE, "b"),
          node("n3", "4", "8Gi").label(ZONE, "c").label("disk", "ssd"));
      c.add(pod).run();

      assertThat(c.nodeOf("p")).isEqualTo(expectedNode);
      assertThat(c.events("p")).containsExactly(scheduled("p", expectedNode));
      assertThat(c.podScheduled("p")).containsExactly("True", null, null);
    }
  }

  @Test
  void aTaintedNodeIsAvoidedByPodsThatDoNotTolerateIt() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(
          node("n1", "4", "8Gi").taint("dedicated", "gpu", "NoSchedule"),
          node("n2", "1", "8Gi"));
      c.add(
          pod("tolerant").priority(3).req("cpu", "1").toleration("dedicated", "gpu", "NoSchedule").obj());
      c.add(pod("filler").priority(2).req("cpu", "1").obj());
      c.add(pod("intolerant").priority(1).req("cpu", "1").obj());
      c.run();

      assertThat(c.placements())
          .isEqualTo(map("tolerant", "n1", "filler", "n2", "intolerant", ""));
      assertThat(c.distinctEvents("intolerant"))
          .containsExactly(
              failed(
                  "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint"
                      + " {dedicated: gpu}. preemption: 0/2 nodes are available: 1 No preemption"
                      + " victims found for incoming pod, 1 Preemption is not helpful for"
                      + " scheduling."));
    }
  }

  @Test
  void higherPriorityPodsAreScheduledFirst() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "2", "8Gi"));
      c.add(
          pod("low").priority(1).req("cpu", "1").obj(),
          pod("high").priority(100).req("cpu", "1").obj(),
          pod("mid").priority(50).req("cpu", "1").obj());
      c.run();

      assertThat(c.placements()).isEqualTo(map("low", "", "high", "n1", "mid", "n1"));
      assertThat(c.api.events().stream().map(E2eCluster::format).distinct().toList())
          .containsExactly(
              scheduled("high", "n1"),
              scheduled("mid", "n1"),
              failed(
                  "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are"
                      + " available: 1 No preemption victims found for incoming pod."));
    }
  }

  @Test
  void withoutNodesThePodGetsNoNodesAvailable() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(pod("p").obj()).run();

      String message = "no nodes available to schedule pods";
      assertThat(c.podScheduled("p")).containsExactly("False", "Unschedulable", message);
      assertThat(c.distinctEvents("p")).containsExactly(failed(message));
      java.time.Instant added = c.time.now();

      c.add(node("n1", "1", "1Gi")).run();

      assertThat(c.nodeOf("p")).isEqualTo("n1");
      assertThat(c.api.eventsFor("Pod", "default", "p").get(c.events("p").size() - 1).timestamp())
          .isBefore(added.plusSeconds(11));
    }
  }

  @Test
  void manyReplicasFillTheClusterEvenly() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "4", "8Gi"), node("n2", "4", "8Gi"), node("n3", "4", "8Gi"));
      IntStream.range(0, 12).forEach(i -> c.add(pod("r-" + i).priority(1).req("cpu", "1", "memory", "1Gi").obj()));
      c.add(pod("extra").req("cpu", "1", "memory", "1Gi").obj());
      c.run();

      assertThat(c.countsByNode()).isEqualTo(Map.of("n1", 4, "n2", 4, "n3", 4));
      assertThat(c.distinctEvents("extra"))
          .containsExactly(
              failed(
                  "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are"
                      + " available: 3 No preemption victims found for incoming pod."));
    }
  }

  static Stream<Arguments> fitting() {
    return Stream.of(
        argumentSet(
            "the same host port over another protocol does not conflict",
            List.of(node("n1", "4", "8Gi")),
            List.of(pod("a").hostPort("", "UDP", 53).node("n1").obj()),
            pod("p").hostPort("", "TCP", 53).obj(),
            "n1"),
        argumentSet(
            "the same host port on another host IP does not conflict",
            List.of(node("n1", "4", "8Gi")),
            List.of(pod("a").hostPort("10.0.0.1", "TCP", 8080).node("n1").obj()),
            pod("p").hostPort("10.0.0.2", "TCP", 8080).obj(),
            "n1"),
        argumentSet(
            "a cordoned node accepts a pod tolerating the unschedulable taint",
            List.of(node("n1", "4", "8Gi").unschedulable(true)),
            List.of(),
            pod("p").tolerationExists("node.kubernetes.io/unschedulable", "NoSchedule").obj(),
            "n1"),
        argumentSet(
            "the first pod of a group may satisfy its own required affinity",
            List.of(
                node("n1", "4", "8Gi").label(ZONE, "a"), node("n2", "4", "8Gi").label(ZONE, "b")),
            List.of(),
            pod("p").label("app", "db").podAffinity(ZONE, "app", "db").obj(),
            null),
        argumentSet(
            "preferred pod affinity pulls towards the matching pod",
            List.of(node("n1", "4", "8Gi"), node("n2", "4", "8Gi"), node("n3", "4", "8Gi")),
            List.of(pod("cache").label("app", "cache").node("n3").obj()),
            pod("p").preferredPodAffinity(100, HOSTNAME, "app", "cache").obj(),
            "n3"),
        argumentSet(
            "preferred anti-affinity pushes away from the matching pods",
            List.of(node("n1", "4", "8Gi"), node("n2", "4", "8Gi"), node("n3", "4", "8Gi")),
            List.of(
                pod("w1").label("app", "web").node("n1").obj(),
                pod("w3").label("app", "web").node("n3").obj()),
            pod("p").preferredPodAntiAffinity(100, HOSTNAME, "app", "web").obj(),
            "n2"),
        argumentSet(
            "nodeAffinityPolicy Honor (the default) ignores the zone the pod cannot go to",
            FailedSchedulingE2eTest.zonesAbc(),
            List.of(
                pod("w1").label("app", "web").node("a1").obj(),
                pod("w2").label("app", "web").node("b1").obj()),
            pod("p")
                .label("app", "web")
                .nodeAffinityIn(ZONE, "a", "b")
                .spreadConstraint(s -> s.maxSkew(1).topologyKey(ZONE).selectorIn("app", "web"))
                .obj(),
            null),
        argumentSet(
            "nodeTaintsPolicy Honor ignores the tainted zone",
            FailedSchedulingE2eTest.zonesAbc("c1"),
            List.of(
                pod("w1").label("app", "web").node("a1").obj(),
                pod("w2").label("app", "web").node("b1").obj()),
            pod("p")
                .label("app", "web")
                .spreadConstraint(
                    s ->
                        s.maxSkew(1)
                            .topologyKey(ZONE)
                            .selectorIn("app", "web")
                            .nodeTaintsPolicy("Honor"))
                .obj(),
            null),
        argumentSet(
            "matchLabelKeys keeps the old revision's pods out of the count",
            List.of(
                node("a1", "4", "8Gi").label(ZONE, "a"),
                node("b1", "1", "8Gi").label(ZONE, "b"),
                node("c1", "1", "8Gi").label(ZONE, "c")),
            List.of(
                pod("old-1").label("app", "web").label("pod-template-hash", "v1").node("a1").obj(),
                pod("old-2").label("app", "web").label("pod-template-hash", "v1").node("a1").obj(),
                pod("fill-b").req("cpu", "1").node("b1").obj(),
                pod("fill-c").req("cpu", "1").node("c1").obj()),
            pod("p")
                .label("app", "web")
                .label("pod-template-hash", "v2")
                .req("cpu", "1")
                .spreadConstraint(
                    s ->
                        s.maxSkew(1)
                            .topologyKey(ZONE)
                            .selectorIn("app", "web")
                            .matchLabelKeys("pod-template-hash"))
                .obj(),
            "a1"),
        argumentSet(
            "an existing pod's required anti-affinity in another zone does not matter",
            List.of(
                node("n1", "4", "8Gi").label(ZONE, "a"), node("n2", "1", "8Gi").label(ZONE, "b")),
            List.of(pod("db").label("app", "db").podAntiAffinity(ZONE, "app", "web").node("n1").obj()),
            pod("p").label("app", "web").obj(),
            "n2"));
  }

  @ParameterizedTest
  @MethodSource("fitting")
  void thePodIsBound(List<MakeNode> nodes, List<V1Pod> bound, V1Pod pod, String expected) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      nodes.forEach(c::add);
      bound.forEach(c::add);
      c.add(pod).run();

      String node = c.nodeOf("p");
      assertThat(node).isNotNull();
      if (expected != null) {
        assertThat(node).isEqualTo(expected);
      }
      assertThat(c.events("p")).containsExactly(scheduled("p", node));
    }
  }

  @Test
  void aPodWithANodeNameIsLeftToTheKubelet() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi"));
      c.add(pod("p").req("cpu", "4").node("n1").obj()).run();

      assertThat(c.nodeOf("p")).isEqualTo("n1");
      assertThat(c.events("p")).isEmpty();
      assertThat(c.podScheduled("p")).isNull();
    }
  }

  @Test
  void priorityClassNamesOrderTheQueue() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.api.create(
          new io.kubernetes.client.openapi.models.V1PriorityClass()
              .metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().name("critical"))
              .value(1000));
      c.api.create(
          new io.kubernetes.client.openapi.models.V1PriorityClass()
              .metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().name("batch"))
              .value(10)
              .preemptionPolicy("Never"));
      c.add(node("n1", "1", "8Gi"));
      c.add(
          MakePod.pod().name("job").priorityClassName("batch").req("cpu", "1").obj(),
          MakePod.pod().name("api").priorityClassName("critical").req("cpu", "1").obj());
      c.run();

      assertThat(c.placements()).isEqualTo(map("job", "", "api", "n1"));
      assertThat(c.pod("job").getSpec().getPriority()).isEqualTo(10);
      assertThat(c.distinctEvents("job"))
          .containsExactly(
              failed(
                  "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to"
                      + " preemptionPolicy=Never."));
    }
  }

  static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  static Stream<Arguments> namespaces() {
    return Stream.of(
        argumentSet("anti-affinity applies to the pod's own namespace by default", null, "n1"),
        argumentSet(
            "an empty namespaceSelector extends anti-affinity to every namespace",
            new V1LabelSelector(),
            null),
        argumentSet(
            "a namespaceSelector matching the other namespace's labels",
            new V1LabelSelector().matchLabels(Map.of("team", "a")),
            null),
        argumentSet(
            "a namespaceSelector matching no namespace",
            new V1LabelSelector().matchLabels(Map.of("team", "z")),
            "n1"));
  }

  @ParameterizedTest
  @MethodSource("namespaces")
  void antiAffinityNamespaceScope(V1LabelSelector namespaceSelector, String expected) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.api.create(
          new V1Namespace().metadata(new V1ObjectMeta().name("team-a").putLabelsItem("team", "a")));
      c.api.create(
          new V1Namespace().metadata(new V1ObjectMeta().name("team-b").putLabelsItem("team", "b")));
      c.add(node("n1", "4", "8Gi"));
      c.add(MakePod.pod().name("w").namespace("team-a").label("app", "web").node("n1").obj());
      V1PodAffinityTerm term =
          new V1PodAffinityTerm()
              .topologyKey(HOSTNAME)
              .labelSelector(new V1LabelSelector().matchLabels(Map.of("app", "web")))
              .namespaceSelector(namespaceSelector);
      c.add(
          MakePod.pod()
              .name("p")
              .namespace("team-b")
              .label("app", "web")
              .affinity(
                  new V1Affinity()
                      .podAntiAffinity(
                          new V1PodAntiAffinity()
                              .addRequiredDuringSchedulingIgnoredDuringExecutionItem(term)))
              .obj());
      c.run();

      assertThat(c.api.getPod("team-b", "p").orElseThrow().getSpec().getNodeName())
          .isEqualTo(expected);
    }
  }

  @Test
  void oneReplicaPerNodeOnAHundredAndFiftyNodes() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      for (int i = 0; i < 150; i++) {
        c.add(node(String.format("n%03d", i), "4", "8Gi").label(ZONE, "z" + (i % 3)));
      }
      for (int i = 0; i < 151; i++) {
        c.add(pod("web-" + i).priority(i == 150 ? 0 : 1).label("app", WEB)
            .podAntiAffinity(HOSTNAME, "app", WEB).obj());
      }
      c.run();

      assertThat(c.countsByNode().values()).hasSize(150).containsOnly(1);
      assertThat(c.distinctEvents("web-150"))
          .containsExactly(
              failed(
                  "0/150 nodes are available: 150 node(s) didn't match pod anti-affinity rules."
                      + " preemption: 0/150 nodes are available: 150 No preemption victims found"
                      + " for incoming pod."));
    }
  }
}
