package io.kubesched.e2e;

import static io.kubesched.e2e.E2eCluster.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's integration test {@code TestPodTopologySpreadFilter}
 * (test/integration/scheduler/filters) through the whole engine: where a pod with hard spread
 * constraints may land, with NodeInclusionPolicy and matchLabelKeys on as in v1.33.
 */
final class PodTopologySpreadE2eTest {
  private static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

  /** node-0..3 with labels node=&lt;name&gt; and zone=zone-0 (0, 1) or zone-1 (2, 3). */
  private static List<MakeNode> defaultNodes() {
    return List.of(
        labelled("node-0", "zone-0"),
        labelled("node-1", "zone-0"),
        labelled("node-2", "zone-1"),
        labelled("node-3", "zone-1"));
  }

  /** node-1..4: node-1/2 in zone-1 and node-3/4 in zone-2; all but node-3 labelled foo="". */
  private static List<MakeNode> inclusionNodes(String tainted) {
    return Stream.of("node-1", "node-2", "node-3", "node-4")
        .map(
            n -> {
              MakeNode m = labelled(n, n.compareTo("node-3") < 0 ? "zone-1" : "zone-2");
              if (!n.equals("node-3")) {
                m.label("foo", "");
              }
              if (n.equals(tainted)) {
                m.taint(UNSCHEDULABLE_TAINT, "", "NoSchedule");
              }
              return m;
            })
        .toList();
  }

  private static MakeNode labelled(String name, String zone) {
    return node(name, "4", "8Gi").label("node", name).label("zone", zone);
  }

  private static V1Pod existing(String name, String node, String... extraLabels) {
    MakePod p = MakePod.pod().name(name).label("foo", "").container(MakePod.PAUSE_IMAGE).node(node);
    for (String l : extraLabels) {
      p.label(l, "");
    }
    return p.obj();
  }

  private static MakePod incoming() {
    return MakePod.pod().name("p").label("foo", "").container(MakePod.PAUSE_IMAGE);
  }

  private static Consumer<MakePod.Spread> hard(int maxSkew, String key) {
    return s -> s.maxSkew(maxSkew).topologyKey(key).selectorExists("foo");
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "place pod on a 1/1/0/1 cluster with MaxSkew=1, node-2 is the only fit",
            defaultNodes(),
            List.of(existing("p0", "node-0"), existing("p1", "node-1"), existing("p3", "node-3")),
            incoming().spreadConstraint(hard(1, "node")).obj(),
            List.of("node-2")),
        argumentSet(
            "place pod on a 2/0/0/1 cluster with MaxSkew=2, node-{1,2,3} are good fits",
            defaultNodes(),
            List.of(existing("p0a", "node-0"), existing("p0b", "node-0"), existing("p3", "node-3")),
            incoming().spreadConstraint(hard(2, "node")).obj(),
            List.of("node-1", "node-2", "node-3")),
        argumentSet(
            "pod is required to be placed on zone0, so only node-1 fits",
            defaultNodes(),
            List.of(existing("p0", "node-0"), existing("p3", "node-3")),
            incoming().nodeAffinityIn("zone", "zone-0").spreadConstraint(hard(1, "node")).obj(),
            List.of("node-1")),
        argumentSet(
            "two constraints: pod can only be placed to zone-1/node-2",
            defaultNodes(),
            List.of(
                existing("p0", "node-0"),
                existing("p1", "node-1"),
                existing("p3a", "node-3"),
                existing("p3b", "node-3")),
            incoming().spreadConstraint(hard(1, "zone")).spreadConstraint(hard(1, "node")).obj(),
            List.of("node-2")),
        argumentSet(
            "pod cannot be placed onto any node",
            defaultNodes(),
            List.of(
                existing("p1a", "node-1"),
                existing("p1b", "node-1"),
                existing("p2a", "node-2"),
                existing("p2b", "node-2"),
                existing("p3", "node-3")),
            incoming()
                .nodeAffinityNotIn("node", "node-0")
                .spreadConstraint(hard(1, "zone"))
                .spreadConstraint(hard(1, "node"))
                .obj(),
            List.of()),
        argumentSet(
            "high priority pod can preempt others",
            defaultNodes(),
            List.of(
                existing("p1a", "node-1"),
                existing("p1b", "node-1"),
                existing("p2a", "node-2"),
                existing("p2b", "node-2"),
                existing("p3", "node-3")),
            incoming()
                .priority(100)
                .nodeAffinityNotIn("node", "node-0")
                .spreadConstraint(hard(1, "zone"))
                .spreadConstraint(hard(1, "node"))
                .obj(),
            List.of("node-1", "node-2", "node-3")),
        argumentSet(
            "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains <"
                + " minDomains, then the third node fits",
            defaultNodes(),
            List.of(
                existing("p1a", "node-1"),
                existing("p1b", "node-1"),
                existing("p2a", "node-2"),
                existing("p2b", "node-2"),
                existing("p3", "node-3")),
            incoming()
                .nodeAffinityNotIn("node", "node-0")
                .spreadConstraint(s -> hard(2, "node").andThen(c -> c.minDomains(4)).accept(s))
                .obj(),
            List.of("node-3")),
        argumentSet(
            "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains >"
                + " minDomains, then the all nodes fit",
            defaultNodes(),
            List.of(
                existing("p1a", "node-1"),
                existing("p1b", "node-1"),
                existing("p2a", "node-2"),
                existing("p2b", "node-2"),
                existing("p3", "node-3")),
            incoming()
                .nodeAffinityNotIn("node", "node-0")
                .spreadConstraint(s -> hard(2, "node").andThen(c -> c.minDomains(2)).accept(s))
                .obj(),
            List.of("node-1", "node-2", "node-3")),
        argumentSet(
            "pods spread across zone as 2/1, maxSkew is 2 and the number of domains <"
                + " minDomains, then the third and fourth nodes fit",
            defaultNodes(),
            List.of(
                existing("p1a", "node-0"), existing("p2a", "node-1"), existing("p3a", "node-2")),
            incoming()
                .spreadConstraint(s -> hard(2, "zone").andThen(c -> c.minDomains(3)).accept(s))
                .obj(),
            List.of("node-2", "node-3")),
        argumentSet(
            "pods spread across zone as 2/1, maxSkew is 2 and the number of domains <"
                + " minDomains, then the all nodes fit",
            defaultNodes(),
            List.of(
                existing("p1a", "node-1"), existing("p2a", "node-2"), existing("p3a", "node-3")),
            incoming()
                .spreadConstraint(s -> hard(2, "zone").andThen(c -> c.minDomains(1)).accept(s))
                .obj(),
            List.of("node-0", "node-1", "node-2", "node-3")),
        argumentSet(
            "NodeAffinityPolicy honored with labelSelectors, pods spread across zone as 2/1",
            inclusionNodes(null),
            List.of(
                existing("p1a", "node-1"),
                existing("p2a", "node-2"),
                existing("p3a", "node-3"),
                existing("p4a", "node-4")),
            incoming().nodeSelector(Map.of("foo", "")).spreadConstraint(hard(1, "zone")).obj(),
            List.of("node-4")),
        argumentSet(
            "NodeAffinityPolicy ignored with nodeAffinity, pods spread across zone as 1/~2~",
            inclusionNodes(null),
            List.of(
                existing("p1a", "node-1"), existing("p3a", "node-3"), existing("p4a", "node-4")),
            incoming()
                .nodeAffinityIn("foo", "")
                .spreadConstraint(
                    s -> hard(1, "zone").andThen(c -> c.nodeAffinityPolicy("Ignore")).accept(s))
                .obj(),
            List.of("node-1", "node-2")),
        argumentSet(
            "NodeTaintsPolicy honored, pods spread across zone as 2/1",
            inclusionNodes("node-3"),
            List.of(
                existing("p1a", "node-1"),
                existing("p2a", "node-2"),
                existing("p3a", "node-3"),
                existing("p4a", "node-4")),
            incoming()
                .spreadConstraint(
                    s -> hard(1, "zone").andThen(c -> c.nodeTaintsPolicy("Honor")).accept(s))
                .obj(),
            List.of("node-4")),
        argumentSet(
            "NodeTaintsPolicy ignored, pods spread across zone as 2/2",
            inclusionNodes("node-3"),
            List.of(
                existing("p1a", "node-1"),
                existing("p2a", "node-2"),
                existing("p3a", "node-3"),
                existing("p4a", "node-4")),
            incoming().spreadConstraint(hard(1, "zone")).obj(),
            List.of("node-1", "node-2", "node-4")),
        argumentSet(
            "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
            inclusionNodes("node-2"),
            List.of(
                existing("p1a", "node-1"),
                existing("p2a", "node-2"),
                existing("p3a", "node-3"),
                existing("p4a", "node-4")),
            incoming()
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(hard(1, "zone"))
                .spreadConstraint(hard(1, "node"))
                .obj(),
            List.of("node-4")),
        argumentSet(
            "two node inclusion Constraints, zone: ignore/ignore, node: honor/honor",
            inclusionNodes("node-2"),
            List.of(
                existing("p1a", "node-1"),
                existing("p2a", "node-2"),
                existing("p3a", "node-3"),
                existing("p4a", "node-4")),
            incoming()
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(
                    s -> hard(1, "zone").andThen(c -> c.nodeAffinityPolicy("Ignore")).accept(s))
                .spreadConstraint(
                    s -> hard(1, "node").andThen(c -> c.nodeTaintsPolicy("Honor")).accept(s))
                .obj(),
            List.of("node-1", "node-4")),
        argumentSet(
            "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty, pods spread"
                + " across zone as 0/1",
            defaultNodes(),
            List.of(
                existing("p1a", "node-0"),
                existing("p2a", "node-1"),
                existing("p3a", "node-2", "bar")),
            incoming()
                .label("bar", "")
                .spreadConstraint(
                    s -> hard(1, "zone").andThen(c -> c.matchLabelKeys("bar")).accept(s))
                .obj(),
            List.of("node-0", "node-1")),
        argumentSet(
            "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty, pods spread"
                + " across zone as 2/1",
            defaultNodes(),
            List.of(
                existing("p1a", "node-0"), existing("p2a", "node-1"), existing("p3a", "node-2")),
            incoming()
                .spreadConstraint(
                    s ->
                        s.maxSkew(1)
                            .topologyKey("zone")
                            .selector(new V1LabelSelector())
                            .matchLabelKeys("foo"))
                .obj(),
            List.of("node-2", "node-3")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void theIncomingPodLandsOnACandidateNode(
      List<MakeNode> nodes, List<V1Pod> existing, V1Pod incoming, List<String> candidates) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      nodes.forEach(c::add);
      existing.forEach(c::add);
      c.add(incoming).run();

      if (candidates.isEmpty()) {
        assertThat(c.nodeOf("p")).isNull();
        assertThat(c.podScheduled("p").get(1)).isEqualTo("Unschedulable");
      } else {
        assertThat(c.nodeOf("p")).isIn(candidates);
      }
    }
  }
}
