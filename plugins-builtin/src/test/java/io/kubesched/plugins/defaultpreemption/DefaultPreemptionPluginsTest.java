package io.kubesched.plugins.defaultpreemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.PluginConfig;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.config.PluginSet;
import io.kubesched.core.config.Plugins;
import io.kubesched.core.config.Profile;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.FrameworkContext;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PodInfo;
import io.kubesched.testing.FakeClock;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dry run with the builtin plugins whose PreFilter state preemption must update through
 * AddPod/RemovePod (kube's {@code TestDryRunPreemption} cases "pod with anti-affinity is preempted"
 * and "preemption to resolve pod topology spread filter failure").
 */
final class DefaultPreemptionPluginsTest {
  private final FakeClock clock = FakeClock.at(Instant.parse("2026-01-01T00:00:00Z"));
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stopTimers() {
    timers.shutdownNow();
  }

  /** A candidate by node name and its victims' names. */
  record Cand(String node, List<String> victims) {}

  /** Nodes named by {@code "host/zone"} with hostname and zone labels and 500m/500/32 pods. */
  private static List<V1Node> nodes(String... specs) {
    return Stream.of(specs)
        .map(
            spec -> {
              String[] parts = spec.split("/");
              MakeNode n =
                  MakeNode.node()
                      .name(parts[0])
                      .label("hostname", parts[0])
                      .capacity("cpu", "500m", "memory", "500");
              if (parts.length > 1) {
                n.label("zone", parts[1]);
              }
              return n.obj();
            })
        .toList();
  }

  private static MakePod small(String name, int priority) {
    return MakePod.pod().name(name).priority(priority).req("cpu", "100m", "memory", "100");
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "pod with anti-affinity is preempted",
            List.of("NodeResourcesFit", "InterPodAffinity"),
            nodes("node1", "node2"),
            small("p", PreemptionFixtures.HIGH).label("foo", "").obj(),
            List.of(
                small("p1.1", PreemptionFixtures.LOW)
                    .node("node1")
                    .label("foo", "")
                    .podAntiAffinityExists("hostname", "foo")
                    .obj(),
                small("p1.2", PreemptionFixtures.MID).node("node1").obj(),
                small("p1.3", PreemptionFixtures.HIGH).node("node1").obj(),
                small("p2", PreemptionFixtures.HIGH).node("node2").obj()),
            List.of(new Cand("node1", List.of("p1.1")))),
        argumentSet(
            "preemption to resolve pod topology spread filter failure",
            List.of("PodTopologySpread"),
            nodes("node-a/zone1", "node-b/zone1", "node-x/zone2"),
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .priority(PreemptionFixtures.HIGH)
                .spreadConstraint(
                    c ->
                        c.maxSkew(1)
                            .topologyKey("zone")
                            .whenUnsatisfiable("DoNotSchedule")
                            .selectorExists("foo"))
                .spreadConstraint(
                    c ->
                        c.maxSkew(1)
                            .topologyKey("hostname")
                            .whenUnsatisfiable("DoNotSchedule")
                            .selectorExists("foo"))
                .obj(),
            List.of(
                MakePod.pod()
                    .name("pod-a1")
                    .node("node-a")
                    .label("foo", "")
                    .priority(PreemptionFixtures.MID)
                    .obj(),
                MakePod.pod()
                    .name("pod-a2")
                    .node("node-a")
                    .label("foo", "")
                    .priority(PreemptionFixtures.LOW)
                    .obj(),
                MakePod.pod()
                    .name("pod-b1")
                    .node("node-b")
                    .label("foo", "")
                    .priority(PreemptionFixtures.LOW)
                    .obj(),
                MakePod.pod()
                    .name("pod-x1")
                    .node("node-x")
                    .label("foo", "")
                    .priority(PreemptionFixtures.HIGH)
                    .obj(),
                MakePod.pod()
                    .name("pod-x2")
                    .node("node-x")
                    .label("foo", "")
                    .priority(PreemptionFixtures.HIGH)
                    .obj()),
            List.of(new Cand("node-a", List.of("pod-a2")), new Cand("node-b", List.of("pod-b1")))));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void dryRun(
      List<String> filterPlugins,
      List<V1Node> nodes,
      V1Pod preemptor,
      List<V1Pod> pods,
      List<Cand> want) {
    Snapshot snapshot = Snapshot.of(nodes, pods);
    PluginSet filters =
        new PluginSet(filterPlugins.stream().map(PluginRef::of).toList(), List.of());
    PluginSet preemption = PluginSet.enabled(PluginRef.of(DefaultPreemption.NAME));
    Plugins plugins =
        new Plugins(
            preemption,
            PluginSet.enabled(PluginRef.of("PrioritySort")),
            filters,
            filters,
            preemption,
            null,
            null,
            null,
            null,
            null,
            PluginSet.enabled(PluginRef.of("DefaultBinder")),
            null,
            null);
    Parallelizer sequential =
        new Parallelizer() {
          @Override
          public int parallelism() {
            return 1;
          }

          @Override
          public void until(int pieces, IntConsumer work) {
            for (int i = 0; i < pieces; i++) {
              work.accept(i);
            }
          }
        };
    InMemoryCluster cluster = new InMemoryCluster(clock);
    Framework fwk =
        Framework.create(
            new Profile(
                "default-scheduler",
                null,
                plugins,
                List.of(
                    new PluginConfig(DefaultPreemption.NAME, DefaultPreemptionArgs.defaults()))),
            0,
            PluginRegistry.discover(),
            new FrameworkContext(
                cluster,
                cluster,
                clock,
                sequential,
                node -> List.of(),
                () -> snapshot,
                new WaitingPods(timers),
                p -> {},
                null));
    DefaultPreemption pl = (DefaultPreemption) fwk.plugins().get(DefaultPreemption.NAME);
    CycleState state = new CycleState();
    PodInfo pod = PodInfo.of(preemptor);
    assertThat(fwk.runPreFilterPlugins(state, pod, snapshot.list()).status().isSuccess()).isTrue();

    List<Cand> got =
        pl
            .evaluator()
            .dryRunPreemption(state, pod, snapshot.list(), List.of(), 0, snapshot.list().size())
            .candidates()
            .stream()
            .map(c -> new Cand(c.name(), c.victims().stream().map(PodInfo::name).toList()))
            .sorted(Comparator.comparing(Cand::node))
            .toList();

    assertThat(got).isEqualTo(want);
  }
}
