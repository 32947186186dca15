package io.kubesched.plugins.defaultpreemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cluster.CoreEvent;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.PluginConfig;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.config.PluginSet;
import io.kubesched.core.config.Plugins;
import io.kubesched.core.config.Profile;
import io.kubesched.core.metrics.InMemoryMetrics;
import io.kubesched.core.runtime.FitError;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.FrameworkContext;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.runtime.SchedulingAlgorithm;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.FailingExtensions;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.ResourceFit;
import io.kubesched.testing.FakeClock;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DefaultPreemption end to end: the runtime's {@link Framework} builds it from its provider, the
 * {@link SchedulingAlgorithm} produces the filter statuses, PostFilter preempts on an {@link
 * InMemoryCluster}.
 */
final class DefaultPreemptionFrameworkTest {
  private static final String FIT = "NodeResourcesFit";
  private static final String TEST_PLUGIN = "test-plugin";

  private final FakeClock clock = FakeClock.at(Instant.parse("2026-01-01T00:00:00Z"));
  private final InMemoryCluster cluster = new InMemoryCluster(clock);
  private final InMemoryMetrics metrics = new InMemoryMetrics();
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final List<V1Pod> activated = new ArrayList<>();

  @AfterEach
  void stopTimers() {
    timers.shutdownNow();
  }

  /** A test plugin whose PreFilter does nothing and whose AddPod/RemovePod fail on error nodes. */
  static final class TestPlugin extends FailingExtensions implements PreFilterPlugin {
    @Override
    public String name() {
      return TEST_PLUGIN;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
      return PreFilterResult.success();
    }
  }

  static final class PrioritySort implements QueueSortPlugin {
    @Override
    public String name() {
      return "PrioritySort";
    }

    @Override
    public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
      return a.podInfo().priority() > b.podInfo().priority();
    }
  }

  static final class Binder implements BindPlugin {
    @Override
    public String name() {
      return "DefaultBinder";
    }

    @Override
    public Status bind(CycleState state, PodInfo pod, String nodeName) {
      return Status.success();
    }
  }

  private static PluginProvider<NoArgs> provider(String name, Supplier<Plugin> factory) {
    Class<? extends Plugin> type = factory.get().getClass();
    return new PluginProvider<>() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Class<NoArgs> argsType() {
        return NoArgs.class;
      }

      @Override
      public NoArgs defaultArgs() {
        return NoArgs.INSTANCE;
      }

      @Override
      public Class<? extends Plugin> pluginType() {
        return type;
      }

      @Override
      public Plugin create(NoArgs args, io.kubesched.framework.FrameworkHandle handle) {
        return factory.get();
      }
    };
  }

  private record Lister(List<NodeInfo> list) implements NodeInfoLister {
    @Override
    public List<NodeInfo> havePodsWithAffinityList() {
      return List.of();
    }

    @Override
    public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
      return List.of();
    }

    @Override
    public NodeInfo get(String nodeName) {
      NodeInfo n = find(nodeName);
      if (n == null) {
        throw new SchedulingException("nodeinfo not found for node name \"" + nodeName + "\"");
      }
      return n;
    }

    @Override
    public NodeInfo find(String nodeName) {
      return list.stream().filter(n -> n.name().equals(nodeName)).findFirst().orElse(null);
    }
  }

  private Lister snapshot() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (V1Node n : cluster.listNodes()) {
      NodeInfo ni = new NodeInfo();
      ni.setNode(n);
      nodes.add(ni);
    }
    Lister lister = new Lister(nodes);
    for (V1Pod p : cluster.listPods()) {
      if (p.getSpec().getNodeName() != null) {
        lister.get(p.getSpec().getNodeName()).addPod(PodInfo.of(p));
      }
    }
    return lister;
  }

  private Framework framework(Lister lister, DefaultPreemptionArgs args) {
    PluginRegistry registry =
        PluginRegistry.empty()
            .register(new DefaultPreemptionProvider())
            .register(provider("PrioritySort", PrioritySort::new))
            .register(provider("DefaultBinder", Binder::new))
            .register(provider(FIT, ResourceFit::new))
            .register(provider(TEST_PLUGIN, TestPlugin::new));
    PluginSet preemption = PluginSet.enabled(PluginRef.of(DefaultPreemption.NAME));
    Plugins plugins =
        new Plugins(
            preemption,
            PluginSet.enabled(PluginRef.of("PrioritySort")),
            PluginSet.enabled(PluginRef.of(TEST_PLUGIN)),
            PluginSet.enabled(PluginRef.of(FIT)),
            preemption,
            null,
            null,
            null,
            null,
            null,
            PluginSet.enabled(PluginRef.of("DefaultBinder")),
            null,
            null);
    Profile profile =
        new Profile(
            "default-scheduler",
            null,
            plugins,
            List.of(new PluginConfig(DefaultPreemption.NAME, args)));
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
    FrameworkContext ctx =
        new FrameworkContext(
            cluster,
            cluster,
            clock,
            sequential,
            node -> List.of(),
            () -> lister,
            new WaitingPods(timers),
            activated::addAll,
            metrics);
    return Framework.create(profile, 0, registry, ctx);
  }

  /** Runs a scheduling cycle that must fail, then PostFilter, as the scheduler does. */
  private PostFilterResult scheduleAndPreempt(V1Pod preemptor, DefaultPreemptionArgs args) {
    cluster.addPod(preemptor);
    Lister lister = snapshot();
    Framework fwk = framework(lister, args);
    CycleState state = new CycleState();
    PodInfo pod = PodInfo.of(cluster.getPod("default", preemptor.getMetadata().getName()).get());
    FitError fitError =
        catchThrowableOfType(
            FitError.class,
            () -> new SchedulingAlgorithm(new Random(0)).schedulePod(fwk, state, pod, lister));
    assertThat(fitError).as("the pod must not fit before preemption").isNotNull();
    return fwk.runPostFilterPlugins(state, pod, fitError.diagnosis().nodeToStatus());
  }

  private static List<String> podNames(List<V1Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getName()).sorted().toList();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "the lowest-priority pods that make room are evicted and the node is nominated",
            List.of(MakeNode.node().name("node1").capacity("cpu", "500m", "memory", "500").obj()),
            List.of(
                MakePod.pod()
                    .name("p1.1")
                    .node("node1")
                    .priority(0)
                    .req("cpu", "100m", "memory", "100")
                    .obj(),
                MakePod.pod()
                    .name("p1.2")
                    .node("node1")
                    .priority(100)
                    .req("cpu", "200m", "memory", "200")
                    .obj(),
                MakePod.pod()
                    .name("p1.3")
                    .node("node1")
                    .priority(1000)
                    .req("cpu", "100m", "memory", "100")
                    .obj()),
            MakePod.pod().name("p").priority(1000).req("cpu", "300m", "memory", "300").obj(),
            PostFilterResult.nominate("node1"),
            List.of("p", "p1.1", "p1.3")),
        argumentSet(
            "the node whose victims have the lowest highest priority is chosen",
            List.of(
                MakeNode.node().name("node1").capacity("cpu", "500m", "memory", "500").obj(),
                MakeNode.node().name("node2").capacity("cpu", "500m", "memory", "500").obj()),
            List.of(
                MakePod.pod().name("a").node("node1").priority(100).req("cpu", "400m").obj(),
                MakePod.pod().name("b").node("node2").priority(50).req("cpu", "400m").obj()),
            MakePod.pod().name("p").priority(1000).req("cpu", "300m").obj(),
            PostFilterResult.nominate("node2"),
            List.of("a", "p")),
        argumentSet(
            "no lower-priority pod to evict gives the FitError-style message",
            List.of(
                MakeNode.node().name("node1").capacity("cpu", "500m", "memory", "500").obj(),
                MakeNode.node().name("node2").capacity("cpu", "100m", "memory", "500").obj()),
            List.of(
                MakePod.pod().name("a").node("node1").priority(1000).req("cpu", "400m").obj(),
                MakePod.pod().name("b").node("node2").priority(0).obj()),
            MakePod.pod().name("p").priority(1000).req("cpu", "300m").obj(),
            new PostFilterResult(
                new Status(
                    Status.Code.UNSCHEDULABLE,
                    List.of(
                        "preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 No preemption"
                            + " victims found for incoming pod."),
                    null,
                    DefaultPreemption.NAME),
                NominatingInfo.override("")),
            List.of("a", "b", "p")),
        argumentSet(
            "a RemovePod error of a PreFilter plugin fails preemption with the runtime's message",
            List.of(
                MakeNode.node()
                    .name("node1")
                    .label("error", "true")
                    .capacity("cpu", "300m", "memory", "300")
                    .obj()),
            List.of(MakePod.pod().name("p1").node("node1").req("cpu", "100m").obj()),
            MakePod.pod().name("p").priority(1000).req("cpu", "300m", "memory", "300").obj(),
            PostFilterResult.of(
                Status.error(
                        "preemption: running RemovePod on PreFilter plugin \"test-plugin\":"
                            + " failed to remove pod: p")
                    .withPlugin(DefaultPreemption.NAME)),
            List.of("p", "p1")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void preempt(
      List<V1Node> nodes,
      List<V1Pod> pods,
      V1Pod preemptor,
      PostFilterResult want,
      List<String> wantRemainingPods) {
    nodes.forEach(cluster::addNode);
    pods.forEach(cluster::addPod);

    PostFilterResult got = scheduleAndPreempt(preemptor, DefaultPreemptionArgs.defaults());

    assertThat(got).isEqualTo(want);
    assertThat(podNames(cluster.listPods())).isEqualTo(wantRemainingPods);
  }

  @Test
  void victimsGetAnEventAndTheMetricsCountTheAttemptAndVictims() {
    cluster.addNode(MakeNode.node().name("node1").capacity("pods", "1").obj());
    cluster.addPod(MakePod.pod().name("victim").node("node1").obj());

    PostFilterResult got =
        scheduleAndPreempt(
            MakePod.pod().name("p").priority(10).obj(), DefaultPreemptionArgs.defaults());

    assertThat(got).isEqualTo(PostFilterResult.nominate("node1"));
    assertThat(cluster.eventsFor("Pod", "default", "victim"))
        .extracting(CoreEvent::type, CoreEvent::reason, CoreEvent::action, CoreEvent::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "Normal", "Preempted", "Preempting", "Preempted by pod default/p on node node1"));
    assertThat(metrics.count(InMemoryMetrics.PREEMPTION_ATTEMPTS)).isEqualTo(1);
    assertThat(metrics.sum(InMemoryMetrics.PREEMPTION_VICTIMS)).isEqualTo(1);
  }
}
