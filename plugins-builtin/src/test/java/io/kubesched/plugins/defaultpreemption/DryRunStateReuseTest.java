package io.kubesched.plugins.defaultpreemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
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
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.preemption.DisruptionBudget;
import io.kubesched.preemption.DryRunResult;
import io.kubesched.preemption.Evaluator;
import io.kubesched.preemption.PreemptionInterface;
import io.kubesched.preemption.VictimSelection;
import io.kubesched.testing.FakeClock;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dry run's reuse of one cycle-state copy per worker slot ({@link
 * PreemptionInterface#changesStateOnlyThroughExtensions()}) finds exactly what a copy per node
 * finds: the same candidates with the same victims in the same order, the same node statuses and
 * errors, with the builtin plugins of a real {@link Framework}, budgets, nominated pods, affinity
 * and spreading, one worker or several.
 */
final class DryRunStateReuseTest {
  private static final OffsetDateTime T0 =
      OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
  private final FakeClock clock = FakeClock.at(Instant.parse("2026-01-01T01:00:00Z"));
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService workers = Executors.newFixedThreadPool(3);

  @AfterEach
  void stop() {
    timers.shutdownNow();
    workers.shutdownNow();
  }

  /** Eight nodes in two zones, each with four pods of mixed priorities, sizes and labels. */
  private static List<V1Node> nodes() {
    List<V1Node> out = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      out.add(
          MakeNode.node()
              .name("node" + i)
              .label("hostname", "node" + i)
              .label("zone", "zone" + (i % 2))
              .capacity("cpu", "1000m", "memory", "1000", "pods", "10")
              .obj());
    }
    return out;
  }

  private static List<V1Pod> pods() {
    List<V1Pod> out = new ArrayList<>();
    int[] priorities = {PreemptionFixtures.LOW, PreemptionFixtures.MID, PreemptionFixtures.LOW};
    for (int i = 0; i < 8; i++) {
      for (int k = 0; k < 4; k++) {
        int n = i * 4 + k;
        MakePod p =
            MakePod.pod()
                .name("p" + i + "-" + k)
                .node("node" + i)
                .priority(k == 3 && i % 3 == 0 ? PreemptionFixtures.HIGH : priorities[n % 3])
                .req(
                    "cpu", (150 + 50 * (n % 3)) + "m", "memory", String.valueOf(150 + 50 * (n % 3)))
                .label("app", n % 2 == 0 ? "web" : "db");
        if (n % 5 != 0) {
          // some pods have not started: kube's quirky order of equal pods applies to them
          p.startTime(T0.plusSeconds(n % 4));
        }
        out.add(p.obj());
      }
    }
    return out;
  }

  private static MakePod preemptor() {
    return MakePod.pod()
        .name("preemptor")
        .uid("preemptor")
        .priority(PreemptionFixtures.VERY_HIGH)
        .req("cpu", "450m", "memory", "450");
  }

  static Stream<Arguments> cases() {
    List<V1PodDisruptionBudget> none = List.of();
    List<V1PodDisruptionBudget> budgets =
        List.of(
            PreemptionFixtures.pdb("web", "app", "web", 1),
            PreemptionFixtures.pdb("db", "app", "db", 0));
    Map<String, List<V1Pod>> noNominations = Map.of();
    Map<String, List<V1Pod>> nominations =
        Map.of(
            "node1",
            List.of(nominee("n1", "node1", PreemptionFixtures.VERY_HIGH, 300)),
            "node4",
            List.of(
                nominee("n4a", "node4", PreemptionFixtures.HIGH, 100),
                nominee("n4b", "node4", PreemptionFixtures.VERY_HIGH + 1, 200)),
            "node6",
            List.of(nominee("n6", "node6", PreemptionFixtures.LOW, 400)));
    return Stream.of(
        argumentSet("resources only", preemptor().obj(), none, noNominations, true),
        argumentSet("with budgets", preemptor().obj(), budgets, noNominations, true),
        argumentSet("with nominated pods", preemptor().obj(), budgets, nominations, true),
        argumentSet(
            "anti-affinity: extensions active, a copy per node",
            preemptor().label("app", "web").podAntiAffinity("hostname", "app", "web").obj(),
            budgets,
            nominations,
            false),
        argumentSet(
            "topology spread: extensions active, a copy per node",
            preemptor()
                .label("app", "db")
                .spreadConstraint(
                    c ->
                        c.maxSkew(1)
                            .topologyKey("zone")
                            .whenUnsatisfiable("DoNotSchedule")
                            .selectorExists("app"))
                .obj(),
            none,
            nominations,
            false));
  }

  private static V1Pod nominee(String name, String node, int priority, int size) {
    return MakePod.pod()
        .name(name)
        .nominatedNode(node)
        .priority(priority)
        .req("cpu", size + "m", "memory", String.valueOf(size))
        .label("app", "web")
        .obj();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void reusedStateFindsWhatACopyPerNodeFinds(
      V1Pod preemptor,
      List<V1PodDisruptionBudget> budgets,
      Map<String, List<V1Pod>> nominated,
      boolean reused) {
    for (int parallelism : new int[] {1, 3}) {
      Framework fwk = framework(nominated, parallelism);
      DefaultPreemption plugin = (DefaultPreemption) fwk.plugins().get(DefaultPreemption.NAME);
      PodInfo pod = PodInfo.of(preemptor);
      CycleState state = new CycleState();
      assertThat(fwk.runPreFilterPlugins(state, pod, fwk.snapshot().list()).status().isSuccess())
          .isTrue();
      assertThat(fwk.preFilterExtensionsActive(state)).isEqualTo(!reused);
      List<DisruptionBudget> pdbs = DisruptionBudget.ofAll(budgets);
      List<NodeInfo> nodes = fwk.snapshot().list();
      for (int[] window : new int[][] {{0, nodes.size()}, {3, 2}, {5, 1}}) {
        DryRunResult want =
            new Evaluator(DefaultPreemption.NAME, fwk, new CopyPerNode(plugin))
                .dryRunPreemption(state, pod, nodes, pdbs, window[0], window[1]);
        DryRunResult got =
            plugin.evaluator().dryRunPreemption(state, pod, nodes, pdbs, window[0], window[1]);
        assertThat(describe(got))
            .as("parallelism %d, offset %d, %d candidates", parallelism, window[0], window[1])
            .isEqualTo(describe(want));
        assertThat(want.candidates()).isNotEmpty();
      }
    }
  }

  /**
   * A policy that claims to change the state only through the extensions but writes to it: the copy
   * it wrote to must not reach the next node (it would fail every node after the first).
   */
  @ParameterizedTest
  @MethodSource("cases")
  void aWrittenCopyIsNotReused(
      V1Pod preemptor,
      List<V1PodDisruptionBudget> budgets,
      Map<String, List<V1Pod>> nominated,
      boolean reused) {
    Framework fwk = framework(nominated, 1);
    DefaultPreemption plugin = (DefaultPreemption) fwk.plugins().get(DefaultPreemption.NAME);
    PodInfo pod = PodInfo.of(preemptor);
    CycleState state = new CycleState();
    fwk.runPreFilterPlugins(state, pod, fwk.snapshot().list());
    List<DisruptionBudget> pdbs = DisruptionBudget.ofAll(budgets);
    List<NodeInfo> nodes = fwk.snapshot().list();
    DryRunResult want =
        plugin.evaluator().dryRunPreemption(state, pod, nodes, pdbs, 0, nodes.size());
    DryRunResult got =
        new Evaluator(DefaultPreemption.NAME, fwk, new Writing(plugin))
            .dryRunPreemption(state, pod, nodes, pdbs, 0, nodes.size());
    assertThat(describe(got)).isEqualTo(describe(want));
    assertThat(state.read(Writing.KEY)).isEmpty();
  }

  /** The result as text: candidates in order with victims in order, then statuses and errors. */
  private static String describe(DryRunResult r) {
    StringBuilder b = new StringBuilder();
    r.candidates()
        .forEach(
            c ->
                b.append(c.name())
                    .append(' ')
                    .append(c.victims().stream().map(PodInfo::name).toList())
                    .append(" violations=")
                    .append(c.numPdbViolations())
                    .append('\n'));
    new TreeMap<>(r.nodeStatuses())
        .forEach((node, s) -> b.append(node).append(": ").append(s).append('\n'));
    b.append("errors ").append(r.errors());
    return b.toString();
  }

  private Framework framework(Map<String, List<V1Pod>> nominated, int parallelism) {
    Snapshot snapshot = Snapshot.of(nodes(), pods());
    PluginSet filters =
        new PluginSet(
            Stream.of("NodeResourcesFit", "NodePorts", "InterPodAffinity", "PodTopologySpread")
                .map(PluginRef::of)
                .toList(),
            List.of());
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
    Map<String, List<PodInfo>> byNode = new TreeMap<>();
    nominated.forEach((node, pods) -> byNode.put(node, pods.stream().map(PodInfo::of).toList()));
    InMemoryCluster cluster = new InMemoryCluster(clock);
    return Framework.create(
        new Profile(
            "default-scheduler",
            null,
            plugins,
            List.of(new PluginConfig(DefaultPreemption.NAME, DefaultPreemptionArgs.defaults()))),
        0,
        PluginRegistry.discover(),
        new FrameworkContext(
            cluster,
            cluster,
            clock,
            parallelizer(parallelism),
            node -> byNode.getOrDefault(node, List.of()),
            () -> snapshot,
            new WaitingPods(timers),
            p -> {},
            null,
            null));
  }

  /** Runs the pieces on {@code parallelism} threads at once (in order with one). */
  private Parallelizer parallelizer(int parallelism) {
    return new Parallelizer() {
      @Override
      public int parallelism() {
        return parallelism;
      }

      @Override
      public void until(int pieces, IntConsumer work) {
        if (parallelism == 1) {
          for (int i = 0; i < pieces; i++) {
            work.accept(i);
          }
          return;
        }
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < pieces; i++) {
          int piece = i;
          done.add(workers.submit(() -> work.accept(piece)));
        }
        for (Future<?> f : done) {
          try {
            f.get();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      }
    };
  }

  /** DefaultPreemption's policy with a copy of the state per node (the default of the SPI). */
  private static class CopyPerNode implements PreemptionInterface {
    final DefaultPreemption policy;

    CopyPerNode(DefaultPreemption policy) {
      this.policy = policy;
    }

    @Override
    public Window offsetAndNumCandidates(int numNodes) {
      return policy.offsetAndNumCandidates(numNodes);
    }

    @Override
    public Optional<String> podEligibleToPreemptOthers(PodInfo pod, Status nominatedNodeStatus) {
      return policy.podEligibleToPreemptOthers(pod, nominatedNodeStatus);
    }

    @Override
    public Optional<VictimSelection> selectVictimsWithoutCopy(PodInfo pod, NodeInfo node) {
      return policy.selectVictimsWithoutCopy(pod, node);
    }

    @Override
    public VictimSelection selectVictimsOnNode(
        CycleState state, PodInfo pod, NodeInfo node, List<DisruptionBudget> pdbs) {
      return policy.selectVictimsOnNode(state, pod, node, pdbs);
    }
  }

  /** Claims to change the state only through the extensions, but marks it as seen. */
  private static final class Writing extends CopyPerNode {
    static final StateKey<Seen> KEY = StateKey.of("test/seen", Seen.class);

    record Seen() implements StateData {}

    Writing(DefaultPreemption policy) {
      super(policy);
    }

    @Override
    public boolean changesStateOnlyThroughExtensions() {
      return true;
    }

    @Override
    public VictimSelection selectVictimsOnNode(
        CycleState state, PodInfo pod, NodeInfo node, List<DisruptionBudget> pdbs) {
      if (state.read(KEY).isPresent()) {
        return VictimSelection.failed(Status.error("saw another node's write"));
      }
      state.write(KEY, new Seen());
      return super.selectVictimsOnNode(state, pod, node, pdbs);
    }
  }
}
