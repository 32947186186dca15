package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.node;
import static io.kubesched.core.runtime.Fixtures.nodes;
import static io.kubesched.core.runtime.Fixtures.pod;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.core.metrics.InMemoryMetrics;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class FrameworkRunnersTest {
  private final List<String> journal = Collections.synchronizedList(new ArrayList<>());
  private final PodInfo pod = pod("p");

  private Fake.Builder fake(String name) {
    return Fake.plugin(name).journal(journal);
  }

  /** Builds a framework enabling {@code plugins} at {@code point}, in order. */
  private static Framework framework(String point, FrameworkContext ctx, List<Plugin> plugins) {
    List<Plugin> all = new ArrayList<>(plugins);
    all.add(queueSort());
    all.add(binder());
    var pb = basePlugins();
    String[] names = plugins.stream().map(Plugin::name).toArray(String[]::new);
    if (point.equals("bind")) {
      pb = Fixtures.plugins().enable("queueSort", "QS").enable("bind", names);
    } else {
      pb.enable(point, names);
    }
    return Framework.create(pb.profile(), 0, Fake.registry(all.toArray(new Plugin[0])), ctx);
  }

  private static Framework framework(String point, List<Plugin> plugins) {
    return framework(point, Fixtures.context(), plugins);
  }

  private static Status error(String message, String plugin) {
    return Status.error(message).withPlugin(plugin);
  }

  // --------------------------------------------------------------------------------------------
  // PreFilter

  static Stream<Arguments> preFilterCases() {
    Function<List<String>, Fake.Builder> none = null;
    return Stream.of(
        argumentSet(
            "all succeed: all nodes, nothing skipped",
            List.of(PreFilterResult.success(), PreFilterResult.success()),
            Status.success(),
            null,
            Set.of(),
            List.of("A.preFilter", "B.preFilter")),
        argumentSet(
            "Skip adds the plugin to the skipped Filter plugins",
            List.of(PreFilterResult.skip(), PreFilterResult.success()),
            Status.success(),
            null,
            Set.of("A"),
            List.of("A.preFilter", "B.preFilter")),
        argumentSet(
            "UnschedulableAndUnresolvable stops at once",
            List.of(PreFilterResult.of(Status.unresolvable("no")), PreFilterResult.success()),
            Status.unresolvable("no").withPlugin("A"),
            null,
            Set.of(),
            List.of("A.preFilter")),
        argumentSet(
            "Unschedulable is remembered while the other plugins run; the last one wins",
            List.of(
                PreFilterResult.of(Status.unschedulable("first")),
                PreFilterResult.of(Status.unschedulable("second"))),
            Status.unschedulable("second").withPlugin("B"),
            null,
            Set.of(),
            List.of("A.preFilter", "B.preFilter")),
        argumentSet(
            "another code is an Error naming the plugin",
            List.of(
                PreFilterResult.of(Status.of(Status.Code.WAIT, "huh")), PreFilterResult.success()),
            error("running PreFilter plugin \"A\": huh", "A"),
            null,
            Set.of(),
            List.of("A.preFilter")),
        argumentSet(
            "node sets are intersected",
            List.of(
                PreFilterResult.nodes(Set.of("n1", "n2")),
                PreFilterResult.nodes(Set.of("n2", "n3"))),
            Status.success(),
            Set.of("n2"),
            Set.of(),
            List.of("A.preFilter", "B.preFilter")),
        argumentSet(
            "an empty node set of one plugin names it",
            List.of(PreFilterResult.success(), PreFilterResult.nodes(Set.of())),
            Status.unresolvable("node(s) didn't satisfy plugin B"),
            Set.of(),
            Set.of(),
            List.of("A.preFilter", "B.preFilter")),
        argumentSet(
            "an empty intersection names all plugins that restricted the nodes",
            List.of(PreFilterResult.nodes(Set.of("n1")), PreFilterResult.nodes(Set.of("n2"))),
            Status.unresolvable("node(s) didn't satisfy plugin(s) [A B] simultaneously"),
            Set.of(),
            Set.of(),
            List.of("A.preFilter", "B.preFilter")));
  }

  @ParameterizedTest
  @MethodSource("preFilterCases")
  void runsPreFilterPlugins(
      List<PreFilterResult> results,
      Status expected,
      Set<String> expectedNodes,
      Set<String> expectedSkip,
      List<String> expectedCalls) {
    Framework f =
        framework(
            "preFilter",
            List.of(
                fake("A").preFilter(results.get(0)).build(),
                fake("B").preFilter(results.get(1)).build()));
    CycleState state = new CycleState();

    Framework.PreFilterOutcome out = f.runPreFilterPlugins(state, pod, nodes("n1", "n2", "n3"));

    assertThat(out.status()).isEqualTo(expected);
    assertThat(out.nodeNames()).isEqualTo(expectedNodes);
    assertThat(state.skipFilterPlugins()).isEqualTo(expectedSkip);
    assertThat(journal).isEqualTo(expectedCalls);
  }

  @Test
  void preFilterPluginsThatRestrictNodesAreReported() {
    Framework f =
        framework(
            "preFilter",
            List.of(
                fake("A").preFilter(PreFilterResult.nodes(Set.of("n1"))).build(),
                fake("B").preFilter(PreFilterResult.success()).build()));

    Framework.PreFilterOutcome out =
        f.runPreFilterPlugins(new CycleState(), pod, nodes("n1", "n2"));

    assertThat(out.unschedulablePlugins()).containsExactly("A");
  }

  @Test
  void aThrowingPreFilterPluginIsAnError() {
    Framework f =
        framework(
            "preFilter",
            List.of(
                fake("A")
                    .implementing(io.kubesched.framework.PreFilterPlugin.class)
                    .throwing("preFilter", new IllegalStateException("boom"))
                    .build()));

    Framework.PreFilterOutcome out = f.runPreFilterPlugins(new CycleState(), pod, nodes("n1"));

    assertThat(out.status()).isEqualTo(error("running PreFilter plugin \"A\": boom", "A"));
  }

  // --------------------------------------------------------------------------------------------
  // Filter

  static Stream<Arguments> filterCases() {
    return Stream.of(
        argumentSet(
            "all succeed",
            Status.success(),
            Status.success(),
            Set.of(),
            Status.success(),
            List.of("A.filter@n1", "B.filter@n1")),
        argumentSet(
            "Unschedulable stops the node's evaluation and carries the plugin",
            Status.unschedulable("full"),
            Status.success(),
            Set.of(),
            Status.unschedulable("full").withPlugin("A"),
            List.of("A.filter@n1")),
        argumentSet(
            "UnschedulableAndUnresolvable carries the plugin",
            Status.success(),
            Status.unresolvable("never"),
            Set.of(),
            Status.unresolvable("never").withPlugin("B"),
            List.of("A.filter@n1", "B.filter@n1")),
        argumentSet(
            "Pending is a rejection too",
            Status.pending("later"),
            Status.success(),
            Set.of(),
            Status.pending("later").withPlugin("A"),
            List.of("A.filter@n1")),
        argumentSet(
            "Error is wrapped as kube does",
            Status.error("disk on fire"),
            Status.success(),
            Set.of(),
            error("running \"A\" filter plugin: disk on fire", "A"),
            List.of("A.filter@n1")),
        argumentSet(
            "Skip from a Filter plugin is not a valid answer: an Error",
            Status.skip(),
            Status.success(),
            Set.of(),
            error("running \"A\" filter plugin: ", "A"),
            List.of("A.filter@n1")),
        argumentSet(
            "a plugin whose PreFilter skipped is not run",
            Status.unschedulable("not me"),
            Status.success(),
            Set.of("A"),
            Status.success(),
            List.of("B.filter@n1")));
  }

  @ParameterizedTest
  @MethodSource("filterCases")
  void runsFilterPlugins(
      Status a, Status b, Set<String> skipped, Status expected, List<String> calls) {
    Framework f =
        framework("filter", List.of(fake("A").filter(a).build(), fake("B").filter(b).build()));
    CycleState state = new CycleState();
    EngineAccess.setSkipFilterPlugins(state, skipped);

    Status s = f.runFilterPlugins(state, pod, node("n1"));

    assertThat(s).isEqualTo(expected);
    assertThat(journal).isEqualTo(calls);
  }

  @Test
  void aThrowingFilterPluginFailsTheNodeWithAnError() {
    Framework f =
        framework(
            "filter",
            List.of(
                fake("A")
                    .implementing(io.kubesched.framework.FilterPlugin.class)
                    .throwing("filter", new IllegalStateException("boom"))
                    .build()));

    Status s = f.runFilterPlugins(new CycleState(), pod, node("n1"));

    assertThat(s).isEqualTo(error("running \"A\" filter plugin: boom", "A"));
  }

  // --------------------------------------------------------------------------------------------
  // AddPod / RemovePod

  @Test
  void addPodRunsUnskippedExtensionsAndWrapsFailures() {
    Framework f =
        framework(
            "preFilter",
            List.of(
                fake("A").addPod(Status.unschedulable("nope")).build(),
                fake("B").addPod(Status.success()).build(),
                fake("C").preFilter(PreFilterResult.success()).build()));
    CycleState state = new CycleState();

    Status failed = f.runPreFilterExtensionAddPod(state, pod, pod("other"), node("n1"));
    EngineAccess.setSkipFilterPlugins(state, Set.of("A"));
    Status skipped = f.runPreFilterExtensionAddPod(state, pod, pod("other"), node("n1"));

    assertThat(List.of(failed, skipped))
        .containsExactly(
            Status.error("running AddPod on PreFilter plugin \"A\": nope"), Status.success());
    assertThat(journal).containsExactly("A.addPod@n1", "B.addPod@n1");
  }

  @Test
  void removePodWrapsFailures() {
    Framework f =
        framework("preFilter", List.of(fake("A").removePod(Status.error("gone")).build()));

    Status s = f.runPreFilterExtensionRemovePod(new CycleState(), pod, pod("other"), node("n1"));

    assertThat(s).isEqualTo(Status.error("running RemovePod on PreFilter plugin \"A\": gone"));
  }

  // --------------------------------------------------------------------------------------------
  // Filter with nominated pods

  static Stream<Arguments> nominatedCases() {
    return Stream.of(
        argumentSet(
            "no nominated pod: one pass on the original node",
            List.of(),
            Status.success(),
            List.of("F.filter@n1 pods=0")),
        argumentSet(
            "a nominated pod of equal priority is added in the first pass, then a second pass runs"
                + " without it",
            List.of(pod("nom", 5)),
            Status.success(),
            List.of("E.addPod@n1", "F.filter@n1 pods=1", "F.filter@n1 pods=0")),
        argumentSet(
            "a nominated pod of lower priority is ignored",
            List.of(pod("low", 4)),
            Status.success(),
            List.of("F.filter@n1 pods=0")),
        argumentSet(
            "the pod itself is never added",
            List.of(pod("p", 9)),
            Status.success(),
            List.of("F.filter@n1 pods=0")),
        argumentSet(
            "a rejection in the first pass skips the second",
            List.of(pod("big", 10)),
            Status.unschedulable("pods=1").withPlugin("F"),
            List.of("E.addPod@n1", "F.filter@n1 pods=1")));
  }

  @ParameterizedTest
  @MethodSource("nominatedCases")
  void runsFiltersWithNominatedPods(List<PodInfo> nominated, Status expected, List<String> calls) {
    Fixtures.Nominator nominator = new Fixtures.Nominator();
    nominated.forEach(p -> nominator.add("n1", p));
    FrameworkContext ctx =
        Fixtures.context(nominator, new WaitingPods(new ManualScheduler()), SchedulerMetrics.NOOP);
    Plugin ext = fake("E").addPod(Status.success()).build();
    Plugin filter =
        Fake.plugin("F")
            .filterCall(
                a -> {
                  NodeInfo n = (NodeInfo) a[2];
                  journal.add("F.filter@" + n.name() + " pods=" + n.pods().size());
                  return n.pods().isEmpty() || nominated.get(0).priority() < 10
                      ? Status.success()
                      : Status.unschedulable("pods=" + n.pods().size());
                })
            .build();
    List<Plugin> all = List.of(ext, filter, queueSort(), binder());
    Framework f =
        Framework.create(
            basePlugins().enable("preFilter", "E").enable("filter", "F").profile(),
            0,
            Fake.registry(all.toArray(new Plugin[0])),
            ctx);
    PodInfo p = pod("p", 5);
    NodeInfo n1 = node("n1");

    Status s = f.runFilterPluginsWithNominatedPods(new CycleState(), p, n1);

    assertThat(s).isEqualTo(expected);
    assertThat(journal).isEqualTo(calls);
    assertThat(n1.pods()).isEmpty();
  }

  static Stream<Arguments> nominatedStateCases() {
    return Stream.of(
        argumentSet(
            "an active extension: the first pass filters a copy of the state, the second the state",
            Set.of(),
            true,
            List.of(false, true)),
        argumentSet(
            "no active extension: AddPod changes nothing, both passes filter the state itself",
            Set.of("E"),
            false,
            List.of(true, true)));
  }

  @ParameterizedTest
  @MethodSource("nominatedStateCases")
  void nominatedPassCopiesTheStateOnlyForActiveExtensions(
      Set<String> skipped, boolean active, List<Boolean> filteredTheGivenState) {
    Fixtures.Nominator nominator = new Fixtures.Nominator().add("n1", pod("nom", 5));
    FrameworkContext ctx =
        Fixtures.context(nominator, new WaitingPods(new ManualScheduler()), SchedulerMetrics.NOOP);
    CycleState state = new CycleState();
    EngineAccess.setSkipFilterPlugins(state, skipped);
    List<Boolean> given = new ArrayList<>();
    Plugin ext = fake("E").addPod(Status.success()).build();
    Plugin filter =
        Fake.plugin("F")
            .filterCall(
                a -> {
                  given.add(a[0] == state);
                  return Status.success();
                })
            .build();
    List<Plugin> all = List.of(ext, filter, queueSort(), binder());
    Framework f =
        Framework.create(
            basePlugins().enable("preFilter", "E").enable("filter", "F").profile(),
            0,
            Fake.registry(all.toArray(new Plugin[0])),
            ctx);

    Status s = f.runFilterPluginsWithNominatedPods(state, pod("p", 5), node("n1"));

    assertThat(s).isEqualTo(Status.success());
    assertThat(f.preFilterExtensionsActive(state)).isEqualTo(active);
    assertThat(given).isEqualTo(filteredTheGivenState);
    assertThat(journal).containsExactlyElementsOf(active ? List.of("E.addPod@n1") : List.of());
  }

  @Test
  void aFailingAddPodOfANominatedPodIsAnError() {
    Fixtures.Nominator nominator = new Fixtures.Nominator().add("n1", pod("nom", 5));
    FrameworkContext ctx =
        Fixtures.context(nominator, new WaitingPods(new ManualScheduler()), SchedulerMetrics.NOOP);
    Framework f =
        framework(
            "preFilter",
            ctx,
            List.of(fake("E").addPod(Status.unschedulable("cannot add")).build()));

    Status s = f.runFilterPluginsWithNominatedPods(new CycleState(), pod("p", 1), node("n1"));

    assertThat(s).isEqualTo(Status.error("running AddPod on PreFilter plugin \"E\": cannot add"));
  }

  // --------------------------------------------------------------------------------------------
  // PostFilter

  static Stream<Arguments> postFilterCases() {
    return Stream.of(
        argumentSet(
            "Success ends the phase with its nomination",
            PostFilterResult.nominate("n1"),
            PostFilterResult.of(Status.unschedulable("unused")),
            new PostFilterResult(Status.success(), NominatingInfo.override("n1")),
            List.of("A.postFilter")),
        argumentSet(
            "UnschedulableAndUnresolvable ends the phase with the plugin",
            PostFilterResult.of(Status.unresolvable("hopeless")),
            PostFilterResult.nominate("n1"),
            PostFilterResult.of(Status.unresolvable("hopeless").withPlugin("A")),
            List.of("A.postFilter")),
        argumentSet(
            "an Error ends the phase",
            PostFilterResult.of(Status.error("crash")),
            PostFilterResult.nominate("n1"),
            PostFilterResult.of(Status.error("crash").withPlugin("A")),
            List.of("A.postFilter")),
        argumentSet(
            "Unschedulable gathers reasons, keeps the last non-Noop nomination and blames the"
                + " first rejector",
            new PostFilterResult(Status.unschedulable("a1", "a2"), NominatingInfo.override("")),
            PostFilterResult.of(Status.unschedulable("b1")),
            new PostFilterResult(
                Status.unschedulable("a1", "a2", "b1").withPlugin("A"),
                NominatingInfo.override("")),
            List.of("A.postFilter", "B.postFilter")));
  }

  @ParameterizedTest
  @MethodSource("postFilterCases")
  void runsPostFilterPlugins(
      PostFilterResult a, PostFilterResult b, PostFilterResult expected, List<String> calls) {
    Framework f =
        framework(
            "postFilter",
            List.of(fake("A").postFilter(m -> a).build(), fake("B").postFilter(m -> b).build()));

    PostFilterResult r = f.runPostFilterPlugins(new CycleState(), pod, new NodeToStatus());

    assertThat(r).isEqualTo(expected);
    assertThat(journal).isEqualTo(calls);
  }

  // --------------------------------------------------------------------------------------------
  // PreScore and Score

  @Test
  void preScoreSkipsAndFails() {
    Framework f =
        framework(
            "preScore",
            List.of(
                fake("A").preScore(Status.skip()).build(),
                fake("B").preScore(Status.unschedulable("no")).build(),
                fake("C").preScore(Status.success()).build()));
    CycleState state = new CycleState();

    Status s = f.runPreScorePlugins(state, pod, nodes("n1"));

    assertThat(s).isEqualTo(Status.error("running PreScore plugin \"B\": no"));
    assertThat(state.skipScorePlugins()).containsExactly("A");
    assertThat(journal).containsExactly("A.preScore", "B.preScore");
  }

  static Stream<Arguments> scoreCases() {
    Function<NodeInfo, Long> byIndex = n -> Long.parseLong(n.name().substring(1));
    return Stream.of(
        argumentSet(
            "scores are normalised, then weighted and summed",
            fake2("A", byIndex, null),
            fake2(
                "B",
                byIndex,
                s -> {
                  for (int i = 0; i < s.size(); i++) {
                    s.set(i, s.score(i) * 10);
                  }
                  return Status.success();
                }),
            Set.of(),
            Status.success(),
            List.of(
                new NodePluginScores("n1", Map.of("A", 1L, "B", 10L), 1 * 2 + 10 * 3),
                new NodePluginScores("n2", Map.of("A", 2L, "B", 20L), 2 * 2 + 20 * 3))),
        argumentSet(
            "a plugin skipped at PreScore does not score",
            fake2("A", byIndex, null),
            fake2("B", byIndex, null),
            Set.of("A"),
            Status.success(),
            List.of(
                new NodePluginScores("n1", Map.of("B", 1L), 3),
                new NodePluginScores("n2", Map.of("B", 2L), 6))),
        argumentSet(
            "a score outside [0, 100] after normalising is an Error",
            fake2("A", n -> 101L, null),
            fake2("B", byIndex, null),
            Set.of(),
            Status.error(
                "applying score defaultWeights on Score plugins: plugin \"A\" returns an invalid"
                    + " score 101, it should in the range of [0, 100] after normalizing"),
            List.of()),
        argumentSet(
            "a failing normalisation is an Error",
            fake2("A", byIndex, s -> Status.error("cannot")),
            fake2("B", byIndex, null),
            Set.of(),
            Status.error("running Normalize on Score plugins: plugin \"A\" failed with: cannot"),
            List.of()),
        argumentSet(
            "a throwing Score plugin is an Error",
            fake2(
                "A",
                n -> {
                  throw new IllegalStateException("boom");
                },
                null),
            fake2("B", byIndex, null),
            Set.of(),
            Status.error("running Score plugins: plugin \"A\" failed with: boom"),
            List.of()));
  }

  private static Plugin fake2(
      String name,
      Function<NodeInfo, Long> score,
      Function<io.kubesched.framework.NodeScores, Status> normalize) {
    Fake.Builder b = Fake.plugin(name).score(score);
    if (normalize != null) {
      b.normalize(normalize);
    }
    return b.build();
  }

  @ParameterizedTest
  @MethodSource("scoreCases")
  void runsScorePlugins(
      Plugin a, Plugin b, Set<String> skipped, Status expected, List<NodePluginScores> scores) {
    Framework f =
        Framework.create(
            basePlugins()
                .enableWeighted(
                    "score",
                    io.kubesched.core.config.PluginRef.of("A", 2),
                    io.kubesched.core.config.PluginRef.of("B", 3))
                .profile(),
            0,
            Fake.registry(a, b, queueSort(), binder()),
            Fixtures.context());
    CycleState state = new CycleState();
    EngineAccess.setSkipScorePlugins(state, skipped);

    Framework.ScoreOutcome out = f.runScorePlugins(state, pod, nodes("n1", "n2"));

    assertThat(out).isEqualTo(new Framework.ScoreOutcome(scores, expected));
  }

  // --------------------------------------------------------------------------------------------
  // Reserve / Unreserve

  static Stream<Arguments> reserveCases() {
    return Stream.of(
        argumentSet(
            "all succeed",
            Status.success(),
            Status.success(),
            List.of("A.reserve@n1", "B.reserve@n1", "C.reserve@n1")),
        argumentSet(
            "a rejection stops and carries the plugin",
            Status.unschedulable("taken"),
            Status.unschedulable("taken").withPlugin("B"),
            List.of("A.reserve@n1", "B.reserve@n1")),
        argumentSet(
            "another failure is an Error",
            Status.error("io"),
            Status.error("running Reserve plugin \"B\": io"),
            List.of("A.reserve@n1", "B.reserve@n1")));
  }

  @ParameterizedTest
  @MethodSource("reserveCases")
  void runsReservePlugins(Status b, Status expected, List<String> calls) {
    Framework f =
        framework(
            "reserve",
            List.of(
                fake("A").reserve(Status.success()).build(),
                fake("B").reserve(b).build(),
                fake("C").reserve(Status.success()).build()));

    Status s = f.runReservePluginsReserve(new CycleState(), pod, "n1");

    assertThat(s).isEqualTo(expected);
    assertThat(journal).isEqualTo(calls);
  }

  @Test
  void unreserveRunsEveryPluginInReverseOrderEvenWhenOneThrows() {
    Framework f =
        framework(
            "reserve",
            List.of(
                fake("A").reserve(Status.success()).build(),
                fake("B")
                    .reserve(Status.success())
                    .throwing("unreserve", new IllegalStateException("x"))
                    .build(),
                fake("C").reserve(Status.success()).build()));

    f.runReservePluginsUnreserve(new CycleState(), pod, "n1");

    assertThat(journal).containsExactly("C.unreserve@n1", "B.unreserve@n1", "A.unreserve@n1");
  }

  // --------------------------------------------------------------------------------------------
  // Permit

  static Stream<Arguments> permitCases() {
    return Stream.of(
        argumentSet(
            "all allow", PermitResult.allow(), PermitResult.allow(), Status.success(), Map.of()),
        argumentSet(
            "a rejection returns at once with the plugin",
            PermitResult.of(Status.unschedulable("no")),
            PermitResult.waitFor(Duration.ofSeconds(1)),
            Status.unschedulable("no").withPlugin("A"),
            Map.of()),
        argumentSet(
            "Wait registers a waiting pod, timeouts capped at 15 minutes",
            PermitResult.waitFor(Duration.ofHours(1)),
            PermitResult.waitFor(Duration.ofSeconds(10)),
            Status.waiting("one or more plugins asked to wait and no plugin rejected pod \"p\""),
            Map.of("A", Duration.ofMinutes(15), "B", Duration.ofSeconds(10))),
        argumentSet(
            "another code is an Error naming the plugin",
            PermitResult.allow(),
            PermitResult.of(Status.skip()),
            error("running Permit plugin \"B\": ", "B"),
            Map.of()));
  }

  @ParameterizedTest
  @MethodSource("permitCases")
  void runsPermitPlugins(
      PermitResult a, PermitResult b, Status expected, Map<String, Duration> timers) {
    ManualScheduler timersExec = new ManualScheduler();
    WaitingPods waiting = new WaitingPods(timersExec);
    Framework f =
        framework(
            "permit",
            Fixtures.context(new Fixtures.Nominator(), waiting, SchedulerMetrics.NOOP),
            List.of(fake("A").permit(a).build(), fake("B").permit(b).build()));

    Status s = f.runPermitPlugins(new CycleState(), pod, "n1");

    assertThat(s).isEqualTo(expected);
    if (timers.isEmpty()) {
      assertThat(f.getWaitingPod(pod.uid())).isEmpty();
    } else {
      assertThat(f.getWaitingPod(pod.uid()).orElseThrow().pendingPlugins())
          .containsExactlyInAnyOrderElementsOf(timers.keySet());
      // The shortest timer fires first, after exactly its (capped) duration.
      var signal = f.waitOnPermit(pod);
      timersExec.advance(Duration.ofSeconds(10).minusNanos(1));
      assertThat(signal).isNotDone();
      timersExec.advance(Duration.ofNanos(1));
      assertThat(f.getWaitingPod(pod.uid())).isEmpty();
      assertThat(signal)
          .isCompletedWithValue(
              Status.unschedulable("rejected due to timeout after waiting 10s at plugin B")
                  .withPlugin("B"));
    }
  }

  // --------------------------------------------------------------------------------------------
  // PreBind / Bind / PostBind

  static Stream<Arguments> preBindCases() {
    return Stream.of(
        argumentSet("success", Status.success(), Status.success()),
        argumentSet(
            "a rejection carries the plugin",
            Status.unschedulable("vol"),
            Status.unschedulable("vol").withPlugin("A")),
        argumentSet(
            "another failure is an Error",
            Status.error("io"),
            Status.error("running PreBind plugin \"A\": io")));
  }

  @ParameterizedTest
  @MethodSource("preBindCases")
  void runsPreBindPlugins(Status a, Status expected) {
    Framework f = framework("preBind", List.of(fake("A").preBind(a).build()));

    assertThat(f.runPreBindPlugins(new CycleState(), pod, "n1")).isEqualTo(expected);
  }

  static Stream<Arguments> bindCases() {
    return Stream.of(
        argumentSet(
            "Skip passes to the next binder; Success stops",
            Status.skip(),
            Status.success(),
            Status.success(),
            List.of("A.bind@n1", "B.bind@n1")),
        argumentSet(
            "Success of the first binder stops",
            Status.success(),
            Status.success(),
            Status.success(),
            List.of("A.bind@n1")),
        argumentSet(
            "every binder skips: Skip (a failed binding for the scheduler)",
            Status.skip(),
            Status.skip(),
            Status.skip(),
            List.of("A.bind@n1", "B.bind@n1")),
        argumentSet(
            "a rejection carries the plugin",
            Status.unschedulable("gone"),
            Status.success(),
            Status.unschedulable("gone").withPlugin("A"),
            List.of("A.bind@n1")),
        argumentSet(
            "an Error is wrapped",
            Status.skip(),
            Status.error("api down"),
            Status.error("running Bind plugin \"B\": api down"),
            List.of("A.bind@n1", "B.bind@n1")));
  }

  @ParameterizedTest
  @MethodSource("bindCases")
  void runsBindPlugins(Status a, Status b, Status expected, List<String> calls) {
    Framework f = framework("bind", List.of(fake("A").bind(a).build(), fake("B").bind(b).build()));

    Status s = f.runBindPlugins(new CycleState(), pod, "n1");

    assertThat(s).isEqualTo(expected);
    assertThat(journal).isEqualTo(calls);
  }

  @Test
  void postBindRunsEveryPluginEvenWhenOneThrows() {
    Framework f =
        framework(
            "postBind",
            List.of(fake("A").postBindThrowing().build(), fake("B").postBind().build()));

    f.runPostBindPlugins(new CycleState(), pod, "n1");

    assertThat(journal).containsExactly("A.postBind@n1", "B.postBind@n1");
  }

  // --------------------------------------------------------------------------------------------
  // PreEnqueue

  @Test
  void preEnqueueReturnsTheFirstNonSuccessWithItsPlugin() {
    Framework f =
        framework(
            "preEnqueue",
            List.of(
                fake("A").preEnqueue(p -> Status.success()).build(),
                fake("B").preEnqueue(p -> Status.unresolvable("gated")).build(),
                fake("C").preEnqueue(p -> Status.unresolvable("never asked")).build()));

    assertThat(f.runPreEnqueuePlugins(pod)).isEqualTo(Status.unresolvable("gated").withPlugin("B"));
    assertThat(journal).containsExactly("A.preEnqueue", "B.preEnqueue");
  }

  // --------------------------------------------------------------------------------------------
  // Metrics

  @Test
  void recordsExtensionPointsAlwaysAndPluginsOnlyWhenSampled() {
    InMemoryMetrics metrics = new InMemoryMetrics();
    Framework f =
        framework(
            "reserve",
            Fixtures.context(
                new Fixtures.Nominator(), new WaitingPods(new ManualScheduler()), metrics),
            List.of(fake("A").reserve(Status.success()).build()));
    CycleState sampled = new CycleState();
    EngineAccess.setRecordPluginMetrics(sampled, true);

    f.runReservePluginsReserve(new CycleState(), pod, "n1");
    f.runReservePluginsReserve(sampled, pod, "n1");

    assertThat(
            List.of(
                metrics.count(
                    InMemoryMetrics.EXTENSION_POINT_DURATION,
                    "Reserve",
                    "Success",
                    "default-scheduler"),
                metrics.count(
                    InMemoryMetrics.PLUGIN_EXECUTION_DURATION, "A", "Reserve", "Success")))
        .containsExactly(2L, 1L);
  }

  // --------------------------------------------------------------------------------------------
  // Handle and lifecycle

  @Test
  void samplesPluginMetricsInAboutTenPercentOfCycles() {
    java.util.Random random = new java.util.Random(5);
    int sampled = 0;
    for (int i = 0; i < 10_000; i++) {
      if (Framework.newCycleState(random).recordPluginMetrics()) {
        sampled++;
      }
    }

    assertThat(sampled).isBetween(900, 1100);
  }

  @Test
  void handleDelegatesToTheContext() {
    List<Object> activated = new ArrayList<>();
    Fixtures.Lister snapshot = new Fixtures.Lister(nodes("n1"));
    FrameworkContext ctx =
        new FrameworkContext(
            null,
            null,
            Fixtures.clock(),
            ExecutorParallelizer.callerRuns(),
            null,
            () -> snapshot,
            new WaitingPods(new ManualScheduler()),
            activated::addAll,
            null);
    Framework f = framework("filter", ctx, List.of(fake("A").filter(Status.success()).build()));

    f.activate(List.of(pod.pod()));

    assertThat(f.snapshot()).isSameAs(snapshot);
    assertThat(f.clock()).isEqualTo(Fixtures.clock());
    assertThat(f.nominator().nominatedPodsForNode("n1")).isEmpty();
    assertThat(activated).containsExactly(pod.pod());
  }
}
