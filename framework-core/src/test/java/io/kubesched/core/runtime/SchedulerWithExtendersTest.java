package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.pod;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubesched.core.config.ExtenderConfig;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.extender.ExtenderWire;
import io.kubesched.core.extender.HttpExtender;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.Status;
import io.kubesched.testing.apiserver.FakeExtenderServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestSchedulerWithExtenders} (extender_test.go), with its fake extenders served over
 * HTTP and called by {@link HttpExtender}s.
 */
final class SchedulerWithExtendersTest {
  private final FakeExtenderServer server;

  SchedulerWithExtendersTest() throws Exception {
    server = new FakeExtenderServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** A fit predicate of the fake extenders: success, Unschedulable, or an error (null). */
  private static final Function<String, Status> TRUE = n -> Status.success();

  private static final Function<String, Status> FALSE =
      n -> Status.unschedulable("pod is unschedulable on the node");

  private static final Function<String, Status> ERROR = n -> null;

  private static final Function<String, Status> NODE1 =
      n -> n.equals("node1") ? Status.success() : Status.unschedulable("node not node1");

  private static final Function<String, Status> NODE2 =
      n -> n.equals("node2") ? Status.success() : Status.unschedulable("node not node2");

  /** A prioritizer: node name to score, or {@code null} for an error. */
  private static final Function<String, Long> ERROR_PRIORITIZER = n -> null;

  private static final Function<String, Long> NODE1_PRIORITIZER = n -> n.equals("node1") ? 10L : 1L;

  private static final Function<String, Long> NODE2_PRIORITIZER = n -> n.equals("node2") ? 10L : 1L;

  /**
   * One of kube's {@code tf.FakeExtender}s.
   *
   * @param predicates all must pass for a node
   * @param prioritizers score functions, each with its weight
   * @param weight the extender's weight
   * @param ignorable whether errors are ignored
   * @param uninterested whether the extender manages a resource the pod does not use
   * @param binder whether the extender binds
   */
  private record Fake(
      List<Function<String, Status>> predicates,
      Map<Function<String, Long>, Long> prioritizers,
      long weight,
      boolean ignorable,
      boolean uninterested,
      boolean binder) {
    static Fake filter(Function<String, Status> predicate) {
      return new Fake(List.of(predicate), Map.of(), 0, false, false, false);
    }

    static Fake prioritize(Function<String, Status> predicate, Function<String, Long> p, long w) {
      return new Fake(List.of(predicate), Map.of(p, 10L), w, false, false, false);
    }

    Fake asIgnorable() {
      return new Fake(predicates, prioritizers, weight, true, uninterested, binder);
    }

    Fake asUninterested() {
      return new Fake(predicates, prioritizers, weight, ignorable, true, binder);
    }
  }

  private static final Fake BINDER = new Fake(List.of(), Map.of(), 0, false, false, true);

  /** Serves {@code f} under {@code /ext<i>/} and returns its HTTP extender. */
  private HttpExtender serve(int i, Fake f) {
    String prefix = "/ext" + i;
    server.on(
        prefix + "/filter",
        body -> {
          ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(body);
          List<V1Node> passed = new ArrayList<>();
          Map<String, String> failed = new LinkedHashMap<>();
          for (V1Node n : args.nodes()) {
            String name = n.getMetadata().getName();
            Status s = Status.success();
            for (Function<String, Status> p : f.predicates()) {
              s = p.apply(name);
              if (s == null) {
                return FakeExtenderServer.Answer.ok(
                    ExtenderWire.encode(
                        new ExtenderWire.FilterResult(null, null, null, null, "some error")));
              }
              if (!s.isSuccess()) {
                break;
              }
            }
            if (s.isSuccess()) {
              passed.add(n);
            } else {
              failed.put(name, "FakeExtender: node \"" + name + "\" failed");
            }
          }
          return FakeExtenderServer.Answer.ok(
              ExtenderWire.encode(new ExtenderWire.FilterResult(passed, null, failed, null, "")));
        });
    server.on(
        prefix + "/prioritize",
        body -> {
          ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(body);
          Map<String, Long> combined = new LinkedHashMap<>();
          for (var e : f.prioritizers().entrySet()) {
            for (V1Node n : args.nodes()) {
              String name = n.getMetadata().getName();
              Long score = e.getKey().apply(name);
              if (score == null) {
                return new FakeExtenderServer.Answer(500, "some error");
              }
              combined.merge(name, score * e.getValue(), Long::sum);
            }
          }
          List<ExtenderWire.HostPriority> out = new ArrayList<>();
          combined.forEach((n, s) -> out.add(new ExtenderWire.HostPriority(n, s)));
          return FakeExtenderServer.Answer.ok(ExtenderWire.encodePriorities(out));
        });
    return HttpExtender.create(
        new ExtenderConfig(
            server.url() + prefix,
            f.predicates().isEmpty() ? "" : "filter",
            "",
            f.prioritizers().isEmpty() ? "" : "prioritize",
            f.binder() ? "bind" : "",
            f.weight(),
            false,
            null,
            false,
            f.uninterested()
                ? List.of(new ExtenderConfig.ManagedResource("example.com/unused", false))
                : List.of(),
            f.ignorable()));
  }

  private static Plugin trueFilter() {
    return io.kubesched.core.runtime.Fake.plugin("TrueFilter").filter(Status.success()).build();
  }

  private static Plugin equalPrioritizer() {
    return io.kubesched.core.runtime.Fake.plugin("EqualPrioritizerPlugin").score(n -> 1L).build();
  }

  private static Plugin node2Prioritizer() {
    return io.kubesched.core.runtime.Fake.plugin("Node2Prioritizer")
        .score(n -> n.name().equals("node2") ? 100L : 0L)
        .build();
  }

  private record Weighted(Plugin plugin, int weight) {}

  private Framework framework(List<Plugin> filters, List<Weighted> scores, List<Fake> fakes) {
    List<Plugin> all = new ArrayList<>(filters);
    scores.forEach(w -> all.add(w.plugin()));
    all.add(queueSort());
    all.add(binder());
    var pb = basePlugins();
    for (Plugin p : filters) {
      pb.enable("filter", p.name());
    }
    for (Weighted w : scores) {
      pb.enableWeighted("score", new PluginRef(w.plugin().name(), w.weight()));
    }
    List<SchedulerExtender> extenders = new ArrayList<>();
    for (int i = 0; i < fakes.size(); i++) {
      extenders.add(serve(i, fakes.get(i)));
    }
    return Framework.create(
        pb.profile(),
        0,
        io.kubesched.core.runtime.Fake.registry(all.toArray(new Plugin[0])),
        Fixtures.context(),
        extenders);
  }

  private static final List<String> TWO_NODES = List.of("node1", "node2");

  private static final String BOTH_FAILED =
      "0/2 nodes are available: 1 FakeExtender: node \"node1\" failed,"
          + " 1 FakeExtender: node \"node2\" failed.";

  static Stream<Arguments> cases() {
    List<Plugin> trueFilter = List.of(trueFilter());
    return Stream.of(
        argumentSet(
            "test 1: an extender error fails scheduling",
            trueFilter,
            List.of(),
            List.of(Fake.filter(TRUE), Fake.filter(ERROR)),
            "some error",
            TWO_NODES),
        argumentSet(
            "test 2: an extender rejecting every node fails scheduling",
            trueFilter,
            List.of(),
            List.of(Fake.filter(TRUE), Fake.filter(FALSE)),
            BOTH_FAILED,
            TWO_NODES),
        argumentSet(
            "test 3: extender filters narrow the feasible nodes",
            trueFilter,
            List.of(new Weighted(equalPrioritizer(), 1)),
            List.of(Fake.filter(TRUE), Fake.filter(NODE1)),
            new ScheduleResult("node1", 2, 1, null, null),
            TWO_NODES),
        argumentSet(
            "test 4: two extenders leaving no node fail scheduling",
            trueFilter,
            List.of(),
            List.of(Fake.filter(NODE2), Fake.filter(NODE1)),
            BOTH_FAILED,
            TWO_NODES),
        argumentSet(
            "test 5: a prioritize error is ignored",
            trueFilter,
            List.of(),
            List.of(Fake.prioritize(TRUE, ERROR_PRIORITIZER, 1)),
            new ScheduleResult("node1", 1, 1, null, null),
            List.of("node1")),
        argumentSet(
            "test 6: extender scores are weighted",
            trueFilter,
            List.of(),
            List.of(
                Fake.prioritize(TRUE, NODE1_PRIORITIZER, 1),
                Fake.prioritize(TRUE, NODE2_PRIORITIZER, 5)),
            new ScheduleResult("node2", 2, 2, null, null),
            TWO_NODES),
        argumentSet(
            "test 7: plugin and extender scores add up",
            trueFilter,
            List.of(new Weighted(node2Prioritizer(), 20)),
            List.of(Fake.prioritize(TRUE, NODE1_PRIORITIZER, 1)),
            new ScheduleResult("node2", 2, 2, null, null),
            TWO_NODES),
        argumentSet(
            "test 8: an uninterested extender is not called",
            trueFilter,
            List.of(new Weighted(node2Prioritizer(), 1)),
            List.of(
                new Fake(List.of(ERROR), Map.of(ERROR_PRIORITIZER, 10L), 0, false, false, false)
                    .asUninterested()),
            new ScheduleResult("node2", 2, 2, null, null),
            TWO_NODES),
        argumentSet(
            "test 9: an ignorable extender's error is skipped",
            trueFilter,
            List.of(new Weighted(equalPrioritizer(), 1)),
            List.of(Fake.filter(ERROR).asIgnorable(), Fake.filter(NODE1)),
            new ScheduleResult("node1", 2, 1, null, null),
            TWO_NODES),
        argumentSet(
            "test 10: no scoring, extender filters configured, multiple feasible nodes are"
                + " evaluated",
            trueFilter,
            List.of(),
            List.of(Fake.filter(TRUE), Fake.filter(NODE1)),
            new ScheduleResult("node1", 2, 1, null, null),
            TWO_NODES),
        argumentSet(
            "test 11: no scoring, no prefilters or extender filters configured, a single feasible"
                + " node is evaluated",
            List.of(),
            List.of(),
            List.of(BINDER),
            new ScheduleResult("node1", 1, 1, null, null),
            TWO_NODES));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void schedulePodWithExtenders(
      List<Plugin> filters,
      List<Weighted> scores,
      List<Fake> fakes,
      Object want,
      List<String> nodeNames) {
    Framework f = framework(filters, scores, fakes);
    var nodes = new Fixtures.Lister(Fixtures.nodes(nodeNames.toArray(new String[0])));
    SchedulingAlgorithm algorithm = new SchedulingAlgorithm(new Random(1));

    if (want instanceof String error) {
      assertThatThrownBy(() -> algorithm.schedulePod(f, new CycleState(), pod("p"), nodes))
          .hasMessage(error);
      return;
    }
    ScheduleResult w = (ScheduleResult) want;
    ScheduleResult got = algorithm.schedulePod(f, new CycleState(), pod("p"), nodes);

    assertThat(List.of(got.suggestedHost(), got.evaluatedNodes(), got.feasibleNodes()))
        .isEqualTo(List.of(w.suggestedHost(), w.evaluatedNodes(), w.feasibleNodes()));
  }
}
