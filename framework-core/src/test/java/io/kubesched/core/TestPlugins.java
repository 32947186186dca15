package io.kubesched.core;

import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.config.PluginSet;
import io.kubesched.core.config.Plugins;
import io.kubesched.core.config.Profile;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.Resource;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Plugins for the scheduler's end-to-end tests (the builtin plugins live in another module), and
 * helpers that build a registry and a configuration from them.
 */
final class TestPlugins {
  private TestPlugins() {}

  /** Orders by priority (higher first), then by queue timestamp, like PrioritySort. */
  static final class Sort implements QueueSortPlugin {
    static final String NAME = "TestSort";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
      int pa = a.podInfo().priority();
      int pb = b.podInfo().priority();
      return pa > pb || (pa == pb && a.timestamp().isBefore(b.timestamp()));
    }
  }

  /**
   * Checks CPU and memory requests against what is left on the node, with NodeResourcesFit's
   * reasons; requeues only on events that can free or add resources.
   */
  static final class Fit implements FilterPlugin, EnqueueExtensions {
    static final String NAME = "TestFit";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      Resource req = pod.requests();
      Resource alloc = node.allocatable();
      Resource used = node.requested();
      List<String> reasons = new ArrayList<>(2);
      if (req.milliCpu() > 0 && req.milliCpu() > alloc.milliCpu() - used.milliCpu()) {
        reasons.add("Insufficient cpu");
      }
      if (req.memory() > 0 && req.memory() > alloc.memory() - used.memory()) {
        reasons.add("Insufficient memory");
      }
      return reasons.isEmpty()
          ? Status.success()
          : Status.unschedulable(reasons.toArray(String[]::new));
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
      return List.of(
          ClusterEventWithHint.of(EventResource.POD, ActionType.DELETE),
          ClusterEventWithHint.of(
              EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_ALLOCATABLE));
    }
  }

  /** Rejects nodes whose {@code zone} label differs from the pod's {@code zone} label, if any. */
  static final class Zone implements FilterPlugin, EnqueueExtensions {
    static final String NAME = "TestZone";
    static final String REASON = "node(s) didn't match Pod's node affinity/selector";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      String want = pod.labels().get("zone");
      if (want == null || want.equals(node.labels().get("zone"))) {
        return Status.success();
      }
      return Status.unresolvable(REASON);
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
      return List.of(
          ClusterEventWithHint.of(
              EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL));
    }
  }

  /** Prefers the node with the most free CPU (0–100). */
  static final class MostFreeCpu implements ScorePlugin {
    static final String NAME = "TestMostFreeCpu";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      long alloc = node.allocatable().milliCpu();
      if (alloc == 0) {
        return 0;
      }
      long free = alloc - node.requested().milliCpu() - pod.requests().milliCpu();
      return Math.max(0, free * 100 / alloc);
    }
  }

  /** Binds through the cluster client, like DefaultBinder. */
  static final class Binder implements BindPlugin {
    static final String NAME = "TestBinder";
    private final FrameworkHandle handle;

    Binder(FrameworkHandle handle) {
      this.handle = handle;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Status bind(CycleState state, PodInfo pod, String nodeName) {
      try {
        handle.client().bind(pod.pod(), nodeName);
        return Status.success();
      } catch (RuntimeException e) {
        return Status.error(e);
      }
    }
  }

  /** Makes pods labelled {@code wait} wait at Permit for {@link #TIMEOUT}; records Unreserve. */
  static final class WaitPermit implements PermitPlugin, ReservePlugin {
    static final String NAME = "TestWaitPermit";
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    final List<String> unreserved = Collections.synchronizedList(new ArrayList<>());

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
      return pod.labels().containsKey("wait")
          ? PermitResult.waitFor(TIMEOUT)
          : PermitResult.allow();
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      return Status.success();
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
      unreserved.add(pod.key() + "@" + nodeName);
    }
  }

  /** Fails Reserve with an Error on the first attempt of pods labelled {@code flaky}. */
  static final class FlakyReserve implements ReservePlugin {
    static final String NAME = "TestFlakyReserve";
    private final Set<String> failed = ConcurrentHashMap.newKeySet();
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      calls.incrementAndGet();
      if (pod.labels().containsKey("flaky") && failed.add(pod.uid())) {
        return Status.error("transient failure");
      }
      return Status.success();
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {}
  }

  /** Throws from Filter for pods labelled {@code boom}. */
  static final class Throwing implements FilterPlugin {
    static final String NAME = "TestThrowing";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      if (pod.labels().containsKey("boom")) {
        throw new IllegalStateException("boom");
      }
      return Status.success();
    }
  }

  /** Returns a provider without arguments that creates {@code plugin}'s instance. */
  static PluginProvider<NoArgs> provider(
      String name, Class<? extends Plugin> type, Function<FrameworkHandle, Plugin> factory) {
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
      public Plugin create(NoArgs args, FrameworkHandle handle) {
        return factory.apply(handle);
      }
    };
  }

  /** Returns a registry of the given plugin instances (the same instance for every profile). */
  static PluginRegistry registry(Plugin... plugins) {
    PluginRegistry r = PluginRegistry.empty();
    boolean binder = false;
    for (Plugin p : plugins) {
      r.register(provider(p.name(), p.getClass(), h -> p));
      binder |= p instanceof BindPlugin;
    }
    if (!binder) {
      r.register(provider(Binder.NAME, Binder.class, Binder::new));
    }
    return r;
  }

  /** Returns a configuration with one profile enabling {@code plugins} (plus the binder) everywhere. */
  static KubeSchedulerConfiguration configuration(String schedulerName, Plugin... plugins) {
    List<PluginRef> refs = new ArrayList<>();
    boolean binder = Arrays.stream(plugins).anyMatch(p -> p instanceof BindPlugin);
    for (Plugin p : plugins) {
      refs.add(PluginRef.of(p.name()));
    }
    if (!binder) {
      refs.add(PluginRef.of(Binder.NAME));
    }
    Plugins set =
        new Plugins(
            null, null, null, null, null, null, null, null, null, null, null, null,
            new PluginSet(refs, List.of()));
    return new KubeSchedulerConfiguration(
        16,
        0,
        Duration.ofSeconds(1),
        Duration.ofSeconds(10),
        List.of(new Profile(schedulerName, null, set, List.of())),
        List.of(),
        null,
        null,
        false,
        false,
        false);
  }
}
