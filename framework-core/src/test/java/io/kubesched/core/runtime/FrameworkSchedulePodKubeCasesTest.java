package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases of kube's {@code TestSchedulerSchedulePod} (schedule_one_test.go), with kube's fake plugins
 * rebuilt: TrueFilter, FalseFilter, MatchFilter (the node named like the pod), FakeFilter (fails
 * listed nodes), FakePreFilter (a fixed result) and EqualPrioritizer (score 1).
 */
final class FrameworkSchedulePodKubeCasesTest {
  private static final String ERR_REASON_FAKE = "Nodes failed the fake plugin";
  private static final Status ABSENT = Status.of(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);

  /** A plugin and the point it is enabled at. */
  private record Enabled(String point, Plugin plugin) {}

  /**
   * What a case expects: a host among {@code hosts} after {@code evaluated} nodes, or a FitError.
   */
  private record Want(Set<String> hosts, int evaluated, FitWant fit) {}

  private record FitWant(
      int numAllNodes, NodeToStatus statuses, Set<String> unschedulable, String preFilterMsg) {}

  private static Want hosts(int evaluated, String... hosts) {
    return new Want(Set.of(hosts), evaluated, null);
  }

  private static Want fitError(
      int numAllNodes, NodeToStatus statuses, Set<String> unschedulable, String preFilterMsg) {
    return new Want(null, 0, new FitWant(numAllNodes, statuses, unschedulable, preFilterMsg));
  }

  private static Enabled trueFilter() {
    return new Enabled("filter", Fake.plugin("TrueFilter").filter(Status.success()).build());
  }

  private static Enabled falseFilter() {
    return new Enabled(
        "filter", Fake.plugin("FalseFilter").filter(Status.unschedulable(ERR_REASON_FAKE)).build());
  }

  private static Enabled matchFilter(String podName) {
    return new Enabled(
        "filter",
        Fake.plugin("MatchFilter")
            .filter(
                n ->
                    n.name().equals(podName)
                        ? Status.success()
                        : Status.unschedulable(ERR_REASON_FAKE))
            .build());
  }

  private static Enabled fakeFilter(String failing, String podName) {
    return new Enabled(
        "filter",
        Fake.plugin("FakeFilter")
            .filter(
                n ->
                    n.name().equals(failing)
                        ? Status.unschedulable("injecting failure for pod " + podName)
                        : Status.success())
            .build());
  }

  private static Enabled fakePreFilter(String name, Set<String> nodes) {
    return new Enabled(
        "preFilter",
        Fake.plugin(name)
            .preFilter(nodes == null ? PreFilterResult.success() : PreFilterResult.nodes(nodes))
            .build());
  }

  private static Enabled equalPrioritizer() {
    return new Enabled("score", Fake.plugin("EqualPrioritizerPlugin").score(n -> 1L).build());
  }

  private static NodeToStatus statuses(Map<String, Status> explicit, Status absent) {
    return new NodeToStatus(explicit, absent);
  }

  static Stream<Arguments> cases() {
    Status fake = Status.unschedulable(ERR_REASON_FAKE);
    return Stream.of(
        argumentSet(
            "test 1: FalseFilter rejects every node",
            List.of(falseFilter()),
            List.of("node1", "node2"),
            "2",
            fitError(
                2,
                statuses(
                    Map.of(
                        "node1", fake.withPlugin("FalseFilter"),
                        "node2", fake.withPlugin("FalseFilter")),
                    ABSENT),
                Set.of("FalseFilter"),
                "")),
        argumentSet(
            "test 2: TrueFilter and an equal prioritizer",
            List.of(trueFilter(), equalPrioritizer()),
            List.of("node1", "node2"),
            "ignore",
            hosts(2, "node1", "node2")),
        argumentSet(
            "test 3: MatchFilter picks the node named like the pod",
            List.of(trueFilter(), matchFilter("node2"), equalPrioritizer()),
            List.of("node1", "node2"),
            "node2",
            hosts(2, "node2")),
        argumentSet(
            "test prefilter plugin returning non-intersecting nodes",
            List.of(
                fakePreFilter("FakePreFilter1", null),
                fakePreFilter("FakePreFilter2", Set.of("node2")),
                fakePreFilter("FakePreFilter3", Set.of("node1"))),
            List.of("node1", "node2", "node3"),
            "test-prefilter",
            fitError(
                3,
                statuses(
                    Map.of(),
                    Status.unresolvable(
                        "node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3]"
                            + " simultaneously")),
                Set.of("FakePreFilter2", "FakePreFilter3"),
                "node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3] simultaneously")),
        argumentSet(
            "test prefilter plugin returning empty node set",
            List.of(
                fakePreFilter("FakePreFilter1", null), fakePreFilter("FakePreFilter2", Set.of())),
            List.of("node1"),
            "test-prefilter",
            fitError(
                1,
                statuses(
                    Map.of(), Status.unresolvable("node(s) didn't satisfy plugin FakePreFilter2")),
                Set.of("FakePreFilter2"),
                "node(s) didn't satisfy plugin FakePreFilter2")),
        argumentSet(
            "test some nodes are filtered out by prefilter plugin and other are filtered out by"
                + " filter plugin",
            List.of(
                fakePreFilter("FakePreFilter", Set.of("node2")),
                fakeFilter("node2", "test-prefilter")),
            List.of("node1", "node2"),
            "test-prefilter",
            fitError(
                2,
                statuses(
                    Map.of(
                        "node2",
                        Status.unschedulable("injecting failure for pod test-prefilter")
                            .withPlugin("FakeFilter")),
                    Status.unresolvable("node(s) didn't satisfy plugin(s) [FakePreFilter]")),
                Set.of("FakePreFilter", "FakeFilter"),
                "")),
        argumentSet(
            "test prefilter plugin returning 2 nodes (intersection) without scoring",
            List.of(
                fakePreFilter("FakePreFilter1", null),
                fakePreFilter("FakePreFilter2", Set.of("node2")),
                fakePreFilter("FakePreFilter3", Set.of("node1", "node2"))),
            List.of("node1", "node2", "node3"),
            "test-prefilter",
            hosts(1, "node2")),
        argumentSet(
            "test without score plugin no extra nodes are evaluated",
            List.of(trueFilter()),
            List.of("node1", "node2", "node3"),
            "pod1",
            hosts(1, "node1", "node2", "node3")),
        argumentSet(
            "test no score plugin, prefilter plugin returning 2 nodes",
            List.of(fakePreFilter("FakePreFilter", Set.of("node1", "node2"))),
            List.of("node1", "node2", "node3"),
            "test-prefilter",
            hosts(1, "node1", "node2")),
        argumentSet(
            "test prefilter plugin returned an invalid node",
            List.of(fakePreFilter("FakePreFilter", Set.of("invalid-node")), trueFilter()),
            List.of("1", "2"),
            "test-prefilter",
            fitError(
                2,
                statuses(
                    Map.of(),
                    Status.unresolvable("node(s) didn't satisfy plugin(s) [FakePreFilter]")),
                Set.of("FakePreFilter"),
                "")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void schedulesAsKube(List<Enabled> enabled, List<String> nodeNames, String podName, Want want) {
    List<Plugin> plugins = new ArrayList<>(List.of(queueSort(), binder()));
    var pb = Fixtures.basePlugins();
    for (Enabled e : enabled) {
      plugins.add(e.plugin());
      pb.enable(e.point(), e.plugin().name());
    }
    Framework f =
        Framework.create(
            pb.profile(), 0, Fake.registry(plugins.toArray(new Plugin[0])), Fixtures.context());
    List<NodeInfo> nodes = Fixtures.nodes(nodeNames.toArray(new String[0]));
    PodInfo pod = Fixtures.pod(podName);
    SchedulingAlgorithm algorithm = new SchedulingAlgorithm(new Random(0));

    Throwable thrown =
        catchThrowable(
            () -> {
              ScheduleResult r =
                  algorithm.schedulePod(f, new CycleState(), pod, new Fixtures.Lister(nodes));
              assertThat(want.hosts()).as("a FitError was expected").isNotNull();
              assertThat(want.hosts()).contains(r.suggestedHost());
              assertThat(r.evaluatedNodes()).isEqualTo(want.evaluated());
            });

    if (want.fit() == null) {
      assertThat(thrown).isNull();
      return;
    }
    assertThat(thrown).isInstanceOf(FitError.class);
    FitError e = (FitError) thrown;
    assertThat(e.numAllNodes()).isEqualTo(want.fit().numAllNodes());
    assertThat(e.diagnosis().nodeToStatus()).isEqualTo(want.fit().statuses());
    assertThat(e.diagnosis().unschedulablePlugins()).isEqualTo(want.fit().unschedulable());
    assertThat(e.diagnosis().preFilterMsg()).isEqualTo(want.fit().preFilterMsg());
  }
}
