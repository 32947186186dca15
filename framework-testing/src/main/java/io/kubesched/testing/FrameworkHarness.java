package io.kubesched.testing;

import io.kubernetes.client.openapi.models.V1ContainerImage;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.config.PluginConfig;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.config.PluginSet;
import io.kubesched.core.config.Plugins;
import io.kubesched.core.config.Profile;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.FrameworkContext;
import io.kubesched.core.runtime.NodePluginScores;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.ImageStateSummary;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostBindPlugin;
import io.kubesched.framework.PostFilterPlugin;
import io.kubesched.framework.PreBindPlugin;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.SchedulerConstants;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntConsumer;

/**
 * Runs plugins through a real {@link Framework} over an in-memory snapshot of nodes and pods, so a
 * plugin test exercises the runtime's real PreFilter/Filter/PreScore/Score/Normalize handling
 * (skips, node sets, error wrapping, weights) instead of calling the plugin by hand.
 *
 * <pre>{@code
 * FrameworkHarness.Result r =
 *     FrameworkHarness.builder()
 *         .plugin(new NodeAffinity(...), 2)
 *         .nodes(MakeNode.node().name("n1").label("zone", "a").obj(), ...)
 *         .pods(MakePod.pod().name("running").node("n1").obj())
 *         .build()
 *         .run(MakePod.pod().name("p").nodeAffinityIn("zone", "a").info());
 * assertThat(r.filterStatuses().get("n2")).isEqualTo(Status.unresolvable(...).withPlugin(...));
 * assertThat(r.scores("NodeAffinity")).isEqualTo(List.of(new NodeScore("n1", 100)));
 * }</pre>
 *
 * <p>Each plugin is registered in a {@link PluginRegistry} through a small {@link PluginProvider}
 * and enabled, in the given order, at every extension point whose interface it implements (Score
 * with its weight). Nodes carry kube's image states (size and number of nodes holding each image
 * name). A no-op QueueSort and Bind plugin are added when none is given, because the framework
 * requires them. Filter runs sequentially on every node in the given order; the snapshot is fixed
 * when the harness is built. Not thread-safe.
 */
public final class FrameworkHarness {
  /** The name of the QueueSort plugin added when none is given. */
  public static final String QUEUE_SORT_NAME = "HarnessQueueSort";

  /** The name of the Bind plugin added when none is given. */
  public static final String BINDER_NAME = "HarnessBinder";

  /** The profile's scheduler name. */
  public static final String PROFILE_NAME = SchedulerConstants.DEFAULT_SCHEDULER_NAME;

  private final Framework framework;
  private final Lister snapshot;

  private FrameworkHarness(Framework framework, Lister snapshot) {
    this.framework = framework;
    this.snapshot = snapshot;
  }

  /** Starts a harness with no plugins, nodes or pods. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns the framework built for the plugins. */
  public Framework framework() {
    return framework;
  }

  /** Returns the snapshot the plugins see, nodes in the given order. */
  public NodeInfoLister snapshot() {
    return snapshot;
  }

  /** Runs one scheduling cycle's PreFilter, Filter, PreScore and Score for {@code pod}. */
  public Result run(V1Pod pod) {
    return run(PodInfo.of(pod));
  }

  /**
   * Runs PreFilter on all nodes, Filter (with the nominated pods, as kube's {@code
   * RunFilterPluginsWithNominatedPods}) on every node PreFilter allows, then PreScore and Score
   * (with normalisation and weights) on the feasible nodes, all with one fresh {@link CycleState}.
   * A PreFilter rejection gives every node that status and stops; nodes outside PreFilter's node
   * set get kube's {@code node(s) didn't satisfy plugin(s) [..]} status. Scoring runs whenever a
   * node is feasible (kube skips it for a single node; the harness does not).
   */
  public Result run(PodInfo pod) {
    CycleState state = new CycleState();
    List<NodeInfo> nodes = snapshot.list();
    Map<String, Status> filterStatuses = new LinkedHashMap<>();

    Framework.PreFilterOutcome pre = framework.runPreFilterPlugins(state, pod, nodes);
    if (!pre.status().isSuccess()) {
      for (NodeInfo n : nodes) {
        filterStatuses.put(n.name(), pre.status());
      }
      return new Result(pre.status(), filterStatuses, List.of(), null, null, Map.of(), List.of());
    }
    Status outside =
        pre.allNodes()
            ? null
            : Status.unresolvable(
                "node(s) didn't satisfy plugin(s) "
                    + "["
                    + String.join(" ", new TreeSet<>(pre.unschedulablePlugins()))
                    + "]");
    List<NodeInfo> feasible = new ArrayList<>();
    for (NodeInfo n : nodes) {
      if (!pre.allNodes() && !pre.nodeNames().contains(n.name())) {
        filterStatuses.put(n.name(), outside);
        continue;
      }
      Status s = framework.runFilterPluginsWithNominatedPods(state, pod, n);
      filterStatuses.put(n.name(), s);
      if (s.isSuccess()) {
        feasible.add(n);
      }
    }
    List<String> feasibleNames = new ArrayList<>(feasible.size());
    for (NodeInfo n : feasible) {
      feasibleNames.add(n.name());
    }
    if (feasible.isEmpty()) {
      return new Result(
          pre.status(), filterStatuses, feasibleNames, null, null, Map.of(), List.of());
    }

    Status preScore = framework.runPreScorePlugins(state, pod, feasible);
    if (!preScore.isSuccess()) {
      return new Result(
          pre.status(), filterStatuses, feasibleNames, preScore, null, Map.of(), List.of());
    }
    Framework.ScoreOutcome out = framework.runScorePlugins(state, pod, feasible);
    Map<String, List<NodeScore>> byPlugin = new LinkedHashMap<>();
    List<NodeScore> totals = new ArrayList<>();
    for (NodePluginScores nps : out.scores()) {
      nps.scores()
          .forEach(
              (plugin, score) ->
                  byPlugin
                      .computeIfAbsent(plugin, k -> new ArrayList<>())
                      .add(new NodeScore(nps.name(), score)));
      totals.add(new NodeScore(nps.name(), nps.totalScore()));
    }
    return new Result(
        pre.status(), filterStatuses, feasibleNames, preScore, out.status(), byPlugin, totals);
  }

  /**
   * What one {@link #run(PodInfo)} produced.
   *
   * @param preFilterStatus the PreFilter status (success, a rejection with its plugin, or Error)
   * @param filterStatuses every node's status in snapshot order: its Filter status, or the
   *     PreFilter status that excluded it
   * @param feasibleNodes the nodes that passed Filter, in snapshot order
   * @param preScoreStatus the PreScore status, {@code null} when PreScore did not run
   * @param scoreStatus the Score status, {@code null} when Score did not run
   * @param scores each Score plugin's normalised scores before weighting, in feasible-node order
   * @param totalScores each feasible node's weighted sum over the Score plugins
   */
  public record Result(
      Status preFilterStatus,
      Map<String, Status> filterStatuses,
      List<String> feasibleNodes,
      Status preScoreStatus,
      Status scoreStatus,
      Map<String, List<NodeScore>> scores,
      List<NodeScore> totalScores) {
    /** Makes the collections unmodifiable. */
    public Result {
      filterStatuses = Collections.unmodifiableMap(new LinkedHashMap<>(filterStatuses));
      feasibleNodes = List.copyOf(feasibleNodes);
      Map<String, List<NodeScore>> copy = new LinkedHashMap<>();
      scores.forEach((k, v) -> copy.put(k, List.copyOf(v)));
      scores = Collections.unmodifiableMap(copy);
      totalScores = List.copyOf(totalScores);
    }

    /** Returns the normalised scores of {@code plugin}; empty when it did not score. */
    public List<NodeScore> scores(String plugin) {
      return scores.getOrDefault(plugin, List.of());
    }

    /** Returns the Filter (or PreFilter) status of {@code node}, or {@code null} if unknown. */
    public Status filterStatus(String node) {
      return filterStatuses.get(node);
    }
  }

  /** Collects the plugins, nodes and pods of a {@link FrameworkHarness}. */
  public static final class Builder {
    private final List<Registration> registrations = new ArrayList<>();
    private final List<V1Node> nodes = new ArrayList<>();
    private final List<V1Pod> pods = new ArrayList<>();
    private final List<V1Pod> nominatedPods = new ArrayList<>();
    private Clock clock = FakeClock.epoch();
    private Integer percentageOfNodesToScore;

    private Builder() {}

    /** Adds a plugin instance, with Score weight 1 if it scores. */
    public Builder plugin(Plugin plugin) {
      return plugin(plugin, 1);
    }

    /** Adds a plugin instance with the given Score weight. */
    public Builder plugin(Plugin plugin, int weight) {
      Objects.requireNonNull(plugin, "plugin");
      return provider(new InstanceProvider(plugin), NoArgsMarker.INSTANCE, weight);
    }

    /**
     * Adds a plugin built by {@code provider} from {@code args} with the framework as its handle
     * (for plugins that read the snapshot or the clock through the handle).
     */
    public <A extends PluginArgs> Builder provider(PluginProvider<A> provider, A args, int weight) {
      Objects.requireNonNull(provider, "provider");
      for (Registration r : registrations) {
        if (r.provider.name().equals(provider.name())) {
          throw new IllegalArgumentException("plugin " + provider.name() + " is added twice");
        }
      }
      registrations.add(new Registration(provider, args, weight));
      return this;
    }

    /** Adds nodes, in the order Filter and Score visit them. */
    public Builder nodes(V1Node... nodes) {
      this.nodes.addAll(List.of(nodes));
      return this;
    }

    /** Adds nodes, in the order Filter and Score visit them. */
    public Builder nodes(List<V1Node> nodes) {
      this.nodes.addAll(nodes);
      return this;
    }

    /** Adds pods already placed on nodes ({@code spec.nodeName} must name a given node). */
    public Builder pods(V1Pod... pods) {
      this.pods.addAll(List.of(pods));
      return this;
    }

    /** Adds pods already placed on nodes ({@code spec.nodeName} must name a given node). */
    public Builder pods(List<V1Pod> pods) {
      this.pods.addAll(pods);
      return this;
    }

    /**
     * Adds pods nominated to nodes ({@code status.nominatedNodeName} must name a given node):
     * Filter counts those of equal or higher priority on their node, as kube does.
     */
    public Builder nominatedPods(V1Pod... pods) {
      this.nominatedPods.addAll(List.of(pods));
      return this;
    }

    /** Sets the clock the framework hands to plugins (a {@link FakeClock} at the epoch). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Sets the profile's {@code percentageOfNodesToScore} (unset by default). */
    public Builder percentageOfNodesToScore(Integer percentage) {
      this.percentageOfNodesToScore = percentage;
      return this;
    }

    /**
     * Builds the snapshot and the framework.
     *
     * @throws IllegalArgumentException when a pod names an unknown node, or the framework rejects
     *     the profile (its message is kube's)
     */
    public FrameworkHarness build() {
      Lister lister = new Lister(nodes, pods);
      PluginRegistry registry = PluginRegistry.empty();
      Map<Point, List<PluginRef>> enabled = new LinkedHashMap<>();
      for (Point p : Point.values()) {
        enabled.put(p, new ArrayList<>());
      }
      boolean haveQueueSort = false;
      boolean haveBind = false;
      for (Registration r : registrations) {
        registry.register(r.provider);
        Class<?> type = r.provider.pluginType();
        String name = r.provider.name();
        for (Point p : Point.values()) {
          if (!p.type.isAssignableFrom(type)) {
            continue;
          }
          if (p == Point.QUEUE_SORT) {
            if (haveQueueSort) {
              continue;
            }
            haveQueueSort = true;
          }
          if (p == Point.BIND) {
            haveBind = true;
          }
          enabled.get(p).add(p == Point.SCORE ? PluginRef.of(name, r.weight) : PluginRef.of(name));
        }
      }
      if (!haveQueueSort) {
        registry.register(new InstanceProvider(new HarnessQueueSort()));
        enabled.get(Point.QUEUE_SORT).add(PluginRef.of(QUEUE_SORT_NAME));
      }
      if (!haveBind) {
        registry.register(new InstanceProvider(new HarnessBinder()));
        enabled.get(Point.BIND).add(PluginRef.of(BINDER_NAME));
      }
      Plugins plugins =
          new Plugins(
              set(enabled, Point.PRE_ENQUEUE),
              set(enabled, Point.QUEUE_SORT),
              set(enabled, Point.PRE_FILTER),
              set(enabled, Point.FILTER),
              set(enabled, Point.POST_FILTER),
              set(enabled, Point.PRE_SCORE),
              set(enabled, Point.SCORE),
              set(enabled, Point.RESERVE),
              set(enabled, Point.PERMIT),
              set(enabled, Point.PRE_BIND),
              set(enabled, Point.BIND),
              set(enabled, Point.POST_BIND),
              PluginSet.empty());
      List<PluginConfig> config = new ArrayList<>();
      for (Registration r : registrations) {
        if (!(r.provider instanceof InstanceProvider) && r.args != null) {
          config.add(new PluginConfig(r.provider.name(), r.args));
        }
      }
      Profile profile = new Profile(PROFILE_NAME, percentageOfNodesToScore, plugins, config);
      Map<String, List<PodInfo>> nominated = new HashMap<>();
      for (V1Pod p : nominatedPods) {
        PodInfo pi = PodInfo.of(p);
        String node = pi.nominatedNodeName();
        if (node == null || lister.find(node) == null) {
          throw new IllegalArgumentException(
              "pod "
                  + pi.key()
                  + ": status.nominatedNodeName \""
                  + node
                  + "\" is not a given node");
        }
        nominated.computeIfAbsent(node, k -> new ArrayList<>()).add(pi);
      }
      SimulatedTime timers = new SimulatedTime(clock.instant());
      FrameworkContext ctx =
          new FrameworkContext(
              null,
              null,
              clock,
              new SequentialParallelizer(),
              node -> nominated.getOrDefault(node, List.of()),
              () -> lister,
              new WaitingPods(timers.scheduler()),
              null,
              null);
      return new FrameworkHarness(Framework.create(profile, 0, registry, ctx), lister);
    }

    private static PluginSet set(Map<Point, List<PluginRef>> enabled, Point p) {
      return PluginSet.enabled(enabled.get(p).toArray(new PluginRef[0]));
    }
  }

  private record Registration(PluginProvider<?> provider, PluginArgs args, int weight) {}

  /** The extension points a plugin is enabled at, by interface. */
  private enum Point {
    PRE_ENQUEUE(PreEnqueuePlugin.class),
    QUEUE_SORT(QueueSortPlugin.class),
    PRE_FILTER(PreFilterPlugin.class),
    FILTER(FilterPlugin.class),
    POST_FILTER(PostFilterPlugin.class),
    PRE_SCORE(PreScorePlugin.class),
    SCORE(ScorePlugin.class),
    RESERVE(ReservePlugin.class),
    PERMIT(PermitPlugin.class),
    PRE_BIND(PreBindPlugin.class),
    BIND(BindPlugin.class),
    POST_BIND(PostBindPlugin.class);

    final Class<?> type;

    Point(Class<?> type) {
      this.type = type;
    }
  }

  /** The args of a plugin given as an instance. */
  private enum NoArgsMarker implements PluginArgs {
    INSTANCE
  }

  /** Hands out an already built plugin. */
  private static final class InstanceProvider implements PluginProvider<PluginArgs> {
    private final Plugin plugin;

    InstanceProvider(Plugin plugin) {
      this.plugin = plugin;
    }

    @Override
    public String name() {
      return plugin.name();
    }

    @Override
    public Class<PluginArgs> argsType() {
      return PluginArgs.class;
    }

    @Override
    public PluginArgs defaultArgs() {
      return NoArgsMarker.INSTANCE;
    }

    @Override
    public Class<? extends Plugin> pluginType() {
      return plugin.getClass();
    }

    @Override
    public Plugin create(PluginArgs args, FrameworkHandle handle) {
      return plugin;
    }
  }

  /** Orders by timestamp; only there because a profile needs a QueueSort plugin. */
  private static final class HarnessQueueSort implements QueueSortPlugin {
    @Override
    public String name() {
      return QUEUE_SORT_NAME;
    }

    @Override
    public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
      return a.timestamp().isBefore(b.timestamp());
    }
  }

  /** Binds nothing; only there because a profile needs a Bind plugin. */
  private static final class HarnessBinder implements BindPlugin {
    @Override
    public String name() {
      return BINDER_NAME;
    }

    @Override
    public Status bind(CycleState state, PodInfo pod, String nodeName) {
      return Status.success();
    }
  }

  /** Runs every piece on the calling thread, in order, so runs are deterministic. */
  private static final class SequentialParallelizer implements Parallelizer {
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
  }

  /** The fixed in-memory snapshot: nodes in the given order with their pods. */
  private static final class Lister implements NodeInfoLister {
    private final List<NodeInfo> list;
    private final Map<String, NodeInfo> byName = new LinkedHashMap<>();
    private final List<NodeInfo> withAffinity;
    private final List<NodeInfo> withAntiAffinity;

    Lister(List<V1Node> nodes, List<V1Pod> pods) {
      List<NodeInfo> all = new ArrayList<>();
      for (V1Node n : nodes) {
        NodeInfo info = NodeInfo.of(n);
        if (byName.put(info.name(), info) != null) {
          throw new IllegalArgumentException("node " + info.name() + " is given twice");
        }
        all.add(info);
      }
      for (V1Pod p : pods) {
        PodInfo pod = PodInfo.of(p);
        NodeInfo n = pod.nodeName() == null ? null : byName.get(pod.nodeName());
        if (n == null) {
          throw new IllegalArgumentException(
              "pod "
                  + pod.key()
                  + ": spec.nodeName \""
                  + pod.nodeName()
                  + "\" is not a given node");
        }
        n.addPod(pod);
      }
      setImageStates(nodes, byName);
      Set<NodeInfo> aff = new LinkedHashSet<>();
      Set<NodeInfo> anti = new LinkedHashSet<>();
      for (NodeInfo n : all) {
        if (!n.podsWithAffinity().isEmpty()) {
          aff.add(n);
        }
        if (!n.podsWithRequiredAntiAffinity().isEmpty()) {
          anti.add(n);
        }
      }
      this.list = List.copyOf(all);
      this.withAffinity = List.copyOf(aff);
      this.withAntiAffinity = List.copyOf(anti);
    }

    /** Sets each node's image states with cluster-wide node counts, as kube's snapshot does. */
    private static void setImageStates(List<V1Node> nodes, Map<String, NodeInfo> byName) {
      Map<String, Set<String>> holders = new HashMap<>();
      for (V1Node n : nodes) {
        for (V1ContainerImage image : images(n)) {
          for (String name : image.getNames() == null ? List.<String>of() : image.getNames()) {
            holders.computeIfAbsent(name, k -> new HashSet<>()).add(n.getMetadata().getName());
          }
        }
      }
      for (V1Node n : nodes) {
        Map<String, ImageStateSummary> states = new HashMap<>();
        for (V1ContainerImage image : images(n)) {
          long size = image.getSizeBytes() == null ? 0 : image.getSizeBytes();
          for (String name : image.getNames() == null ? List.<String>of() : image.getNames()) {
            states.put(name, new ImageStateSummary(size, holders.get(name).size()));
          }
        }
        byName.get(n.getMetadata().getName()).setImageStates(states);
      }
    }

    private static List<V1ContainerImage> images(V1Node n) {
      return n.getStatus() == null || n.getStatus().getImages() == null
          ? List.of()
          : n.getStatus().getImages();
    }

    @Override
    public List<NodeInfo> list() {
      return list;
    }

    @Override
    public List<NodeInfo> havePodsWithAffinityList() {
      return withAffinity;
    }

    @Override
    public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
      return withAntiAffinity;
    }

    @Override
    public NodeInfo get(String nodeName) {
      NodeInfo n = byName.get(nodeName);
      if (n == null) {
        throw new SchedulingException("nodeinfo not found for node name \"" + nodeName + "\"");
      }
      return n;
    }

    @Override
    public NodeInfo find(String nodeName) {
      return byName.get(nodeName);
    }
  }
}
