package io.kubesched.core.runtime;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.config.Profile;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.Plugin;
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
import io.kubesched.framework.PreemptionObserver;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.Status;
import io.kubesched.framework.WaitingPod;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runners of every extension point of one profile (kube's {@code frameworkImpl}); also the
 * {@link FrameworkHandle} its plugins receive.
 *
 * <p>Built by {@link #create}, which assembles the profile's {@link ProfilePlugins} once (see
 * {@link ProfileAssembler}); the runners only read it. Every plugin call goes through {@link
 * PluginCalls}, which catches what a plugin throws and turns it into {@code
 * Status.error(e).withPlugin(name)}, so a faulty plugin fails the pod's cycle, never the scheduler,
 * and records plugin durations when the cycle state asks for them ({@link
 * CycleState#recordPluginMetrics()}). Runners report extension-point durations to {@link
 * SchedulerMetrics}. Thread-safe once built.
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
      scores = ScoreTable.immutable(scores);
      Objects.requireNonNull(status, "status must not be null");
    }
  }

  private final String profileName;
  private final Integer percentageOfNodesToScore;
  private final int globalPercentageOfNodesToScore;
  private final FrameworkContext ctx;
  private final PluginCalls calls;
  private final ScoreRunner scores;
  private final List<SchedulerExtender> extenders;
  private final ProfilePlugins plugins;
  private final SkipSets preFilterSkips;
  private final SkipSets preScoreSkips;
  // runFilterPlugins on one node: the calling thread's named rejections, shared between the nodes
  // a plugin rejects with one status object, as in the Filter phase's blocks
  private final ThreadLocal<FilterScratch> nodeScratch =
      ThreadLocal.withInitial(FilterScratch::new);

  /**
   * Builds the plugins with this framework as their handle: they may keep it, but must not run
   * extension points while being built.
   */
  private Framework(
      Profile profile,
      int globalPercentage,
      PluginRegistry registry,
      FrameworkContext ctx,
      List<SchedulerExtender> extenders) {
    this.profileName = profile.schedulerName();
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore();
    this.globalPercentageOfNodesToScore = globalPercentage;
    this.ctx = ctx;
    this.calls = new PluginCalls(ctx.metrics());
    this.extenders = extenders == null ? List.of() : List.copyOf(extenders);
    this.plugins =
        new ProfileAssembler(profile, registry, this, !this.extenders.isEmpty()).assemble();
    this.filterPluginArray = plugins.filter().toArray(new FilterPlugin[0]);
    this.preFilterSkips = new SkipSets(plugins.preFilter());
    this.preScoreSkips = new SkipSets(plugins.preScore());
    this.scores = new ScoreRunner(plugins, calls, this::parallel);
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
    Framework f = new Framework(profile, globalPercentageOfNodesToScore, registry, ctx, extenders);
    log.atInfo()
        .setMessage("the scheduler starts to work with those plugins")
        .addKeyValue("profile", f.profileName)
        .addKeyValue("plugins", f::listPlugins)
        .log();
    return f;
  }

  /**
   * Returns the registrations kube gives a plugin without {@link EnqueueExtensions}: every resource
   * with action {@code All} (kube's {@code UnrollWildCardResource}).
   */
  public static List<ClusterEventWithHint> unrollWildCardResource() {
    return ProfileAssembler.unrollWildCardResource();
  }

  /**
   * Returns a new cycle state whose plugin metrics are recorded in {@value
   * #PLUGIN_METRICS_SAMPLE_PERCENT}% of the calls, decided with {@code random} as kube does at the
   * start of each scheduling cycle.
   */
  public static CycleState newCycleState(java.util.Random random) {
    return newCycleState(random, true);
  }

  /**
   * Returns a new cycle state as {@link #newCycleState(java.util.Random)} does, drawing from {@code
   * random} the same way, but recording no plugin metrics when {@code metricsRecorded} is false (a
   * scheduler whose metrics go nowhere: timing each plugin call would only cost).
   */
  public static CycleState newCycleState(java.util.Random random, boolean metricsRecorded) {
    CycleState state = new CycleState();
    boolean sampled = random.nextInt(100) < PLUGIN_METRICS_SAMPLE_PERCENT;
    EngineAccess.setRecordPluginMetrics(state, sampled && metricsRecorded);
    return state;
  }

  /**
   * Closes every plugin that is {@link AutoCloseable} (kube's {@code Close}); all are tried, and
   * the first failure is rethrown with the others suppressed.
   */
  @Override
  public void close() {
    plugins.close();
  }

  // ---------------------------------------------------------------------------------------------
  // Accessors

  @Override
  public String profileName() {
    return profileName;
  }

  /** Returns the QueueSort plugin. */
  public QueueSortPlugin queueSortPlugin() {
    return plugins.queueSort();
  }

  /** Returns the PreEnqueue plugins, in order. */
  public List<PreEnqueuePlugin> preEnqueuePlugins() {
    return plugins.preEnqueue();
  }

  /**
   * Returns the events each plugin registered, by plugin name: PreEnqueue, PreFilter, Filter,
   * Reserve and Permit plugins; those without {@link EnqueueExtensions} get every resource with
   * action {@code All}.
   */
  public Map<String, List<ClusterEventWithHint>> enqueueExtensions() {
    return plugins.enqueueExtensions();
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
    return !plugins.filter().isEmpty();
  }

  /** Returns whether the profile has Score plugins. */
  public boolean hasScorePlugins() {
    return !plugins.score().isEmpty();
  }

  /** Returns whether the profile has PostFilter plugins. */
  public boolean hasPostFilterPlugins() {
    return !plugins.postFilter().isEmpty();
  }

  /** Returns every built plugin by its configured name. */
  public Map<String, Plugin> plugins() {
    return plugins.plugins();
  }

  /** Returns the profile's assembled plugins: every extension point's list, weights and events. */
  public ProfilePlugins profilePlugins() {
    return plugins;
  }

  /** Returns the names of the plugins run at {@code point}, in order. */
  public List<String> pluginNames(ExtensionPoint point) {
    return plugins.names(point);
  }

  /** Returns the plugin names of every point, by kube's point name (kube's {@code ListPlugins}). */
  public Map<String, List<String>> listPlugins() {
    return plugins.list();
  }

  /** Returns the weight of every Score plugin (and weighted MultiPoint plugin), by name. */
  public Map<String, Integer> scoreWeights() {
    return plugins.scoreWeights();
  }

  /** Returns the extenders, in configuration order. */
  public List<SchedulerExtender> extenders() {
    return extenders;
  }

  /** Returns the metrics sink. */
  public SchedulerMetrics metrics() {
    return ctx.metrics();
  }

  /** Returns an observer that reports preemption attempts and victims to {@link #metrics()}. */
  @Override
  public PreemptionObserver preemptionObserver() {
    return new MetricsPreemptionObserver(ctx.metrics());
  }

  /** Returns the map of waiting pods shared by all profiles. */
  public WaitingPods waitingPods() {
    return ctx.waitingPods();
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private void observePoint(String point, Status status, long startNanos) {
    ctx.metrics()
        .extensionPointDuration(
            point,
            status.code().toString(),
            profileName,
            Duration.ofNanos(System.nanoTime() - startNanos));
  }

  /** Runs {@code work} over {@code n} pieces on the parallelizer until {@code cancelled}. */
  void parallel(int n, IntConsumer work, BooleanSupplier cancelled) {
    ExecutorParallelizer.until(ctx.parallelizer(), n, work, cancelled);
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
    for (PreEnqueuePlugin pl : plugins.preEnqueue()) {
      Status s = calls.status("PreEnqueue", pl, null, pod, null, PluginCalls.PRE_ENQUEUE);
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
    SkipSets.Collector skip = preFilterSkips.collector();
    PreFilterOutcome out = null;
    try {
      out = preFilter(state, pod, nodes, skip);
      return out;
    } finally {
      EngineAccess.setSkipFilterPlugins(state, skip.set());
      observePoint("PreFilter", out == null ? Status.error("failed") : out.status(), start);
    }
  }

  private PreFilterOutcome preFilter(
      CycleState state, PodInfo pod, List<NodeInfo> nodes, SkipSets.Collector skip) {
    Set<String> result = null;
    Set<String> pluginsWithNodes = null;
    Status returnStatus = Status.success();
    List<PreFilterPlugin> preFilters = plugins.preFilter();
    for (int i = 0; i < preFilters.size(); i++) {
      PreFilterPlugin pl = preFilters.get(i);
      PreFilterResult r =
          calls.run(
              "PreFilter",
              pl,
              state,
              pod,
              nodes,
              PreFilterPlugin::preFilter,
              PluginCalls.PRE_FILTER);
      Status s = r.status();
      if (s.isSkip()) {
        skip.add(i, pl.name());
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
            PluginCalls.wrapError("running PreFilter plugin \"" + pl.name() + "\": ", s)
                .withPlugin(pl.name()),
            null);
      }
      if (!r.allNodes()) {
        if (pluginsWithNodes == null) {
          pluginsWithNodes = new TreeSet<>();
        }
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

  @Override
  public boolean preFilterExtensionsActive(CycleState state) {
    return activeExtensions(state.skipFilterPlugins()).length > 0;
  }

  private Status runPreFilterExtension(
      CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node, boolean add) {
    PreFilterPlugin[] extensions = activeExtensions(state.skipFilterPlugins());
    if (extensions.length == 0) {
      return Status.success();
    }
    String point = add ? "PreFilterExtensionAddPod" : "PreFilterExtensionRemovePod";
    PluginCalls.Call<PreFilterPlugin, NodeInfo, Status> call =
        add
            ? (pl, st, pod, n) -> ((PreFilterExtensions) pl).addPod(st, pod, other, n)
            : (pl, st, pod, n) -> ((PreFilterExtensions) pl).removePod(st, pod, other, n);
    for (PreFilterPlugin pl : extensions) {
      Status s = calls.status(point, pl, state, podToSchedule, node, call);
      if (!s.isSuccess()) {
        log.atWarn()
            .setMessage("plugin failed")
            .addKeyValue("pod", podToSchedule.key())
            .addKeyValue("node", node.name())
            .addKeyValue("operation", add ? "addPod" : "removePod")
            .addKeyValue("plugin", pl.name())
            .addKeyValue("status", s)
            .log();
        return PluginCalls.wrapError(
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
    BoundFilters filters = boundFilters(state, pod);
    FilterPlugin[] active = filters.plugins();
    CycleBoundFilter.NodeCheck[] bound = filters.checks();
    for (int i = 0; i < active.length; i++) {
      FilterPlugin pl = active[i];
      CycleBoundFilter.NodeCheck check = bound[i];
      Status s =
          check != null
              ? calls.filter(pl, check, state, node)
              : calls.status("Filter", pl, state, pod, node, FilterPlugin::filter);
      if (!s.isSuccess()) {
        if (!s.isRejected()) {
          s = PluginCalls.wrapError("running \"" + pl.name() + "\" filter plugin: ", s);
          return s.withPlugin(pl.name());
        }
        return nodeScratch.get().named(i, pl, s);
      }
    }
    return Status.success();
  }

  /**
   * Runs the Filter plugins on several nodes at once with the same result as {@link
   * #runFilterPlugins} on each: {@code out[k]} becomes {@code nodes[k]}'s status. The plugins run
   * one after the other, each on the nodes every earlier plugin passed ({@link
   * CycleBoundFilter.NodeCheck#filterAll}), so a node's status is that of the first plugin that did
   * not pass it, as node by node. After an Error on a node, no plugin runs on the later nodes: they
   * get that Error too, and a caller walking the statuses in order stops at the first. A cycle that
   * records plugin metrics goes node by node, so that every call is timed as kube times it. {@code
   * count} is at most {@link FilterScratch#BLOCK}; {@code scratch} is the calling thread's.
   */
  void runFilterPlugins(
      CycleState state,
      PodInfo pod,
      NodeInfo[] nodes,
      int count,
      NodeColumns columns,
      int[] rows,
      Status[] out,
      FilterScratch scratch) {
    if (state.recordPluginMetrics()) {
      for (int k = 0; k < count; k++) {
        out[k] = runFilterPlugins(state, pod, nodes[k]);
        if (out[k].code() == Status.Code.ERROR) {
          java.util.Arrays.fill(out, k + 1, count, out[k]);
          return;
        }
      }
      return;
    }
    BoundFilters filters = boundFilters(state, pod);
    FilterPlugin[] active = filters.plugins();
    CycleBoundFilter.NodeCheck[] bound = filters.checks();
    int[] alive = scratch.alive;
    NodeInfo[] remaining = scratch.remaining;
    Status[] result = scratch.result;
    int[] remainingRows = columns == null ? null : scratch.remainingRows;
    Status success = Status.success();
    for (int k = 0; k < count; k++) {
      alive[k] = k;
      remaining[k] = nodes[k];
      out[k] = success;
    }
    if (remainingRows != null) {
      System.arraycopy(rows, 0, remainingRows, 0, count);
    }
    boolean[] passAll = columns == null ? null : filters.rowPasses().of(columns, bound);
    int n = count;
    for (int i = 0; i < active.length && n > 0; i++) {
      if (passAll != null && passAll[i]) {
        continue;
      }
      FilterPlugin pl = active[i];
      CycleBoundFilter.NodeCheck check = bound[i];
      int ran = n;
      if (check != null) {
        try {
          check.filterAll(remaining, n, columns, remainingRows, result);
        } catch (RuntimeException e) {
          ran = filterOneByOne(pl, check, state, pod, remaining, n, result);
        }
      } else {
        ran = filterOneByOne(pl, null, state, pod, remaining, n, result);
      }
      // the nodes before the first that did not pass stay where they are
      int first = 0;
      while (first < ran && (result[first] == null || result[first].isSuccess())) {
        first++;
      }
      if (first == n) {
        continue;
      }
      int m = first;
      for (int j = first; j < ran; j++) {
        Status s = result[j];
        if (s == null || s.isSuccess()) {
          alive[m] = alive[j];
          remaining[m] = remaining[j];
          if (remainingRows != null) {
            remainingRows[m] = remainingRows[j];
          }
          m++;
          continue;
        }
        if (!s.isRejected()) {
          s = PluginCalls.wrapError("running \"" + pl.name() + "\" filter plugin: ", s);
          s = s.withPlugin(pl.name());
          // the nodes after the Error carry it and are not filtered any further; the nodes still
          // alive (positions alive[0..m)) all come before it
          java.util.Arrays.fill(out, alive[j], count, s);
          break;
        }
        out[alive[j]] = scratch.named(i, pl, s);
      }
      n = m;
    }
    java.util.Arrays.fill(remaining, 0, count, null);
    java.util.Arrays.fill(result, 0, count, null);
  }

  /**
   * Runs one plugin's Filter node by node on {@code nodes[0..n)} until the first Error; returns how
   * many nodes it ran on.
   */
  private int filterOneByOne(
      FilterPlugin pl,
      CycleBoundFilter.NodeCheck check,
      CycleState state,
      PodInfo pod,
      NodeInfo[] nodes,
      int n,
      Status[] result) {
    for (int j = 0; j < n; j++) {
      Status s =
          check != null
              ? calls.filter(pl, check, state, nodes[j])
              : calls.status("Filter", pl, state, pod, nodes[j], FilterPlugin::filter);
      result[j] = s;
      if (!s.isSuccess() && !s.isRejected()) {
        return j + 1;
      }
    }
    return n;
  }

  /**
   * One cycle's Filter plugins bound to the pod and the state ({@link CycleBoundFilter}), kept in
   * the state until its next write: {@code null} for a plugin without the face or whose binding
   * threw (it is called unbound, per node).
   */
  private record BoundFilters(
      PodInfo pod,
      Set<String> skipped,
      FilterPlugin[] plugins,
      CycleBoundFilter.NodeCheck[] checks,
      RowPasses rowPasses) {}

  /**
   * Which of a cycle's bound checks pass every row of the snapshot's columns ({@link
   * CycleBoundFilter.NodeCheck#passesAllRows}), asked on the first block that reads those columns.
   */
  private static final class RowPasses {
    private record Answer(NodeColumns columns, boolean[] passes) {}

    private volatile Answer last;

    boolean[] of(NodeColumns columns, CycleBoundFilter.NodeCheck[] checks) {
      Answer a = last;
      if (a != null && a.columns() == columns) {
        return a.passes();
      }
      boolean[] passes = new boolean[checks.length];
      for (int i = 0; i < checks.length; i++) {
        try {
          passes[i] = checks[i] != null && checks[i].passesAllRows(columns);
        } catch (RuntimeException e) {
          passes[i] = false; // the check itself then runs, and reports what goes wrong
        }
      }
      last = new Answer(columns, passes);
      return passes;
    }
  }

  /**
   * The cycle's active Filter plugins and their bound faces, resolved once per pod, skip set and
   * state revision (the state's engine cache), so a Filter phase of many blocks resolves them once.
   */
  private BoundFilters boundFilters(CycleState state, PodInfo pod) {
    Set<String> skipped = state.skipFilterPlugins();
    if (EngineAccess.engineCache(state) instanceof BoundFilters b
        && b.pod() == pod
        && b.skipped() == skipped) {
      return b;
    }
    FilterPlugin[] active = activeFilterPlugins(skipped);
    CycleBoundFilter.NodeCheck[] checks = new CycleBoundFilter.NodeCheck[active.length];
    for (int i = 0; i < active.length; i++) {
      if (active[i] instanceof CycleBoundFilter f) {
        try {
          checks[i] = f.bindFilter(state, pod);
        } catch (RuntimeException e) {
          checks[i] = null;
        }
      }
    }
    BoundFilters out = new BoundFilters(pod, skipped, active, checks, new RowPasses());
    EngineAccess.setEngineCache(state, out);
    return out;
  }

  /** The Filter plugins not skipped under one cycle's skip set (the set itself, by identity). */
  private record ActiveFilters(Set<String> skipped, FilterPlugin[] plugins) {}

  private record ActiveExtensions(Set<String> skipped, PreFilterPlugin[] plugins) {}

  private volatile ActiveExtensions activeExtensions;

  /**
   * Returns the PreFilter plugins with extensions not in {@code skipped}, in order; kept for the
   * last skip set seen, as {@link #activeFilterPlugins} (preemption's dry run and the nominated
   * pods' pass call the extensions several times per node).
   */
  private PreFilterPlugin[] activeExtensions(Set<String> skipped) {
    ActiveExtensions a = activeExtensions;
    if (a != null && a.skipped() == skipped) {
      return a.plugins();
    }
    List<PreFilterPlugin> out = new ArrayList<>();
    for (PreFilterPlugin pl : plugins.preFilter()) {
      if (pl instanceof PreFilterExtensions && !skipped.contains(pl.name())) {
        out.add(pl);
      }
    }
    PreFilterPlugin[] arr = out.toArray(new PreFilterPlugin[0]);
    activeExtensions = new ActiveExtensions(skipped, arr);
    return arr;
  }

  private volatile ActiveFilters activeFilters;
  private final FilterPlugin[] filterPluginArray;

  /**
   * Returns the Filter plugins not in {@code skipped}, in order. A cycle's skip set is one object
   * read for every node, so the answer is kept for the last set seen.
   */
  private FilterPlugin[] activeFilterPlugins(Set<String> skipped) {
    ActiveFilters a = activeFilters;
    if (a != null && a.skipped() == skipped) {
      return a.plugins();
    }
    FilterPlugin[] all = filterPluginArray;
    FilterPlugin[] active = new FilterPlugin[all.length];
    int n = 0;
    for (FilterPlugin pl : all) {
      if (!skipped.contains(pl.name())) {
        active[n++] = pl;
      }
    }
    FilterPlugin[] plugins = n == all.length ? all : Arrays.copyOf(active, n);
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
    return runFilterPluginsWithNominatedPods(
        state, pod, node, ctx.nominator().nominatedPodsForNode(node.name()));
  }

  /**
   * The same with the pods nominated to {@code node} given (as {@link
   * PodNominator#nominatedPodsByNode()} read them for the whole Filter phase).
   *
   * <p>The first pass adds the nominated pods to a copy of the node and, when a PreFilter extension
   * is active, to a copy of the state; with none active the AddPod calls leave the state as it is,
   * so the pass reads the given state itself (Filter plugins only read it) and keeps its resolved
   * Filter plugins.
   */
  @Override
  public Status runFilterPluginsWithNominatedPods(
      CycleState state, PodInfo pod, NodeInfo node, List<PodInfo> nominated) {
    Status status = Status.success();
    boolean podsAdded = false;
    for (int i = 0; i < 2; i++) {
      CycleState stateToUse = state;
      NodeInfo nodeToUse = node;
      if (i == 0) {
        if (nominated != null && !nominated.isEmpty()) {
          NodeInfo nodeOut = null;
          CycleState stateOut = null;
          for (PodInfo pi : nominated) {
            if (pi.priority() >= pod.priority() && !sameUid(pi.uid(), pod.uid())) {
              if (nodeOut == null) {
                nodeOut = node.snapshot();
                stateOut = preFilterExtensionsActive(state) ? state.clone() : state;
              }
              nodeOut.addPod(pi);
              Status s = runPreFilterExtensionAddPod(stateOut, pod, pi, nodeOut);
              if (!s.isSuccess()) {
                return Status.error(new SchedulingException(PluginCalls.errorMessage(s)));
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
   * Returns whether two UIDs are equal, comparing their cached hash codes first: UIDs often share
   * long prefixes, which makes a plain comparison of different ones walk most of their characters.
   */
  private static boolean sameUid(String a, String b) {
    if (a == b) {
      return true;
    }
    return a != null && b != null && a.hashCode() == b.hashCode() && a.equals(b);
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
    for (PostFilterPlugin pl : plugins.postFilter()) {
      PostFilterResult r =
          calls.run(
              "PostFilter",
              pl,
              state,
              pod,
              m,
              PostFilterPlugin::postFilter,
              PluginCalls.POST_FILTER);
      Status s = r.status();
      if (s.isSuccess()) {
        return r;
      } else if (s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        return new PostFilterResult(s.withPlugin(pl.name()), r.nominatingInfo());
      } else if (!s.isRejected()) {
        return PostFilterResult.of(
            Status.error(new SchedulingException(PluginCalls.errorMessage(s)))
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
    SkipSets.Collector skip = preScoreSkips.collector();
    Status status = Status.success();
    try {
      List<PreScorePlugin> preScores = plugins.preScore();
      for (int i = 0; i < preScores.size(); i++) {
        PreScorePlugin pl = preScores.get(i);
        Status s = calls.status("PreScore", pl, state, pod, nodes, PreScorePlugin::preScore);
        if (s.isSkip()) {
          skip.add(i, pl.name());
          continue;
        }
        if (!s.isSuccess()) {
          status = PluginCalls.wrapError("running PreScore plugin \"" + pl.name() + "\": ", s);
          return status;
        }
      }
      return status;
    } finally {
      EngineAccess.setSkipScorePlugins(state, skip.set());
      observePoint("PreScore", status, start);
    }
  }

  /**
   * Runs the Score plugins not skipped this cycle over {@code nodes} in parallel, normalises each
   * plugin's scores, checks they lie in [0, 100] and weights them (kube's {@code RunScorePlugins});
   * errors carry kube's messages.
   */
  public ScoreOutcome runScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return runScorePlugins(state, pod, nodes, null, null, null);
  }

  /**
   * Runs the Score plugins as {@link #runScorePlugins(CycleState, PodInfo, List)} does, for
   * opportunistic batching: with {@code previous} (the raw scores of an earlier pod of the same
   * signature over the same {@code nodes}, by the same plugins) only the nodes at {@code rescore}
   * are scored again, the others keep their raw scores; every plugin's scores are then normalised
   * and weighted over all {@code nodes} as usual. When {@code keep} is given it receives this
   * cycle's raw scores (before normalisation).
   */
  public ScoreOutcome runScorePlugins(
      CycleState state,
      PodInfo pod,
      List<NodeInfo> nodes,
      RawScores previous,
      int[] rescore,
      RawScores keep) {
    return runScorePlugins(state, pod, nodes, previous, rescore, keep, null, null);
  }

  /**
   * The same, with {@code columns} the snapshot's flat values and {@code rows} each node's row in
   * them (both {@code null} when unknown), handed to the plugins' bulk calls.
   */
  ScoreOutcome runScorePlugins(
      CycleState state,
      PodInfo pod,
      List<NodeInfo> nodes,
      RawScores previous,
      int[] rescore,
      RawScores keep,
      NodeColumns columns,
      int[] rows) {
    long start = System.nanoTime();
    ScoreOutcome out = null;
    try {
      out = scores.score(state, pod, nodes, previous, rescore, keep, columns, rows);
      return out;
    } finally {
      observePoint("Score", out == null ? Status.error("failed") : out.status(), start);
    }
  }

  /**
   * Returns {@code pod}'s scheduling signature for opportunistic batching: the fragments of every
   * enabled PreFilter, Filter, PreScore and Score plugin ({@link SignPlugin}), in order; empty when
   * a plugin does not implement {@link SignPlugin} or cannot sign the pod, or when extenders are
   * configured (kube turns batching off then too).
   */
  public Optional<PodSignature> signPod(PodInfo pod) {
    return extenders.isEmpty() ? scores.signPod(pod) : Optional.empty();
  }

  /**
   * Runs Reserve of the Reserve plugins in order, stopping at the first failure: a rejection is
   * returned with its plugin, anything else as an Error {@code running Reserve plugin "X": ...}.
   */
  public Status runReservePluginsReserve(CycleState state, PodInfo pod, String node) {
    long start = System.nanoTime();
    Status status = Status.success();
    try {
      for (ReservePlugin pl : plugins.reserve()) {
        Status s = calls.status("Reserve", pl, state, pod, node, ReservePlugin::reserve);
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
            status = PluginCalls.wrapError("running Reserve plugin \"" + pl.name() + "\": ", s);
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
    List<ReservePlugin> reservePlugins = plugins.reserve();
    for (int i = reservePlugins.size() - 1; i >= 0; i--) {
      calls.run(
          "Unreserve",
          reservePlugins.get(i),
          state,
          pod,
          node,
          PluginCalls.UNRESERVE,
          PluginCalls.VOID);
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
      for (PermitPlugin pl : plugins.permit()) {
        PermitResult r =
            calls.run("Permit", pl, state, pod, node, PermitPlugin::permit, PluginCalls.PERMIT);
        Status s = r.status();
        Duration timeout = r.timeout();
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
              PluginCalls.wrapError("running Permit plugin \"" + pl.name() + "\": ", s)
                  .withPlugin(pl.name());
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
    return ctx.waitingPods().waitOnPermit(pod);
  }

  /**
   * Runs the PreBind plugins in order: a rejection is returned with its plugin, anything else as an
   * Error {@code running PreBind plugin "X": ...}.
   */
  public Status runPreBindPlugins(CycleState state, PodInfo pod, String node) {
    long start = System.nanoTime();
    Status status = Status.success();
    try {
      for (PreBindPlugin pl : plugins.preBind()) {
        Status s = calls.status("PreBind", pl, state, pod, node, PreBindPlugin::preBind);
        if (!s.isSuccess()) {
          status =
              s.isRejected()
                  ? s.withPlugin(pl.name())
                  : PluginCalls.wrapError("running PreBind plugin \"" + pl.name() + "\": ", s);
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
      for (BindPlugin pl : plugins.bind()) {
        Status s = calls.status("Bind", pl, state, pod, node, BindPlugin::bind);
        status = s;
        if (s.isSkip()) {
          continue;
        }
        if (!s.isSuccess()) {
          status =
              s.isRejected()
                  ? s.withPlugin(pl.name())
                  : PluginCalls.wrapError("running Bind plugin \"" + pl.name() + "\": ", s);
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
    for (PostBindPlugin pl : plugins.postBind()) {
      calls.run("PostBind", pl, state, pod, node, PluginCalls.POST_BIND, PluginCalls.VOID);
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
