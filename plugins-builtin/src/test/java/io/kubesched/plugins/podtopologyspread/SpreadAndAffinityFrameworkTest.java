package io.kubesched.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.Status;
import io.kubesched.plugins.interpodaffinity.InterPodAffinity;
import io.kubesched.plugins.interpodaffinity.InterPodAffinityArgs;
import io.kubesched.plugins.interpodaffinity.InterPodAffinityProvider;
import io.kubesched.testing.FrameworkHarness;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PodTopologySpread and InterPodAffinity run through a real framework: statuses carry the plugin
 * name, nominated pods reach the plugins through AddPod on a cloned state, scores are weighted.
 */
final class SpreadAndAffinityFrameworkTest {
  static final List<V1Node> NODES =
      List.of(
          MakeNode.node().name("node-a").label("node", "node-a").label("zone", "z1").obj(),
          MakeNode.node().name("node-b").label("node", "node-b").label("zone", "z1").obj(),
          MakeNode.node().name("node-c").label("node", "node-c").label("zone", "z2").obj());

  static FrameworkHarness.Builder harness() {
    return FrameworkHarness.builder()
        .provider(new PodTopologySpreadProvider(), new PodTopologySpreadArgs(List.of(), "List"), 2)
        .provider(new InterPodAffinityProvider(), InterPodAffinityArgs.defaults(), 2)
        .nodes(NODES);
  }

  @Test
  void nominatedPodsCountTowardsSkewAndAntiAffinity() {
    FrameworkHarness.Result r =
        harness()
            .pods(MakePod.pod().name("e1").node("node-a").label("foo", "").obj())
            .nominatedPods(
                MakePod.pod().name("n1").nominatedNode("node-b").label("foo", "").obj(),
                MakePod.pod().name("n2").nominatedNode("node-c").label("bar", "").obj())
            .build()
            .run(
                MakePod.pod()
                    .name("p")
                    .label("foo", "")
                    .spreadConstraint(s -> s.maxSkew(1).topologyKey("node").selectorExists("foo"))
                    .podAntiAffinityExists("node", "bar")
                    .obj());

    assertThat(r.filterStatuses())
        .isEqualTo(
            Map.of(
                "node-a",
                Status.unschedulable(PodTopologySpread.REASON_CONSTRAINTS_NOT_MATCH)
                    .withPlugin(PodTopologySpread.NAME),
                "node-b",
                Status.unschedulable(PodTopologySpread.REASON_CONSTRAINTS_NOT_MATCH)
                    .withPlugin(PodTopologySpread.NAME),
                "node-c",
                Status.unschedulable(InterPodAffinity.REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
                    .withPlugin(InterPodAffinity.NAME)));
  }

  @Test
  void softConstraintsAndPreferredAffinityAreScoredAndWeighted() {
    FrameworkHarness.Result r =
        harness()
            .pods(
                MakePod.pod().name("e1").node("node-a").label("foo", "").obj(),
                MakePod.pod().name("e2").node("node-b").label("foo", "").obj(),
                MakePod.pod().name("e3").node("node-c").label("db", "").obj())
            .build()
            .run(
                MakePod.pod()
                    .name("p")
                    .label("foo", "")
                    .spreadConstraint(
                        s ->
                            s.maxSkew(1)
                                .topologyKey("zone")
                                .whenUnsatisfiable("ScheduleAnyway")
                                .selectorExists("foo"))
                    .preferredPodAffinity(10, "zone", "db", "")
                    .obj());

    assertThat(r.feasibleNodes()).containsExactly("node-a", "node-b", "node-c");
    // zone z1 holds 2 matching pods, z2 none: raw 2*ln(4)=2.77 -> 3 and 0; normalised 0 / 100.
    assertThat(r.scores(PodTopologySpread.NAME))
        .containsExactly(
            new NodeScore("node-a", 0), new NodeScore("node-b", 0), new NodeScore("node-c", 100));
    assertThat(r.scores(InterPodAffinity.NAME))
        .containsExactly(
            new NodeScore("node-a", 0), new NodeScore("node-b", 0), new NodeScore("node-c", 100));
    assertThat(r.totalScores())
        .containsExactly(
            new NodeScore("node-a", 0), new NodeScore("node-b", 0), new NodeScore("node-c", 400));
  }
}
