package io.kubesched.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.ImageStateSummary;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class FrameworkHarnessTest {
  private final PodInfo pod = MakePod.pod().name("p").req("cpu", "1").info();

  private static MakeNode node(String name) {
    return MakeNode.node().name(name).capacity("cpu", "4");
  }

  private FrameworkHarness.Builder threeNodes() {
    return FrameworkHarness.builder().nodes(node("n1").obj(), node("n2").obj(), node("n3").obj());
  }

  @Test
  void filterStatusesCarryThePluginAndScoresAreWeighted() {
    CountingPlugin counter = new CountingPlugin("Counter", 7);
    FakeFilterPlugin failing =
        FakeFilterPlugin.failing(
            Map.of(
                "n2", Status.Code.UNSCHEDULABLE, "n3", Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));

    FrameworkHarness.Result r =
        threeNodes()
            .plugin(new TrueFilterPlugin())
            .plugin(failing)
            .plugin(counter, 2)
            .build()
            .run(pod);

    assertThat(r.preFilterStatus()).isEqualTo(Status.success());
    assertThat(r.filterStatuses())
        .containsExactly(
            Map.entry("n1", Status.success()),
            Map.entry(
                "n2", Status.unschedulable("injecting failure for pod p").withPlugin("FakeFilter")),
            Map.entry(
                "n3", Status.unresolvable("injecting failure for pod p").withPlugin("FakeFilter")));
    assertThat(r.feasibleNodes()).containsExactly("n1");
    assertThat(r.preScoreStatus()).isEqualTo(Status.success());
    assertThat(r.scoreStatus()).isEqualTo(Status.success());
    assertThat(r.scores()).isEqualTo(Map.of("Counter", List.of(new NodeScore("n1", 7))));
    assertThat(r.totalScores()).containsExactly(new NodeScore("n1", 14));
    assertThat(counter.calls(CountingPlugin.Point.PRE_FILTER)).isEqualTo(1);
    assertThat(counter.calls(CountingPlugin.Point.FILTER)).isEqualTo(1);
    assertThat(counter.calls(CountingPlugin.Point.NORMALIZE_SCORE)).isEqualTo(1);
    assertThat(counter.calls(CountingPlugin.Point.PERMIT)).isZero();
  }

  @Test
  void nodesOutsideThePreFilterSetAreUnresolvable() {
    TrueFilterPlugin filter = new TrueFilterPlugin();

    FrameworkHarness.Result r =
        threeNodes()
            .plugin(new FakePreFilterPlugin(PreFilterResult.nodes(Set.of("n2"))))
            .plugin(filter)
            .build()
            .run(pod);

    Status outside = Status.unresolvable("node(s) didn't satisfy plugin(s) [FakePreFilter]");
    assertThat(r.filterStatuses())
        .containsExactly(
            Map.entry("n1", outside), Map.entry("n2", Status.success()), Map.entry("n3", outside));
    assertThat(filter.calls()).isEqualTo(1);
    assertThat(r.scores()).isEmpty();
  }

  @Test
  void aPreFilterRejectionIsEveryNodesStatus() {
    TrueFilterPlugin filter = new TrueFilterPlugin();

    FrameworkHarness.Result r =
        threeNodes()
            .plugin(new FakePreFilterPlugin(PreFilterResult.of(Status.unschedulable("no"))))
            .plugin(filter)
            .build()
            .run(pod);

    Status want = Status.unschedulable("no").withPlugin("FakePreFilter");
    assertThat(r.preFilterStatus()).isEqualTo(want);
    assertThat(r.filterStatuses().values()).containsOnly(want).hasSize(3);
    assertThat(r.feasibleNodes()).isEmpty();
    assertThat(filter.calls()).isZero();
  }

  /** Scores 10 per pod on the node, then normalises so the emptiest node gets 100. */
  static final class FewestPods implements ScorePlugin, ScoreExtensions {
    @Override
    public String name() {
      return "FewestPods";
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      return node.pods().size() * 10L;
    }

    @Override
    public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
      long max = scores.max();
      for (int i = 0; i < scores.size(); i++) {
        scores.set(i, max == 0 ? 100 : 100 - scores.score(i) * 100 / max);
      }
      return Status.success();
    }
  }

  @Test
  void scorePluginsSeeTheSnapshotPodsAndAreNormalised() {
    FrameworkHarness h =
        threeNodes()
            .plugin(new FewestPods(), 3)
            .pods(
                MakePod.pod().name("a").node("n1").obj(),
                MakePod.pod().name("b").node("n1").obj(),
                MakePod.pod().name("c").node("n2").obj())
            .build();

    FrameworkHarness.Result r = h.run(pod);

    assertThat(r.scores("FewestPods"))
        .containsExactly(new NodeScore("n1", 0), new NodeScore("n2", 50), new NodeScore("n3", 100));
    assertThat(r.totalScores())
        .containsExactly(
            new NodeScore("n1", 0), new NodeScore("n2", 150), new NodeScore("n3", 300));
    assertThat(h.snapshot().get("n1").pods()).hasSize(2);
  }

  record FixedArgs(long score) implements PluginArgs {}

  /** A provider whose plugin reads its args and the handle's clock. */
  static final class FixedProvider implements PluginProvider<FixedArgs> {
    @Override
    public String name() {
      return "Fixed";
    }

    @Override
    public Class<FixedArgs> argsType() {
      return FixedArgs.class;
    }

    @Override
    public FixedArgs defaultArgs() {
      return new FixedArgs(1);
    }

    @Override
    public Class<? extends Plugin> pluginType() {
      return ScorePlugin.class;
    }

    @Override
    public Plugin create(FixedArgs args, FrameworkHandle handle) {
      long epochSeconds = handle.clock().instant().getEpochSecond();
      return new ScorePlugin() {
        @Override
        public String name() {
          return "Fixed";
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
          return args.score() + epochSeconds;
        }
      };
    }
  }

  @Test
  void providersGetTheirArgsAndTheHandle() {
    FrameworkHarness.Result r =
        FrameworkHarness.builder()
            .nodes(node("n1").obj())
            .provider(new FixedProvider(), new FixedArgs(42), 1)
            .clock(FakeClock.at(java.time.Instant.ofEpochSecond(8)))
            .build()
            .run(pod);

    assertThat(r.scores("Fixed")).containsExactly(new NodeScore("n1", 50));
  }

  @Test
  void nodesCarryClusterWideImageStates() {
    FrameworkHarness h =
        FrameworkHarness.builder()
            .nodes(
                node("n1").image(300, "nginx:1.25", "docker.io/library/nginx:1.25").obj(),
                node("n2").image(300, "nginx:1.25").image(50, "busybox:1").obj())
            .build();

    assertThat(h.snapshot().get("n1").imageStates())
        .isEqualTo(
            Map.of(
                "nginx:1.25", new ImageStateSummary(300, 2),
                "docker.io/library/nginx:1.25", new ImageStateSummary(300, 1)));
    assertThat(h.snapshot().get("n2").imageStates())
        .isEqualTo(
            Map.of(
                "nginx:1.25", new ImageStateSummary(300, 2),
                "busybox:1", new ImageStateSummary(50, 1)));
  }

  /** Rejects a node that already holds a pod (a stand-in for a resource fit check). */
  static final class OnePodPerNode implements io.kubesched.framework.FilterPlugin {
    @Override
    public String name() {
      return "OnePodPerNode";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return node.pods().isEmpty() ? Status.success() : Status.unschedulable("node is taken");
    }
  }

  @Test
  void nominatedPodsOfEqualOrHigherPriorityTakeTheirNode() {
    FrameworkHarness h =
        threeNodes()
            .plugin(new OnePodPerNode())
            .nominatedPods(
                MakePod.pod().name("high").priority(10).nominatedNode("n1").obj(),
                MakePod.pod().name("low").priority(-1).nominatedNode("n2").obj())
            .build();

    FrameworkHarness.Result r = h.run(MakePod.pod().name("p").priority(0).info());

    assertThat(r.filterStatuses())
        .containsExactly(
            Map.entry("n1", Status.unschedulable("node is taken").withPlugin("OnePodPerNode")),
            Map.entry("n2", Status.success()),
            Map.entry("n3", Status.success()));
    assertThat(h.snapshot().get("n1").pods()).isEmpty();
  }

  @Test
  void misconfigurationsFailWithClearMessages() {
    assertThatThrownBy(() -> threeNodes().pods(MakePod.pod().name("x").node("n9").obj()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("default/x")
        .hasMessageContaining("n9");
    assertThatThrownBy(
            () ->
                threeNodes()
                    .nominatedPods(MakePod.pod().name("y").nominatedNode("n7").obj())
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("default/y")
        .hasMessageContaining("n7");
    assertThatThrownBy(
            () -> threeNodes().plugin(new TrueFilterPlugin()).plugin(new TrueFilterPlugin()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TrueFilter");
  }
}
