package io.kubesched.core.runtime;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.config.PluginConfig;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.config.PluginSet;
import io.kubesched.core.config.Profile;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodNominator;
import io.kubesched.framework.PostBindPlugin;
import io.kubesched.framework.PostFilterPlugin;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreBindPlugin;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterExtensions;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import io.kubesched.framework.WaitingPod;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugins of one profile and the runners of every extension point (kube's {@code
 * frameworkImpl}); also the {@link FrameworkHandle} its plugins receive.
 *
 * <p>Built by {@link #create}. Every runner catches what a plugin throws and turns it into {@code
 * Status.error(e).withPlugin(name)}, so a faulty plugin fails the pod's cycle, never the scheduler.
 * Runners report extension-point durations to {@link SchedulerMetrics}, and plugin durations when
 * the cycle state asks for them ({@link CycleState#recordPluginMetrics()}). Thread-safe once built.
 */
public final class Framework implements FrameworkHandle, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Framework.class);

  /** The longest a Permit plugin may make a pod wait (kube's {@code maxTimeout}). */
  public static final Duration MAX_PERMIT_TIMEOUT = Duration.ofMinutes(15);

  /** The percentage of cycles whose plugin durations are recorded (kube's sampling). */
  public static final int PLUGIN_METRICS_SAMPLE_PERCENT = 10;

  /** The pseudo-plugin recorded when an extender rejects nodes (kube's {@code ExtenderName}). */
  public static final String EXTENDER_NAME = "Extender";

  /**
   * What the PreFilter runner returns (kube returns the same three values).
   *
   * @param nodeNames the intersection of the plugins' node sets, {@code null} for all nodes
   * @param status the status of the point, never {@code null}
   * @param unschedulablePlugins the plugins that restricted the nodes; never {@code null}
   */
  public record PreFilterOutcome(
      Set<String> nodeNames, Status status, Set<String> unschedulablePlugins) {
    /** Normalises the plugin set. */
    public PreFilterOutcome {
      Objects.requireNonNull(status, "status must not be null");
      unschedulablePlugins =
          unschedulablePlugins == null
              ? Set.of()
              : Collections.unmodifiableSet(unschedulablePlugins);
    }

    /** Returns whether every node may be filtered. */
    public boolean allNodes() {
      return nodeNames == null;
    }
  }

  /**
   * What the Score runner returns.
   *
   * @param scores the scores of each node, in node order (empty on failure)
   * @param status success, or the Error that stopped scoring
   */
  public record ScoreOutcome(List<NodePluginScores> scores, Status status) {
    /** Copies the scores. */
    public ScoreOutcome {
      scores = scores == null ? List.of() : List.copyOf(scores);
      Objects.requireNonNull(status, "status must not be null");
    }
  }

  private final String profileName;
  private final Integer percentageOfNodesToScore;
  private final int globalPercentageOfNodesToScore;
  private final FrameworkContext ctx;
  private final Map<String, Plugin> pluginsMap = new LinkedHashMap<>();
  private final EnumMap<ExtensionPoint, List<Plugin>> lists = new EnumMap<>(ExtensionPoint.class);
  private final Map<String, Integer> scoreWeights = new LinkedHashMap<>();
  private final Map<String, List<ClusterEventWithHint>> enqueueExtensions = new LinkedHashMap<>();
  private List<SchedulerExtender> extenders = List.of();

  private List<PreEnqueuePlugin> preEnqueuePlugins;
  private QueueSortPlugin queueSortPlugin;
  private List<PreFilterPlugin> preFilterPlugins;
  private List<FilterPlugin> filterPlugins;
  private List<PostFilterPlugin> postFilterPlugins;
  private List<PreScorePlugin> preScorePlugins;
  private List<ScorePlugin> scorePlugins;
  private List<ReservePlugin> reservePlugins;
  private List<PermitPlugin> permitPlugins;
  private List<PreBindPlugin> preBindPlugins;
  private List<BindPlugin> bindPlugins;
  private List<PostBindPlugin> postBindPlugins;

  private Framework(Profile profile, int globalPercentage, FrameworkContext ctx) {
    this.profileName = profile.schedulerName();
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore();
    this.globalPercentageOfNodesToScore = globalPercentage;
    this.ctx = ctx;
  }

  // ---------------------------------------------------------------------------------------------
  // Building

  /**
   * Builds the framework of {@code profile}: every plugin named in an enabled list is built once
   * with its {@code pluginConfig} arguments (or the provider's defaults), the explicit lists are
   * checked, MultiPoint is expanded as kube-scheduler does, and the Score weights are computed.
   *
   * @param profile the profile, after defaulting
   * @param globalPercentageOfNodesToScore the configuration's global percentage (0 = adaptive)
   * @param registry the available plugins
   * @param ctx the services shared by all profiles
   * @throws IllegalArgumentException with kube's message when the profile is invalid: an unknown
   *     plugin (listing the available ones), a plugin lacking an extension point's interface, a
   *     duplicate, not exactly one QueueSort, no Bind, repeated plugin config, a Score weight sum
   *     that could overflow, or a plugin that fails to initialise
   */
  public static Framework create(
      Profile profile,
      int globalPercentageOfNodesToScore,
      PluginRegistry registry,
      FrameworkContext ctx) {
    return create(profile, globalPercentageOfNodesToScore, registry, ctx, List.of());
  }

  /**
   * Builds the framework of {@code profile} with the configuration's extenders (shared by all
   * profiles): when there are any, the pseudo-plugin {@code "Extender"} is registered for every
   * event, as kube does.
   *
   * @see #create(Profile, int, PluginRegistry, FrameworkContext)
   */
  public static Framework create(
      Profile profile,
      int globalPercentageOfNodesToScore,
      PluginRegistry registry,
      FrameworkContext ctx,
      List<SchedulerExtender> extenders) {
    Objects.requireNonNull(profile, "profile must not be null");
    Objects.requireNonNull(registry, "registry must not be null");
    Objects.requireNonNull(ctx, "ctx must not be null");
    Framework f = new Framework(profile, globalPercentageOfNodesToScore, ctx);
    f.extenders = extenders == null ? List.of() : List.copyOf(extenders);
    if (!f.extenders.isEmpty()) {
      f.enqueueExtensions.put(EXTENDER_NAME, unrollWildCardResource());
    }
    f.build(profile, registry);
    log.atInfo()
        .setMessage("the scheduler starts to work with those plugins")
        .addKeyValue("profile", f.profileName)
        .addKeyValue("plugins", f::listPlugins)
        .log();
    return f;
  }

  private void build(Profile profile, PluginRegistry registry) {
    var plugins = profile.plugins();
    Set<String> needed = new LinkedHashSet<>();
    for (ExtensionPoint p : ExtensionPoint.values()) {
      for (PluginRef r : p.set(plugins).enabled()) {
        needed.add(r.name());
      }
    }
    for (PluginRef r : plugins.multiPoint().enabled()) {
      needed.add(r.name());
    }

    Map<String, PluginArgs> pluginConfig = new HashMap<>();
    for (PluginConfig c : profile.pluginConfig()) {
      if (pluginConfig.containsKey(c.name())) {
        throw new IllegalArgumentException("repeated config for plugin " + c.name());
      }
      pluginConfig.put(c.name(), c.args());
    }

    for (Map.Entry<String, PluginProvider<?>> e : registry.providers().entrySet()) {
      String name = e.getKey();
      if (!needed.contains(name)) {
        continue;
      }
      Plugin p = instantiate(name, e.getValue(), pluginConfig.get(name));
      pluginsMap.put(name, p);
      fillEnqueueExtensions(p);
    }

    for (ExtensionPoint p : ExtensionPoint.values()) {
      lists.put(p, explicitList(p, p.set(plugins), registry));
    }
    if (!plugins.multiPoint().enabled().isEmpty()) {
      expandMultiPoint(profile, registry);
    }

    List<Plugin> queueSort = lists.get(ExtensionPoint.QUEUE_SORT);
    if (queueSort.size() != 1) {
      throw new IllegalArgumentException(
          "only one queue sort plugin required for profile with scheduler name \""
              + profileName
              + "\", but got "
              + queueSort.size());
    }
    if (lists.get(ExtensionPoint.BIND).isEmpty()) {
      throw new IllegalArgumentException(
          "at least one bind plugin is needed for profile with scheduler name \""
              + profileName
              + "\"");
    }

    List<PluginRef> weighted = new ArrayList<>(plugins.score().enabled());
    weighted.addAll(plugins.multiPoint().enabled());
    computeScoreWeights(weighted);

    preEnqueuePlugins = typed(ExtensionPoint.PRE_ENQUEUE, PreEnqueuePlugin.class);
    queueSortPlugin = (QueueSortPlugin) queueSort.get(0);
    preFilterPlugins = typed(ExtensionPoint.PRE_FILTER, PreFilterPlugin.class);
    filterPlugins = typed(ExtensionPoint.FILTER, FilterPlugin.class);
    postFilterPlugins = typed(ExtensionPoint.POST_FILTER, PostFilterPlugin.class);
    preScorePlugins = typed(ExtensionPoint.PRE_SCORE, PreScorePlugin.class);
    scorePlugins = typed(ExtensionPoint.SCORE, ScorePlugin.class);
    reservePlugins = typed(ExtensionPoint.RESERVE, ReservePlugin.class);
    permitPlugins = typed(ExtensionPoint.PERMIT, PermitPlugin.class);
    preBindPlugins = typed(ExtensionPoint.PRE_BIND, PreBindPlugin.class);
    bindPlugins = typed(ExtensionPoint.BIND, BindPlugin.class);
    postBindPlugins = typed(ExtensionPoint.POST_BIND, PostBindPlugin.class);

    for (ScorePlugin sp : scorePlugins) {
      Integer w = scoreWeights.get(sp.name());
      if (w == null || w == 0) {
        throw new IllegalArgumentException(
            "score plugin \"" + sp.name() + "\" is not configured with weight");
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Plugin instantiate(String name, PluginProvider provider, PluginArgs configured) {
    PluginArgs args = configured != null ? configured : provider.defaultArgs();
    if (args != null && !provider.argsType().isInstance(args)) {
      throw new IllegalArgumentException(
          "initializing plugin \""
              + name
              + "\": want args of type "
              + provider.argsType().getSimpleName()
              + ", got "
              + args.getClass().getSimpleName());
    }
    Plugin p;
    try {
      p = provider.create(args, this);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "initializing plugin \"" + name + "\": " + e.getMessage(), e);
    }
    if (p == null) {
      throw new IllegalArgumentException(
          "initializing plugin \"" + name + "\": the provider returned no plugin");
    }
    return p;
  }

  private static boolean shouldHaveEnqueueExtensions(Plugin p) {
    return p instanceof PreEnqueuePlugin
        || p instanceof PreFilterPlugin
        || p instanceof FilterPlugin
        || p instanceof ReservePlugin
        || p instanceof PermitPlugin;
  }

  private void fillEnqueueExtensions(Plugin p) {
    if (!shouldHaveEnqueueExtensions(p)) {
      return;
    }
    if (p instanceof EnqueueExtensions ext) {
      List<ClusterEventWithHint> events = ext.eventsToRegister();
      enqueueExtensions.put(p.name(), events == null ? List.of() : List.copyOf(events));
    } else {
      enqueueExtensions.put(p.name(), unrollWildCardResource());
    }
  }

  /**
   * Returns the registrations kube gives a plugin without {@link EnqueueExtensions}: every resource
   * with action {@code All} (kube's {@code UnrollWildCardResource}).
   */
  public static List<ClusterEventWithHint> unrollWildCardResource() {
    String[] resources = {
      EventResource.POD,
      EventResource.NODE,
      EventResource.PERSISTENT_VOLUME,
      EventResource.PERSISTENT_VOLUME_CLAIM,
      "storage.k8s.io/CSINode",
      "storage.k8s.io/CSIDriver",
      "storage.k8s.io/CSIStorageCapacity",
      EventResource.STORAGE_CLASS,
      "resource.k8s.io/ResourceClaim",
      "resource.k8s.io/ResourceSlice",
      "resource.k8s.io/DeviceClass"
    };
    List<ClusterEventWithHint> out = new ArrayList<>(resources.length);
    for (String r : resources) {
      out.add(ClusterEventWithHint.of(r, ActionType.ALL));
    }
    return List.copyOf(out);
  }

  private IllegalArgumentException doesNotExist(
      ExtensionPoint p, String name, PluginRegistry registry) {
    return new IllegalArgumentException(
        p.typeName()
            + " \""
            + name
            + "\" does not exist (available plugins: "
            + String.join(", ", registry.names())
            + ")");
  }

  private List<Plugin> explicitList(ExtensionPoint p, PluginSet set, PluginRegistry registry) {
    List<Plugin> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (PluginRef r : set.enabled()) {
      Plugin pg = pluginsMap.get(r.name());
      if (pg == null) {
        throw doesNotExist(p, r.name(), registry);
      }
      if (!p.type().isInstance(pg)) {
        throw new IllegalArgumentException(
            "plugin \"" + r.name() + "\" does not extend " + p.typeName() + " plugin");
      }
      if (!seen.add(r.name())) {
        throw new IllegalArgumentException(
            "plugin \"" + r.name() + "\" already registered as \"" + p.typeName() + "\"");
      }
      out.add(pg);
    }
    return out;
  }

  private void expandMultiPoint(Profile profile, PluginRegistry registry) {
    var plugins = profile.plugins();
    for (ExtensionPoint p : ExtensionPoint.values()) {
      PluginSet set = p.set(plugins);
      List<String> enabled = new ArrayList<>();
      for (PluginRef r : set.enabled()) {
        if (!enabled.contains(r.name())) {
          enabled.add(r.name());
        }
      }
      Set<String> disabled = new HashSet<>();
      for (PluginRef r : set.disabled()) {
        disabled.add(r.name());
      }
      if (disabled.contains("*")) {
        log.atDebug()
            .setMessage("skipped MultiPoint expansion because all plugins are disabled")
            .addKeyValue("extensionPoint", p.label())
            .log();
        continue;
      }
      Set<String> multiPointEnabled = new LinkedHashSet<>();
      Set<String> overrides = new HashSet<>();
      for (PluginRef r : plugins.multiPoint().enabled()) {
        Plugin pg = pluginsMap.get(r.name());
        if (pg == null) {
          throw doesNotExist(p, r.name(), registry);
        }
        if (!p.type().isInstance(pg)) {
          continue;
        }
        if (disabled.contains(r.name())) {
          continue;
        }
        if (enabled.contains(r.name())) {
          overrides.add(r.name());
          log.atInfo()
              .setMessage("MultiPoint plugin is explicitly re-configured; overriding")
              .addKeyValue("plugin", r.name())
              .addKeyValue("extensionPoint", p.label())
              .log();
          continue;
        }
        if (!multiPointEnabled.add(r.name())) {
          throw new IllegalArgumentException(
              "plugin \"" + r.name() + "\" already registered as \"" + p.typeName() + "\"");
        }
      }
      List<Plugin> ordered = new ArrayList<>();
      List<String> rest = new ArrayList<>();
      for (String name : enabled) {
        if (overrides.contains(name)) {
          ordered.add(pluginsMap.get(name));
        } else {
          rest.add(name);
        }
      }
      for (String name : multiPointEnabled) {
        ordered.add(pluginsMap.get(name));
      }
      for (String name : rest) {
        ordered.add(pluginsMap.get(name));
      }
      lists.put(p, ordered);
    }
  }

  private void computeScoreWeights(List<PluginRef> refs) {
    long total = 0;
    for (PluginRef r : refs) {
      Plugin pg = pluginsMap.get(r.name());
      if (!(pg instanceof ScorePlugin)) {
        continue;
      }
      if (scoreWeights.containsKey(r.name())) {
        continue;
      }
      int w = r.weight() == null || r.weight() == 0 ? 1 : r.weight();
      scoreWeights.put(r.name(), w);
      if ((long) w * ScorePlugin.MAX_NODE_SCORE > Long.MAX_VALUE - total) {
        throw new IllegalArgumentException("total score of Score plugins could overflow");
      }
      total += (long) w * ScorePlugin.MAX_NODE_SCORE;
    }
  }

  private <T> List<T> typed(ExtensionPoint p, Class<T> type) {
    List<T> out = new ArrayList<>();
    for (Plugin pg : lists.get(p)) {
      out.add(type.cast(pg));
    }
    return List.copyOf(out);
  }

  /**
   * Returns a new cycle state whose plugin metrics are recorded in {@value
   * #PLUGIN_METRICS_SAMPLE_PERCENT}% of the calls, decided with {@code random} as kube does at the
   * start of each scheduling cycle.
   */
  public static CycleState newCycleState(java.util.Random random) {
    CycleState state = new CycleState();
    EngineAccess.setRecordPluginMetrics(state, random.nextInt(100) < PLUGIN_METRICS_SAMPLE_PERCENT);
    return state;
  }

  /**
   * Closes every plugin that is {@link AutoCloseable} (kube's {@code Close}); all are tried, and
   * the first failure is rethrown with the others suppressed.
   */
  @Override
  public void close() {
    RuntimeException first = null;
    for (Map.Entry<String, Plugin> e : pluginsMap.entrySet()) {
      if (e.getValue() instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception ex) {
          RuntimeException wrapped =
              new IllegalStateException(e.getKey() + " failed to close: " + ex.getMessage(), ex);
          if (first == null) {
            first = wrapped;
          } else {
            first.addSuppressed(wrapped);
          }
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Accessors

  @Override
  public String profileName() {
    return profileName;
  }

  /** Returns the QueueSort plugin. */
  public QueueSortPlugin queueSortPlugin() {
    return queueSortPlugin;
  }

  /** Returns the PreEnqueue plugins, in order. */
  public List<PreEnqueuePlugin> preEnqueuePlugins() {
    return preEnqueuePlugins;
  }

  /**
   * Returns the events each plugin registered, by plugin name: PreEnqueue, PreFilter, Filter,
   * Reserve and Permit plugins; those without {@link EnqueueExtensions} get every resource with
   * action {@code All}.
   */
  public Map<String, List<ClusterEventWithHint>> enqueueExtensions() {
    return Collections.unmodifiableMap(enqueueExtensions);
  }

  /** Returns the profile's percentage of nodes to score, or {@code null} for the global one. */
  public Integer percentageOfNodesToScore() {
    return percentageOfNodesToScore;
  }

  /** Returns the global percentage of nodes to score (0 for adaptive). */
  public int globalPercentageOfNodesToScore() {
    return globalPercentageOfNodesToScore;
  }

  /** Returns whether the profile has Filter plugins. */
  public boolean hasFilterPlugins() {
    return !filterPlugins.isEmpty();
  }

  /** Returns whether the profile has Score plugins. */
  public boolean hasScorePlugins() {
    return !scorePlugins.isEmpty();
  }

  /** Returns whether the profile has PostFilter plugins. */
  public boolean hasPostFilterPlugins() {
    return !postFilterPlugins.isEmpty();
  }

  /** Returns every built plugin by its configured name. */
  public Map<String, Plugin> plugins() {
    return Collections.unmodifiableMap(pluginsMap);
  }

  /** Returns the names of the plugins run at {@code point}, in order. */
  public List<String> pluginNames(ExtensionPoint point) {
    List<String> out = new ArrayList<>();
    for (Plugin p : lists.get(point)) {
      out.add(p.name());
    }
    return out;
  }

  /** Returns the plugin names of every point, by kube's point name (kube's {@code ListPlugins}). */
  public Map<String, List<String>> listPlugins() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (ExtensionPoint p : ExtensionPoint.values()) {
      List<String> names = pluginNames(p);
      if (!names.isEmpty()) {
        out.put(p.label(), names);
      }
    }
    return out;
  }

  /** Returns the weight of every Score plugin (and weighted MultiPoint plugin), by name. */
  public Map<String, Integer> scoreWeights() {
    return Collections.unmodifiableMap(scoreWeights);
  }

  /** Returns the extenders, in configuration order. */
  public List<SchedulerExtender> extenders() {
    return extenders;
  }

  /** Returns the metrics sink. */
  public SchedulerMetrics metrics() {
    return ctx.metrics();
  }

  /** Returns the map of waiting pods shared by all profiles. */
  public WaitingPods waitingPods() {
    return ctx.waitingPods();
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private static String errorMessage(Status s) {
    if (s.cause() != null) {
      return String.valueOf(s.cause().getMessage());
    }
    return s.message();
  }

  private static Status wrapError(String message, Status s) {
    return Status.error(new io.kubesched.framework.SchedulingException(message + errorMessage(s)));
  }

  private static Status nonNull(Status s) {
    return s == null ? Status.success() : s;
  }

  private void observePlugin(
      CycleState state, String point, String plugin, Status status, long startNanos) {
    if (state != null && state.recordPluginMetrics()) {
      ctx.metrics()
          .pluginExecutionDuration(
              plugin,
              point,
              status.code().toString(),
              Duration.ofNanos(System.nanoTime() - startNanos));
    }
  }

  private void observePoint(String point, Status status, long startNanos) {
    ctx.metrics()
        .extensionPointDuration(
            point,
            status.code().toString(),
            profileName,
            Duration.ofNanos(System.nanoTime() - startNanos));
  }

  private static Status thrown(String plugin, RuntimeException e) {
    log.atWarn().setMessage("plugin threw").addKeyValue("plugin", plugin).setCause(e).log();
    return Status.error(e).withPlugin(plugin);
  }

  /** Runs {@code work} over {@code n} pieces on the parallelizer until {@code cancelled}. */
  void parallel(int n, IntConsumer work, BooleanSupplier cancelled) {
    Parallelizer p = ctx.parallelizer();
    if (p instanceof ExecutorParallelizer ep) {
      ep.until(n, work, cancelled);
    } else {
      p.until(
          n,
          i -> {
            if (!cancelled.getAsBoolean()) {
              work.accept(i);
            }
          });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Runners

  /**
   * Runs the PreEnqueue plugins in order; returns the first non-success carrying the plugin name
   * (an exception becomes an Error), else success.
   */
  public Status runPreEnqueuePlugins(PodInfo pod) {
    long start = System.nanoTime();
    Status result = Status.success();
    for (PreEnqueuePlugin pl : preEnqueuePlugins) {
      Status s;
      try {
        s = nonNull(pl.preEnqueue(pod));
      } catch (RuntimeException e) {
        s = thrown(pl.name(), e);
      }
      if (!s.isSuccess()) {
        result = s.withPlugin(pl.name());
        log.atDebug()
            .setMessage("pod gated by PreEnqueue plugin")
            .addKeyValue("pod", pod.key())
            .addKeyValue("plugin", pl.name())
            .addKeyValue("status", result)
            .log();
        break;
      }
    }
    observePoint("PreEnqueue", result, start);
    return result;
  }

  /**
   * Runs the PreFilter plugins in order over {@code nodes} (kube's {@code RunPreFilterPlugins}):
   * Skip adds the plugin to the cycle's skipped Filter plugins; UnschedulableAndUnresolvable stops
   * at once; Unschedulable is remembered (the last wins) while the others run; any other code is an
   * Error {@code running PreFilter plugin "X": ...}. The node sets are intersected; an empty
   * intersection is UnschedulableAndUnresolvable {@code node(s) didn't satisfy plugin X}.
   */
  public PreFilterOutcome runPreFilterPlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    long start = System.nanoTime();
    Set<String> skip = new HashSet<>();
    PreFilterOutcome out = null;
    try {
      out = preFilter(state, pod, nodes, skip);
      return out;
    } finally {
      EngineAccess.setSkipFilterPlugins(state, skip);
      observePoint("PreFilter", out == null ? Status.error("failed") : statusOf(out), start);
    }
  }

  private static Status statusOf(PreFilterOutcome o) {
    return o.status();
  }

  private PreFilterOutcome preFilter(
      CycleState state, PodInfo pod, List<NodeInfo> nodes, Set<String> skip) {
    Set<String> result = null;
    Set<String> pluginsWithNodes = new TreeSet<>();
    Status returnStatus = Status.success();
    for (PreFilterPlugin pl : preFilterPlugins) {
      long t = System.nanoTime();
      PreFilterResult r;
      Status s;
      try {
        r = pl.preFilter(state, pod, nodes);
        if (r == null) {
          r = PreFilterResult.success();
        }
        s = r.status();
      } catch (RuntimeException e) {
        r = PreFilterResult.success();
        s = thrown(pl.name(), e);
      }
      observePlugin(state, "PreFilter", pl.name(), s, t);
      if (s.isSkip()) {
        skip.add(pl.name());
        continue;
      }
      if (!s.isSuccess()) {
        s = s.withPlugin(pl.name());
        if (s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
          return new PreFilterOutcome(null, s, null);
        }
        if (s.code() == Status.Code.UNSCHEDULABLE) {
          returnStatus = s;
          continue;
        }
        return new PreFilterOutcome(
            null,
            wrapError("running PreFilter plugin \"" + pl.name() + "\": ", s).withPlugin(pl.name()),
            null);
      }
      if (!r.allNodes()) {
        pluginsWithNodes.add(pl.name());
      }
      result = PreFilterResult.intersect(result, r.nodeNames());
      if (result != null && result.isEmpty()) {
        String msg =
            pluginsWithNodes.size() == 1
                ? "node(s) didn't satisfy plugin " + pluginsWithNodes.iterator().next()
                : "node(s) didn't satisfy plugin(s) "
                    + goList(pluginsWithNodes)
                    + " simultaneously";
        return new PreFilterOutcome(result, Status.unresolvable(msg), pluginsWithNodes);
      }
    }
    return new PreFilterOutcome(result, returnStatus, pluginsWithNodes);
  }

  /** Formats strings as Go prints a {@code []string}: {@code [a b c]}. */
  static String goList(Collection<String> items) {
    return "[" + String.join(" ", items) + "]";
  }

  @Override
  public Status runPreFilterExtensionAddPod(
      CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    return runPreFilterExtension(state, podToSchedule, podToAdd, node, true);
  }

  @Override
  public Status runPreFilterExtensionRemovePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    return runPreFilterExtension(state, podToSchedule, podToRemove, node, false);
  }

  private Status runPreFilterExtension(
      CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node, boolean add) {
    Set<String> skipped = state.skipFilterPlugins();
    for (PreFilterPlugin pl : preFilterPlugins) {
      if (!(pl instanceof PreFilterExtensions ext) || skipped.contains(pl.name())) {
        continue;
      }
      long t = System.nanoTime();
      Status s;
      try {
        s =
            nonNull(
                add
                    ? ext.addPod(state, podToSchedule, other, node)
                    : ext.removePod(state, podToSchedule, other, node));
      } catch (RuntimeException e) {
        s = thrown(pl.name(), e);
      }
      observePlugin(
          state, add ? "PreFilterExtensionAddPod" : "PreFilterExtensionRemovePod", pl.name(), s, t);
      if (!s.isSuccess()) {
        log.atWarn()
            .setMessage("plugin failed")
            .addKeyValue("pod", podToSchedule.key())
            .addKeyValue("node", node.name())
            .addKeyValue("operation", add ? "addPod" : "removePod")
            .addKeyValue("plugin", pl.name())
            .addKeyValue("status", s)
            .log();
        return wrapError(
            "running "
                + (add ? "AddPod" : "RemovePod")
                + " on PreFilter plugin \""
                + pl.name()
                + "\": ",
            s);
      }
    }
    return Status.success();
  }

  /**
   * Runs the Filter plugins not skipped this cycle on {@code node}; returns the first non-success:
   * a rejection as is, anything else as an Error {@code running "X" filter plugin: ...}, both
   * carrying the plugin name.
   */
  @Override
  public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    FilterPlugin[] active = activeFilterPlugins(state.skipFilterPlugins());
    boolean record = state.recordPluginMetrics();
    for (FilterPlugin pl : active) {
      long t = record ? System.nanoTime() : 0;
      Status s;
      try {
        s = nonNull(pl.filter(state, pod, node));
      } catch (RuntimeException e) {
        s = thrown(pl.name(), e);
      }
      if (record) {
        observePlugin(state, "Filter", pl.name(), s, t);
      }
      if (!s.isSuccess()) {
        if (!s.isRejected()) {
          s = wrapError("running \"" + pl.name() + "\" filter plugin: ", s);
        }
        return s.withPlugin(pl.name());
      }
    }
    return Status.success();
  }

  /** The Filter plugins not skipped under one cycle's skip set (the set itself, by identity). */
  private record ActiveFilters(Set<String> skipped, FilterPlugin[] plugins) {}

  private volatile ActiveFilters activeFilters;

  /**
   * Returns the Filter plugins not in {@code skipped}, in order. A cycle's skip set is one object
   * read for every node, so the answer is kept for the last set seen.
   */
  private FilterPlugin[] activeFilterPlugins(Set<String> skipped) {
    ActiveFilters a = activeFilters;
    if (a != null && a.skipped() == skipped) {
      return a.plugins();
    }
    List<FilterPlugin> out = new ArrayList<>(filterPlugins.size());
    for (FilterPlugin pl : filterPlugins) {
      if (!skipped.contains(pl.name())) {
        out.add(pl);
      }
    }
    FilterPlugin[] plugins = out.toArray(new FilterPlugin[0]);
    activeFilters = new ActiveFilters(skipped, plugins);
    return plugins;
  }

  /**
   * Runs the Filter plugins twice as kube does: first with the nominated pods of equal or higher
   * priority (other than the pod itself) added to copies of the node and the state, then, if any
   * were added and the first pass succeeded, on the originals.
   */
  @Override
  public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
    Status status = Status.success();
    boolean podsAdded = false;
    for (int i = 0; i < 2; i++) {
      CycleState stateToUse = state;
      NodeInfo nodeToUse = node;
      if (i == 0) {
        List<PodInfo> nominated = ctx.nominator().nominatedPodsForNode(node.name());
        if (nominated != null && !nominated.isEmpty()) {
          NodeInfo nodeOut = null;
          CycleState stateOut = null;
          for (PodInfo pi : nominated) {
            if (pi.priority() >= pod.priority() && !Objects.equals(pi.uid(), pod.uid())) {
              if (nodeOut == null) {
                nodeOut = node.snapshot();
                stateOut = state.clone();
              }
              nodeOut.addPod(pi);
              Status s = runPreFilterExtensionAddPod(stateOut, pod, pi, nodeOut);
              if (!s.isSuccess()) {
                return Status.error(
                    new io.kubesched.framework.SchedulingException(errorMessage(s)));
              }
              podsAdded = true;
            }
          }
          if (podsAdded) {
            stateToUse = stateOut;
            nodeToUse = nodeOut;
          }
        }
      } else if (!podsAdded || !status.isSuccess()) {
        break;
      }
      status = runFilterPlugins(stateToUse, pod, nodeToUse);
      if (!status.isSuccess() && !status.isRejected()) {
        return status;
      }
    }
    return status;
  }

  /**
   * Runs the PostFilter plugins (kube's {@code RunPostFilterPlugins}): Success ends the phase;
   * UnschedulableAndUnresolvable ends it with the plugin set; another non-rejection is an Error;
   * otherwise the reasons are gathered, the last non-Noop nomination kept and the next plugin
   * tried. The final status is Unschedulable with the gathered reasons and the first rejector.
   */
  public PostFilterResult runPostFilterPlugins(
      CycleState state, PodInfo pod, NodeToStatusReader statuses) {
    long start = System.nanoTime();
    PostFilterResult out = null;
    try {
      out = postFilter(state, pod, statuses);
      return out;
    } finally {
      observePoint("PostFilter", out == null ? Status.error("failed") : out.status(), start);
    }
  }

  private PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatusReader m) {
    NominatingInfo result = null;
    List<String> reasons = new ArrayList<>();
    String rejector = null;
    for (PostFilterPlugin pl : postFilterPlugins) {
      long t = System.nanoTime();
      PostFilterResult r;
      Status s;
      try {
        r = pl.postFilter(state, pod, m);
        if (r == null) {
          r = PostFilterResult.of(Status.success());
        }
        s = r.status();
      } catch (RuntimeException e) {
        r = null;
        s = thrown(pl.name(), e);
      }
      observePlugin(state, "PostFilter", pl.name(), s, t);
      if (s.isSuccess()) {
        return r;
      } else if (s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        return new PostFilterResult(s.withPlugin(pl.name()), r.nominatingInfo());
      } else if (!s.isRejected()) {
        return PostFilterResult.of(
            Status.error(new io.kubesched.framework.SchedulingException(errorMessage(s)))
                .withPlugin(pl.name()));
      } else if (r.nominatingInfo().mode() != NominatingInfo.Mode.NOOP) {
        result = r.nominatingInfo();
      }
      reasons.addAll(s.allReasons());
      if (rejector == null) {
        rejector = pl.name();
      }
    }
    Status s = new Status(Status.Code.UNSCHEDULABLE, reasons, null, rejector);
    return new PostFilterResult(s, result);
  }

  /**
   * Runs the PreScore plugins over the feasible {@code nodes}: Skip adds the plugin to the cycle's
   * skipped Score plugins; any other non-success is an Error {@code running PreScore plugin "X":
   * ...}.
   */
  public Status runPreScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    long start = System.nanoTime();
    Set<String> skip = new HashSet<>();
    Status status = Status.success();
    try {
      for (PreScorePlugin pl : preScorePlugins) {
        long t = System.nanoTime();
        Status s;
        try {
          s = nonNull(pl.preScore(state, pod, nodes));
        } catch (RuntimeException e) {
          s = thrown(pl.name(), e);
        }
        observePlugin(state, "PreScore", pl.name(), s, t);
        if (s.isSkip()) {
          skip.add(pl.name());
          continue;
        }
        if (!s.isSuccess()) {
          status = wrapError("running PreScore plugin \"" + pl.name() + "\": ", s);
          return status;
        }
      }
      return status;
    } finally {
      EngineAccess.setSkipScorePlugins(state, skip);
      observePoint("PreScore", status, start);
    }
  }

  /**
   * Runs the Score plugins not skipped this cycle over {@code nodes} in parallel, normalises each
   * plugin's scores, checks they lie in [0, 100] and weights them (kube's {@code RunScorePlugins});
   * errors carry kube's messages.
   */
  public ScoreOutcome runScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    long start = System.nanoTime();
    ScoreOutcome out = null;
    try {
      out = score(state, pod, nodes);
      return out;
    } finally {
      observePoint("Score", out == null ? Status.error("failed") : out.status(), start);
    }
  }

  private ScoreOutcome score(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    Set<String> skipped = state.skipScorePlugins();
    List<ScorePlugin> plugins = new ArrayList<>(scorePlugins.size());
    for (ScorePlugin pl : scorePlugins) {
      if (!skipped.contains(pl.name())) {
        plugins.add(pl);
      }
    }
    int n = nodes.size();
    NodeScores[] perPlugin = new NodeScores[plugins.size()];
    for (int p = 0; p < perPlugin.length; p++) {
      perPlugin[p] = new NodeScores(nodes);
    }
    if (!plugins.isEmpty()) {
      AtomicReference<String> error = new AtomicReference<>();
      AtomicBoolean cancelled = new AtomicBoolean();
      boolean record = state.recordPluginMetrics();
      parallel(
          n,
          index -> {
            NodeInfo node = nodes.get(index);
            for (int p = 0; p < plugins.size(); p++) {
              ScorePlugin pl = plugins.get(p);
              long t = record ? System.nanoTime() : 0;
              long score;
              try {
                score = pl.score(state, pod, node);
              } catch (RuntimeException e) {
                Status s = thrown(pl.name(), e);
                observePlugin(state, "Score", pl.name(), s, t);
                if (error.compareAndSet(
                    null, "plugin \"" + pl.name() + "\" failed with: " + errorMessage(s))) {
                  cancelled.set(true);
                }
                return;
              }
              if (record) {
                observePlugin(state, "Score", pl.name(), Status.success(), t);
              }
              perPlugin[p].array()[index] = score;
            }
          },
          cancelled::get);
      if (error.get() != null) {
        return new ScoreOutcome(List.of(), Status.error("running Score plugins: " + error.get()));
      }
    }

    for (int p = 0; p < plugins.size(); p++) {
      ScorePlugin pl = plugins.get(p);
      if (!(pl instanceof ScoreExtensions ext)) {
        continue;
      }
      long t = System.nanoTime();
      Status s;
      try {
        s = nonNull(ext.normalizeScore(state, pod, perPlugin[p]));
      } catch (RuntimeException e) {
        s = thrown(pl.name(), e);
      }
      observePlugin(state, "ScoreExtensionNormalize", pl.name(), s, t);
      if (!s.isSuccess()) {
        return new ScoreOutcome(
            List.of(),
            Status.error(
                "running Normalize on Score plugins: plugin \""
                    + pl.name()
                    + "\" failed with: "
                    + errorMessage(s)));
      }
    }

    // Weighted totals, plugin by plugin over the shared score arrays; the per-plugin map of a
    // node is only built when asked for (NodePluginScores.scores()).
    String[] names = new String[plugins.size()];
    long[][] byPlugin = new long[plugins.size()][];
    long[] totals = new long[n];
    for (int p = 0; p < plugins.size(); p++) {
      ScorePlugin pl = plugins.get(p);
      names[p] = pl.name();
      byPlugin[p] = perPlugin[p].array();
      long weight = scoreWeights.get(pl.name());
      for (int i = 0; i < n; i++) {
        long score = byPlugin[p][i];
        if (score > ScorePlugin.MAX_NODE_SCORE || score < ScorePlugin.MIN_NODE_SCORE) {
          return new ScoreOutcome(
              List.of(),
              Status.error(
                  "applying score defaultWeights on Score plugins: plugin \""
                      + invalidScorePlugin(plugins, perPlugin, n)
                      + "\" returns an invalid score "
                      + invalidScore(perPlugin, n)
                      + ", it should in the range of ["
                      + ScorePlugin.MIN_NODE_SCORE
                      + ", "
                      + ScorePlugin.MAX_NODE_SCORE
                      + "] after normalizing"));
        }
        totals[i] += score * weight;
      }
    }
    List<NodePluginScores> result = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      result.add(new NodePluginScores(nodes.get(i).name(), names, byPlugin, i, totals[i]));
    }
    return new ScoreOutcome(result, Status.success());
  }

  /** Returns the plugin of the first out-of-range score, nodes first then plugins (kube's order). */
  private static String invalidScorePlugin(List<ScorePlugin> plugins, NodeScores[] perPlugin, int n) {
    int[] at = firstInvalidScore(perPlugin, n);
    return plugins.get(at[0]).name();
  }

  /** Returns the first out-of-range score, nodes first then plugins. */
  private static long invalidScore(NodeScores[] perPlugin, int n) {
    int[] at = firstInvalidScore(perPlugin, n);
    return perPlugin[at[0]].array()[at[1]];
  }

  private static int[] firstInvalidScore(NodeScores[] perPlugin, int n) {
    for (int i = 0; i < n; i++) {
      for (int p = 0; p < perPlugin.length; p++) {
        long score = perPlugin[p].array()[i];
        if (score > ScorePlugin.MAX_NODE_SCORE || score < ScorePlugin.MIN_NODE_SCORE) {
          return new int[] {p, i};
        }
      }
    }
    throw new IllegalStateException("no invalid score");
  }

  /**
   * Runs Reserve of the Reserve plugins in order, stopping at the first failure: a rejection is
   * returned with its plugin, anything else as an Error {@code running Reserve plugin "X": ...}.
   */
  public Status runReservePluginsReserve(CycleState state, PodInfo pod, String node) {
    long start = System.nanoTime();
    Status status = Status.success();
    try {
      for (ReservePlugin pl : reservePlugins) {
        long t = System.nanoTime();
        Status s;
        try {
          s = nonNull(pl.reserve(state, pod, node));
        } catch (RuntimeException e) {
          s = thrown(pl.name(), e);
        }
        observePlugin(state, "Reserve", pl.name(), s, t);
        if (!s.isSuccess()) {
          if (s.isRejected()) {
            log.atDebug()
                .setMessage("pod rejected by Reserve plugin")
                .addKeyValue("pod", pod.key())
                .addKeyValue("node", node)
                .addKeyValue("plugin", pl.name())
                .addKeyValue("status", s)
                .log();
            status = s.withPlugin(pl.name());
          } else {
            status = wrapError("running Reserve plugin \"" + pl.name() + "\": ", s);
          }
          return status;
        }
      }
      return status;
    } finally {
      observePoint("Reserve", status, start);
    }
  }

  /** Runs Unreserve of every Reserve plugin in reverse order; exceptions are logged. */
  public void runReservePluginsUnreserve(CycleState state, PodInfo pod, String node) {
    long start = System.nanoTime();
    for (int i = reservePlugins.size() - 1; i >= 0; i--) {
      ReservePlugin pl = reservePlugins.get(i);
      long t = System.nanoTime();
      try {
        pl.unreserve(state, pod, node);
      } catch (RuntimeException e) {
        thrown(pl.name(), e);
      }
      observePlugin(state, "Unreserve", pl.name(), Status.success(), t);
    }
    observePoint("Unreserve", Status.success(), start);
  }

  /**
   * Runs the Permit plugins in order: a rejection returns at once with its plugin; Wait records the
   * plugin with {@code min(timeout, 15m)}; anything else is an Error {@code running Permit plugin
   * "X": ...}. If any plugin waits, the pod is registered in {@link WaitingPods} and {@code Wait
   * "one or more plugins asked to wait and no plugin rejected pod "<name>""} returned.
   */
  public Status runPermitPlugins(CycleState state, PodInfo pod, String node) {
    long start = System.nanoTime();
    Status status = Status.success();
    try {
      Map<String, Duration> waits = new LinkedHashMap<>();
      for (PermitPlugin pl : permitPlugins) {
        long t = System.nanoTime();
        Status s;
        Duration timeout;
        try {
          PermitResult r = pl.permit(state, pod, node);
          if (r == null) {
            r = PermitResult.allow();
          }
          s = r.status();
          timeout = r.timeout();
        } catch (RuntimeException e) {
          s = thrown(pl.name(), e);
          timeout = Duration.ZERO;
        }
        observePlugin(state, "Permit", pl.name(), s, t);
        if (s.isSuccess()) {
          continue;
        }
        if (s.isRejected()) {
          log.atDebug()
              .setMessage("pod rejected by Permit plugin")
              .addKeyValue("pod", pod.key())
              .addKeyValue("node", node)
              .addKeyValue("plugin", pl.name())
              .addKeyValue("status", s)
              .log();
          status = s.withPlugin(pl.name());
          return status;
        }
        if (s.isWait()) {
          waits.put(
              pl.name(), timeout.compareTo(MAX_PERMIT_TIMEOUT) > 0 ? MAX_PERMIT_TIMEOUT : timeout);
        } else {
          status =
              wrapError("running Permit plugin \"" + pl.name() + "\": ", s).withPlugin(pl.name());
          return status;
        }
      }
      if (!waits.isEmpty()) {
        ctx.waitingPods().add(pod, node, waits);
        log.atDebug()
            .setMessage("one or more plugins asked to wait and no plugin rejected pod")
            .addKeyValue("pod", pod.key())
            .addKeyValue("node", node)
            .log();
        status =
            Status.waiting(
                "one or more plugins asked to wait and no plugin rejected pod \""
                    + pod.name()
                    + "\"");
      }
      return status;
    } finally {
      observePoint("Permit", status, start);
    }
  }

  /** Returns whether {@code pod} is waiting at Permit. */
  public boolean willWaitOnPermit(PodInfo pod) {
    return ctx.waitingPods().get(pod.uid()) != null;
  }

  /**
   * Returns a future completed when the pod waiting at Permit is allowed (Success) or rejected (the
   * rejection with its plugin); already complete with Success when the pod is not waiting. The pod
   * leaves {@link WaitingPods} when the future completes.
   */
  public CompletableFuture<Status> waitOnPermit(PodInfo pod) {
    WaitingPods wp = ctx.waitingPods();
    CompletableFuture<Status> signal = wp.signal(pod.uid());
    if (signal == null) {
      return CompletableFuture.completedFuture(Status.success());
    }
    return signal.thenApply(
        s -> {
          wp.remove(pod.uid());
          if (s.isSuccess()) {
            return s;
          }
          if (s.isRejected()) {
            log.atDebug()
                .setMessage("pod rejected while waiting on permit")
                .addKeyValue("pod", pod.key())
                .addKeyValue("plugin", s.plugin())
                .addKeyValue("status", s)
                .log();
            return s;
          }
          return Status.error(
                  new io.kubesched.framework.SchedulingException(
                      "waiting on permit for pod: " + errorMessage(s)))
              .withPlugin(s.plugin());
        });
  }

  /**
   * Runs the PreBind plugins in order: a rejection is returned with its plugin, anything else as an
   * Error {@code running PreBind plugin "X": ...}.
   */
  public Status runPreBindPlugins(CycleState state, PodInfo pod, String node) {
    long start = System.nanoTime();
    Status status = Status.success();
    try {
      for (PreBindPlugin pl : preBindPlugins) {
        long t = System.nanoTime();
        Status s;
        try {
          s = nonNull(pl.preBind(state, pod, node));
        } catch (RuntimeException e) {
          s = thrown(pl.name(), e);
        }
        observePlugin(state, "PreBind", pl.name(), s, t);
        if (!s.isSuccess()) {
          status =
              s.isRejected()
                  ? s.withPlugin(pl.name())
                  : wrapError("running PreBind plugin \"" + pl.name() + "\": ", s);
          return status;
        }
      }
      return status;
    } finally {
      observePoint("PreBind", status, start);
    }
  }

  /**
   * Runs the Bind plugins until one does not Skip: Success ends the binding, a rejection is
   * returned with its plugin, anything else as an Error {@code running Bind plugin "X": ...}. When
   * every plugin skips, the Skip status is returned and the caller treats it as a failed binding.
   */
  public Status runBindPlugins(CycleState state, PodInfo pod, String node) {
    long start = System.nanoTime();
    Status status = Status.skip();
    try {
      for (BindPlugin pl : bindPlugins) {
        long t = System.nanoTime();
        Status s;
        try {
          s = nonNull(pl.bind(state, pod, node));
        } catch (RuntimeException e) {
          s = thrown(pl.name(), e);
        }
        observePlugin(state, "Bind", pl.name(), s, t);
        status = s;
        if (s.isSkip()) {
          continue;
        }
        if (!s.isSuccess()) {
          status =
              s.isRejected()
                  ? s.withPlugin(pl.name())
                  : wrapError("running Bind plugin \"" + pl.name() + "\": ", s);
        }
        return status;
      }
      return status;
    } finally {
      observePoint("Bind", status, start);
    }
  }

  /** Runs the PostBind plugins; exceptions are logged. */
  public void runPostBindPlugins(CycleState state, PodInfo pod, String node) {
    long start = System.nanoTime();
    for (PostBindPlugin pl : postBindPlugins) {
      long t = System.nanoTime();
      try {
        pl.postBind(state, pod, node);
      } catch (RuntimeException e) {
        thrown(pl.name(), e);
      }
      observePlugin(state, "PostBind", pl.name(), Status.success(), t);
    }
    observePoint("PostBind", Status.success(), start);
  }

  // ---------------------------------------------------------------------------------------------
  // Handle

  @Override
  public io.kubesched.framework.FeatureGates featureGates() {
    return ctx.featureGates();
  }

  @Override
  public NodeInfoLister snapshot() {
    Supplier<NodeInfoLister> s = ctx.snapshot();
    return s == null ? null : s.get();
  }

  @Override
  public ClusterClient client() {
    return ctx.client();
  }

  @Override
  public EventRecorder eventRecorder() {
    return ctx.eventRecorder();
  }

  @Override
  public Parallelizer parallelizer() {
    return ctx.parallelizer();
  }

  @Override
  public Clock clock() {
    return ctx.clock();
  }

  @Override
  public PodNominator nominator() {
    return ctx.nominator();
  }

  @Override
  public void iterateOverWaitingPods(Consumer<WaitingPod> action) {
    ctx.waitingPods().iterate(action);
  }

  @Override
  public java.util.Optional<WaitingPod> getWaitingPod(String uid) {
    return java.util.Optional.ofNullable(ctx.waitingPods().get(uid));
  }

  /** Rejects the waiting pod with {@code uid} with message {@code removed} and no plugin. */
  @Override
  public boolean rejectWaitingPod(String uid) {
    return ctx.waitingPods().reject(uid, "", "removed");
  }

  @Override
  public void activate(Collection<V1Pod> pods) {
    ctx.activator().accept(pods);
  }

  @Override
  public String toString() {
    return "Framework{" + profileName + ", " + listPlugins() + "}";
  }
}
