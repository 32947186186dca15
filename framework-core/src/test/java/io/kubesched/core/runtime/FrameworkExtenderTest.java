package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.numberedNodes;
import static io.kubesched.core.runtime.Fixtures.pod;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** Extenders in the feasible-node search and in scoring (kube's extender handling). */
final class FrameworkExtenderTest {
  private final SchedulingAlgorithm algorithm = new SchedulingAlgorithm(new Random(3));

  /** A scripted extender. */
  private record Scripted(
      String name,
      boolean isFilter,
      boolean isPrioritizer,
      boolean isIgnorable,
      long weight,
      BiFunction<PodInfo, List<NodeInfo>, FilterResult> filterFn,
      BiFunction<PodInfo, List<NodeInfo>, Map<String, Long>> prioritizeFn)
      implements SchedulerExtender {
    @Override
    public boolean isInterested(PodInfo pod) {
      return true;
    }

    @Override
    public FilterResult filter(PodInfo pod, List<NodeInfo> nodes) {
      return filterFn.apply(pod, nodes);
    }

    @Override
    public Map<String, Long> prioritize(PodInfo pod, List<NodeInfo> nodes) {
      return prioritizeFn.apply(pod, nodes);
    }
  }

  private static SchedulerExtender rejecting(String node, boolean unresolvable) {
    return new Scripted(
        "filter-ext",
        true,
        false,
        false,
        1,
        (p, nodes) -> {
          List<NodeInfo> keep = new ArrayList<>(nodes);
          keep.removeIf(n -> n.name().equals(node));
          return new SchedulerExtender.FilterResult(
              keep,
              unresolvable ? Map.of() : Map.of(node, "extender says no"),
              unresolvable ? Map.of(node, "extender says never") : Map.of());
        },
        null);
  }

  private static Framework framework(List<SchedulerExtender> extenders, Plugin... plugins) {
    List<Plugin> all = new ArrayList<>(List.of(plugins));
    all.add(queueSort());
    all.add(binder());
    var pb = basePlugins();
    for (Plugin p : plugins) {
      if (p instanceof io.kubesched.framework.ScorePlugin) {
        pb.enable("score", p.name());
      }
    }
    return Framework.create(
        pb.profile(), 0, Fake.registry(all.toArray(new Plugin[0])), Fixtures.context(), extenders);
  }

  @Test
  void aFilterExtenderMakesTheSearchVisitEveryNodeAndRecordsItsRejections() {
    Framework f = framework(List.of(rejecting("node-1", false)));

    ScheduleResult r =
        algorithm.schedulePod(f, new CycleState(), pod("p"), new Fixtures.Lister(numberedNodes(3)));

    assertThat(List.of(r.feasibleNodes(), r.evaluatedNodes())).containsExactly(2, 3);
    assertThat(r.filterStatuses().get("node-1")).isEqualTo(Status.unschedulable("extender says no"));
  }

  @Test
  void anExtenderRejectingEveryNodeNamesTheExtenderPseudoPlugin() {
    Framework f =
        framework(
            List.of(
                new Scripted(
                    "all-out",
                    true,
                    false,
                    false,
                    1,
                    (p, nodes) ->
                        new SchedulerExtender.FilterResult(
                            List.of(), Map.of("node-0", "busy"), Map.of("node-1", "gone")),
                    null)));

    assertThatThrownBy(
            () ->
                algorithm.schedulePod(
                    f, new CycleState(), pod("p"), new Fixtures.Lister(numberedNodes(2))))
        .isInstanceOfSatisfying(
            FitError.class,
            e -> {
              assertThat(e.getMessage()).isEqualTo("0/2 nodes are available: 1 busy, 1 gone.");
              assertThat(e.diagnosis().unschedulablePlugins()).containsExactly("Extender");
              assertThat(e.diagnosis().nodeToStatus().get("node-1"))
                  .isEqualTo(Status.unresolvable("gone"));
            });
  }

  @Test
  void aFailingExtenderFailsTheCycleUnlessIgnorable() {
    BiFunction<PodInfo, List<NodeInfo>, SchedulerExtender.FilterResult> broken =
        (p, n) -> {
          throw new SchedulingException("connection refused");
        };
    Framework strict =
        framework(List.of(new Scripted("strict", true, false, false, 1, broken, null)));
    Framework lenient =
        framework(List.of(new Scripted("lenient", true, false, true, 1, broken, null)));
    var nodes = new Fixtures.Lister(numberedNodes(2));

    assertThatThrownBy(() -> algorithm.schedulePod(strict, new CycleState(), pod("p"), nodes))
        .hasMessage("connection refused");
    assertThat(algorithm.schedulePod(lenient, new CycleState(), pod("p"), nodes).feasibleNodes())
        .isEqualTo(2);
  }

  @Test
  void extenderScoresAreWeightedAndScaledFailuresIgnored() {
    Plugin score = Fake.plugin("S").score(n -> n.name().equals("node-0") ? 50L : 0L).build();
    SchedulerExtender prioritizer =
        new Scripted(
            "prio",
            false,
            true,
            false,
            2,
            null,
            (p, nodes) -> Map.of("node-0", 1L, "node-1", 3L));
    SchedulerExtender broken =
        new Scripted(
            "broken",
            false,
            true,
            false,
            5,
            null,
            (p, nodes) -> {
              throw new SchedulingException("timeout");
            });
    Framework f = framework(List.of(prioritizer, broken), score);

    ScheduleResult r =
        algorithm.schedulePod(f, new CycleState(), pod("p"), new Fixtures.Lister(numberedNodes(2)));

    assertThat(r.scores())
        .containsExactly(
            new NodePluginScores("node-0", Map.of("S", 50L, "prio", 20L), 70),
            new NodePluginScores("node-1", Map.of("S", 0L, "prio", 60L), 60));
    assertThat(r.suggestedHost()).isEqualTo("node-0");
  }

  @Test
  void aPrioritizerAloneScoresWithoutPlugins() {
    SchedulerExtender prioritizer =
        new Scripted("prio", false, true, false, 1, null, (p, nodes) -> Map.of("node-1", 10L));
    Framework f = framework(List.of(prioritizer));

    ScheduleResult r =
        algorithm.schedulePod(f, new CycleState(), pod("p"), new Fixtures.Lister(numberedNodes(3)));

    assertThat(r.feasibleNodes()).isEqualTo(3);
    assertThat(r.suggestedHost()).isEqualTo("node-1");
  }

  @Test
  void extendersRegisterThePseudoPluginForEveryEvent() {
    Framework f = framework(List.of(rejecting("x", false)));

    assertThat(f.enqueueExtensions()).containsKey("Extender");
    assertThat(f.enqueueExtensions().get("Extender")).hasSize(11);
  }
}
