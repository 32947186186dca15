package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.nominatedPod;
import static io.kubesched.core.runtime.Fixtures.numberedNodes;
import static io.kubesched.core.runtime.Fixtures.pod;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.core.config.Profile;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class FrameworkSchedulingAlgorithmTest {
  private final List<String> journal = Collections.synchronizedList(new ArrayList<>());
  private final SchedulingAlgorithm algorithm = new SchedulingAlgorithm(new Random(1));

  /** Ports kube's {@code TestNumFeasibleNodesToFind}. */
  static Stream<Arguments> feasibleCounts() {
    return Stream.of(
        argumentSet("nothing set, 10 nodes: all", null, 0, 10, 10),
        argumentSet("profile 40%, 10 nodes: all", 40, 0, 10, 10),
        argumentSet("nothing set, 1000 nodes: adaptive 42%", null, 0, 1000, 420),
        argumentSet("profile 40%, 1000 nodes", 40, 0, 1000, 400),
        argumentSet("global 40%, 1000 nodes", null, 40, 1000, 400),
        argumentSet("profile 50% overrides global 40%", 50, 40, 1000, 500),
        argumentSet("nothing set, 6000 nodes: adaptive floor 5%", null, 0, 6000, 300),
        argumentSet("profile 40%, 6000 nodes", 40, 0, 6000, 2400),
        argumentSet("never fewer than 100", 1, 0, 1000, 100),
        argumentSet("99 nodes: all", 1, 0, 99, 99),
        argumentSet("100 nodes, adaptive: 100", null, 0, 100, 100));
  }

  @ParameterizedTest
  @MethodSource("feasibleCounts")
  void findsKubesNumberOfFeasibleNodes(
      Integer profilePercentage, int globalPercentage, int numAllNodes, int expected) {
    assertThat(
            SchedulingAlgorithm.numFeasibleNodesToFind(
                profilePercentage, globalPercentage, numAllNodes))
        .isEqualTo(expected);
  }

  private Framework framework(Profile profile, Plugin... plugins) {
    List<Plugin> all = new ArrayList<>(List.of(plugins));
    all.add(queueSort());
    all.add(binder());
    return Framework.create(
        profile, 0, Fake.registry(all.toArray(new Plugin[0])), Fixtures.context());
  }

  private Plugin filter(Function<NodeInfo, Status> f) {
    return Fake.plugin("F")
        .filterCall(
            a -> {
              journal.add("F@" + ((NodeInfo) a[2]).name());
              return f.apply((NodeInfo) a[2]);
            })
        .build();
  }

  private Plugin scoreByNumber() {
    return Fake.plugin("S").score(n -> Long.parseLong(n.name().substring(5)) % 100).build();
  }

  private ScheduleResult schedule(Framework f, PodInfo p, List<NodeInfo> nodes) {
    return algorithm.schedulePod(f, new CycleState(), p, new Fixtures.Lister(nodes));
  }

  @Test
  void withoutScoringTheSearchStopsAtTheFirstFeasibleNodeAndRotates() {
    Framework f = framework(basePlugins().enable("filter", "F").profile(), filter(n -> Status.success()));
    List<NodeInfo> nodes = numberedNodes(5);

    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      hosts.add(schedule(f, pod("p" + i), nodes).suggestedHost());
    }

    assertThat(hosts).containsExactly("node-0", "node-1", "node-2");
    assertThat(algorithm.nextStartNodeIndex()).isEqualTo(3);
  }

  @Test
  void rejectedNodesCountAsProcessedForTheRotation() {
    Framework f =
        framework(
            basePlugins().enable("filter", "F").profile(),
            filter(n -> n.name().equals("node-0") ? Status.unschedulable("no") : Status.success()));

    ScheduleResult r = schedule(f, pod("p"), numberedNodes(5));

    assertThat(List.of(r.suggestedHost(), r.evaluatedNodes(), r.feasibleNodes()))
        .containsExactly("node-1", 2, 1);
    assertThat(journal).containsExactly("F@node-0", "F@node-1", "F@node-2");
    assertThat(algorithm.nextStartNodeIndex()).isEqualTo(2);
  }

  @Test
  void withScoringOnLargeClustersOnlyEnoughNodesAreFiltered() {
    Framework f =
        framework(
            basePlugins().enable("filter", "F").enable("score", "S").profile(),
            filter(n -> Status.success()),
            scoreByNumber());
    List<NodeInfo> nodes = numberedNodes(150);
    algorithm.setNextStartNodeIndex(120);

    ScheduleResult r = schedule(f, pod("p"), nodes);

    // 100 feasible nodes from index 120 wrap around to node-69; the 101st passes and is dropped.
    assertThat(List.of(r.feasibleNodes(), r.evaluatedNodes())).containsExactly(100, 100);
    assertThat(r.suggestedHost()).isEqualTo("node-69");
    assertThat(journal).hasSize(101).startsWith("F@node-120").endsWith("F@node-70");
    assertThat(algorithm.nextStartNodeIndex()).isEqualTo(70);
  }

  @Test
  void withoutFilterPluginsTheFirstNodesFromTheStartIndexAreFeasible() {
    Framework f =
        framework(basePlugins().enable("score", "S").profile(), scoreByNumber());
    algorithm.setNextStartNodeIndex(3);

    ScheduleResult r = schedule(f, pod("p"), numberedNodes(5));

    assertThat(r.scores())
        .extracting(NodePluginScores::name)
        .containsExactly("node-3", "node-4", "node-0", "node-1", "node-2");
    assertThat(r.suggestedHost()).isEqualTo("node-4");
    assertThat(algorithm.nextStartNodeIndex()).isEqualTo(3);
  }

  @Test
  void theSingleFeasibleNodeIsTakenWithoutScoring() {
    Framework f =
        framework(
            basePlugins().enable("filter", "F").enable("score", "S").profile(),
            filter(n -> n.name().equals("node-2") ? Status.success() : Status.unschedulable("no")),
            Fake.plugin("S")
                .journal(journal)
                .score(
                    n -> {
                      throw new AssertionError("must not score");
                    })
                .build());

    ScheduleResult r = schedule(f, pod("p"), numberedNodes(3));

    assertThat(r)
        .isEqualTo(
            new ScheduleResult(
                "node-2",
                3,
                1,
                List.of(),
                new NodeToStatus(
                    Map.of(
                        "node-0", Status.unschedulable("no").withPlugin("F"),
                        "node-1", Status.unschedulable("no").withPlugin("F")),
                    Status.of(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE))));
  }

  @Test
  void scoresAreKeptPerNodeAndPlugin() {
    Framework f =
        framework(
            basePlugins().enable("filter", "F").enable("score", "S").profile(),
            filter(n -> Status.success()),
            scoreByNumber());

    ScheduleResult r = schedule(f, pod("p"), numberedNodes(3));

    assertThat(r.scores())
        .containsExactly(
            new NodePluginScores("node-0", Map.of("S", 0L), 0),
            new NodePluginScores("node-1", Map.of("S", 1L), 1),
            new NodePluginScores("node-2", Map.of("S", 2L), 2));
    assertThat(r.suggestedHost()).isEqualTo("node-2");
  }

  @Test
  void aNominatedNodeThatFitsIsTheOnlyOneEvaluated() {
    Framework f =
        framework(
            basePlugins().enable("filter", "F").enable("score", "S").profile(),
            filter(n -> Status.success()),
            scoreByNumber());

    ScheduleResult r = schedule(f, nominatedPod("p", "node-1"), numberedNodes(3));

    assertThat(List.of(r.suggestedHost(), r.evaluatedNodes(), r.feasibleNodes()))
        .containsExactly("node-1", 1, 1);
    assertThat(journal).containsExactly("F@node-1");
    assertThat(algorithm.nextStartNodeIndex()).isZero();
  }

  @Test
  void aNominatedNodeThatFailsFallsBackToAllNodesAndKeepsItsStatus() {
    Framework f =
        framework(
            basePlugins().enable("filter", "F").enable("score", "S").profile(),
            filter(n -> n.name().equals("node-1") ? Status.unschedulable("no") : Status.success()),
            scoreByNumber());

    ScheduleResult r = schedule(f, nominatedPod("p", "node-1"), numberedNodes(3));

    assertThat(journal).containsExactly("F@node-1", "F@node-0", "F@node-1", "F@node-2");
    assertThat(List.of(r.suggestedHost(), r.evaluatedNodes(), r.feasibleNodes()))
        .containsExactly("node-2", 3, 2);
  }

  @Test
  void aPreFilterSubsetLimitsTheNodesAndDropsUnknownOnes() {
    Framework f =
        framework(
            basePlugins().enable("preFilter", "A").enable("filter", "F").profile(),
            Fake.plugin("A").preFilter(PreFilterResult.nodes(Set.of("node-2", "ghost"))).build(),
            filter(n -> Status.unschedulable("too small")));

    assertThatThrownBy(() -> schedule(f, pod("p"), numberedNodes(3)))
        .isInstanceOfSatisfying(
            FitError.class,
            e -> {
              assertThat(e.getMessage())
                  .isEqualTo(
                      "0/3 nodes are available: 1 too small, 2 node(s) didn't satisfy plugin(s)"
                          + " [A].");
              assertThat(e.diagnosis().unschedulablePlugins()).containsExactly("A", "F");
            });
    assertThat(journal).containsExactly("F@node-2");
  }

  @Test
  void aPreFilterRejectionFailsWithItsMessage() {
    Framework f =
        framework(
            basePlugins().enable("preFilter", "A").enable("filter", "F").profile(),
            Fake.plugin("A").preFilter(PreFilterResult.of(Status.unresolvable("conflict"))).build(),
            filter(n -> Status.success()));

    assertThatThrownBy(() -> schedule(f, pod("p"), numberedNodes(3)))
        .isInstanceOfSatisfying(
            FitError.class,
            e -> {
              assertThat(e.getMessage()).isEqualTo("0/3 nodes are available: conflict.");
              assertThat(e.diagnosis().nodeToStatus().get("node-0"))
                  .isEqualTo(Status.unresolvable("conflict").withPlugin("A"));
              assertThat(e.diagnosis().unschedulablePlugins()).containsExactly("A");
            });
    assertThat(journal).isEmpty();
  }

  @Test
  void aPreFilterErrorIsAnInternalError() {
    Framework f =
        framework(
            basePlugins().enable("preFilter", "A").profile(),
            Fake.plugin("A").preFilter(PreFilterResult.of(Status.error("bad"))).build());

    assertThatThrownBy(() -> schedule(f, pod("p"), numberedNodes(3)))
        .isExactlyInstanceOf(SchedulingException.class)
        .hasMessage("running PreFilter plugin \"A\": bad");
  }

  @Test
  void aFilterErrorStopsTheSearch() {
    Framework f =
        framework(
            basePlugins().enable("filter", "F").profile(),
            filter(
                n -> {
                  throw new IllegalStateException("boom");
                }));

    assertThatThrownBy(() -> schedule(f, pod("p"), numberedNodes(3)))
        .isExactlyInstanceOf(SchedulingException.class)
        .hasMessage("running \"F\" filter plugin: boom");
    assertThat(journal).containsExactly("F@node-0");
  }

  @Test
  void noNodesIsKubesError() {
    Framework f = framework(basePlugins().profile());

    assertThatThrownBy(() -> schedule(f, pod("p"), List.of()))
        .isInstanceOf(NoNodesAvailableException.class)
        .hasMessage("no nodes available to schedule pods");
  }

  @Test
  void allNodesRejectedIsAFitErrorWithEveryStatus() {
    Framework f =
        framework(
            basePlugins().enable("filter", "F").enable("score", "S").profile(),
            filter(n -> n.name().equals("node-0") ? Status.unresolvable("taint") : Status.unschedulable("cpu")),
            scoreByNumber());

    assertThatThrownBy(() -> schedule(f, pod("p"), numberedNodes(3)))
        .isInstanceOfSatisfying(
            FitError.class,
            e -> {
              assertThat(e.getMessage()).isEqualTo("0/3 nodes are available: 1 taint, 2 cpu.");
              assertThat(e.numAllNodes()).isEqualTo(3);
              assertThat(e.diagnosis().nodeToStatus().size()).isEqualTo(3);
            });
  }

  @Test
  void withoutScorePluginsEveryNodeScoresOne() {
    Framework f = framework(basePlugins().profile());

    List<NodePluginScores> scores =
        algorithm.prioritizeNodes(f, new CycleState(), pod("p"), numberedNodes(2));

    assertThat(scores)
        .containsExactly(
            new NodePluginScores("node-0", Map.of(), 1), new NodePluginScores("node-1", Map.of(), 1));
  }

  private static List<NodePluginScores> totals(long... totals) {
    List<NodePluginScores> out = new ArrayList<>();
    for (int i = 0; i < totals.length; i++) {
      out.add(new NodePluginScores("n" + i, Map.of(), totals[i]));
    }
    return out;
  }

  @Test
  void selectHostPicksTheBestNode() {
    assertThat(algorithm.selectHost(totals(10, 30, 20), 3)).isEqualTo("n1");
  }

  @Test
  void selectHostIsDeterministicForASeed() {
    List<NodePluginScores> tied = totals(5, 9, 9, 9, 1, 9);

    String first = new SchedulingAlgorithm(new Random(42)).selectHost(tied, 3);
    String second = new SchedulingAlgorithm(new Random(42)).selectHost(tied, 3);

    assertThat(first).isEqualTo(second).isIn("n1", "n2", "n3", "n5");
  }

  @Test
  void selectHostCanPickEveryTiedNodeAndNoOther() {
    List<NodePluginScores> tied = totals(5, 9, 9, 9, 1, 9);
    Set<String> picked = new HashSet<>();

    SchedulingAlgorithm a = new SchedulingAlgorithm(new Random(7));
    for (int i = 0; i < 400; i++) {
      picked.add(a.selectHost(tied, 3));
    }

    assertThat(picked).containsExactlyInAnyOrder("n1", "n2", "n3", "n5");
  }

  @Test
  void selectHostRejectsAnEmptyList() {
    assertThatThrownBy(() -> algorithm.selectHost(List.of(), 3))
        .isInstanceOf(SchedulingException.class);
  }
}
