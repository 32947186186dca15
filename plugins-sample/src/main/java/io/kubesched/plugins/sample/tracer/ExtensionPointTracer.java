package io.kubesched.plugins.sample.tracer;

import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostBindPlugin;
import io.kubesched.framework.PostFilterPlugin;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreBindPlugin;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterExtensions;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * {@code ExtensionPointTracer} is a plugin that implements every extension point except QueueSort
 * (a profile has exactly one) and reports each call with the pod, the node and the time since the
 * cycle began, so a user sees the scheduling flow step by step.
 *
 * <p>It never changes a decision: Filter passes, Score is 0 for every node, PostFilter answers
 * Unschedulable with no reason (the next PostFilter plugin decides), Permit allows and Bind skips
 * (the next binder binds). Enable it with {@code multiPoint} to trace every point.
 */
public final class ExtensionPointTracer
    implements PreEnqueuePlugin,
        PreFilterPlugin,
        PreFilterExtensions,
        FilterPlugin,
        PostFilterPlugin,
        PreScorePlugin,
        ScorePlugin,
        ScoreExtensions,
        ReservePlugin,
        PermitPlugin,
        PreBindPlugin,
        BindPlugin,
        PostBindPlugin {
  /** The plugin name. */
  public static final String NAME = "ExtensionPointTracer";

  private static final Logger log = LoggerFactory.getLogger(ExtensionPointTracer.class);
  private static final StateKey<Start> START = StateKey.of("PreFilter" + NAME, Start.class);

  private final Consumer<TraceEvent> sink;
  private final LongSupplier nanoTime;

  /** Creates a tracer that logs at {@code args.logLevel()}. */
  public ExtensionPointTracer(ExtensionPointTracerArgs args) {
    this(logSink(Level.valueOf(args.logLevel())), System::nanoTime);
  }

  /** Creates a tracer that hands every event to {@code sink} (tests, custom reporting). */
  public ExtensionPointTracer(Consumer<TraceEvent> sink, LongSupplier nanoTime) {
    this.sink = Objects.requireNonNull(sink);
    this.nanoTime = Objects.requireNonNull(nanoTime);
  }

  private static Consumer<TraceEvent> logSink(Level level) {
    return e -> {
      var line =
          log.atLevel(level)
              .setMessage("extension point called")
              .addKeyValue("extensionPoint", e.extensionPoint())
              .addKeyValue("pod", e.pod());
      // Points that run before a node is chosen (PreEnqueue, PreFilter, ...) have none.
      if (e.node() != null) {
        line = line.addKeyValue("node", e.node());
      }
      line.addKeyValue("status", e.status())
          .addKeyValue("sinceCycleStart", GoDurations.format(e.sinceCycleStart()))
          .log();
    };
  }

  private record Start(long nanos) implements StateData {}

  private void trace(CycleState state, String point, PodInfo pod, String node, Status status) {
    Duration since = Duration.ZERO;
    if (state != null) {
      Start s = state.read(START).orElse(null);
      if (s != null) {
        since = Duration.ofNanos(nanoTime.getAsLong() - s.nanos());
      }
    }
    sink.accept(new TraceEvent(point, pod.key(), node, status.code().toString(), since));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status preEnqueue(PodInfo pod) {
    trace(null, "PreEnqueue", pod, null, Status.success());
    return Status.success();
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    state.write(START, new Start(nanoTime.getAsLong()));
    trace(state, "PreFilter", pod, null, Status.success());
    return PreFilterResult.success();
  }

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    trace(state, "PreFilterExtensionAddPod", podToSchedule, node.name(), Status.success());
    return Status.success();
  }

  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    trace(state, "PreFilterExtensionRemovePod", podToSchedule, node.name(), Status.success());
    return Status.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    trace(state, "Filter", pod, node.name(), Status.success());
    return Status.success();
  }

  @Override
  public PostFilterResult postFilter(
      CycleState state, PodInfo pod, NodeToStatusReader filteredNodeStatuses) {
    Status s = Status.unschedulable();
    trace(state, "PostFilter", pod, null, s);
    return PostFilterResult.of(s);
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    trace(state, "PreScore", pod, null, Status.success());
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    trace(state, "Score", pod, node.name(), Status.success());
    return 0;
  }

  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    trace(state, "NormalizeScore", pod, null, Status.success());
    return Status.success();
  }

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    trace(state, "Reserve", pod, nodeName, Status.success());
    return Status.success();
  }

  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    trace(state, "Unreserve", pod, nodeName, Status.success());
  }

  @Override
  public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
    trace(state, "Permit", pod, nodeName, Status.success());
    return PermitResult.allow();
  }

  @Override
  public Status preBind(CycleState state, PodInfo pod, String nodeName) {
    trace(state, "PreBind", pod, nodeName, Status.success());
    return Status.success();
  }

  @Override
  public Status bind(CycleState state, PodInfo pod, String nodeName) {
    trace(state, "Bind", pod, nodeName, Status.skip());
    return Status.skip();
  }

  @Override
  public void postBind(CycleState state, PodInfo pod, String nodeName) {
    trace(state, "PostBind", pod, nodeName, Status.success());
  }
}
