package io.kubesched.core.runtime;

import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostBindPlugin;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one plugin call instrumented as kube's {@code runXPlugin} methods are, for every extension
 * point of {@link Framework}: the call is timed into the plugin-execution-duration metric when the
 * cycle state asks for plugin metrics ({@link CycleState#recordPluginMetrics()}), a {@code null}
 * result stands for the point's default (Success, all nodes, allow), and what the plugin throws is
 * logged and becomes {@code Status.error(e).withPlugin(name)}, so a faulty plugin fails the pod's
 * cycle, never the scheduler. Thread-safe.
 */
final class PluginCalls {
  // Logged under the framework's name, where these messages were logged before the split.
  private static final Logger log = LoggerFactory.getLogger(Framework.class);

  /**
   * One plugin method with the arguments every point passes.
   *
   * @param <P> the plugin interface
   * @param <A> the point's own argument (a node, the nodes, a node name), unused by some points
   * @param <R> what the method returns
   */
  @FunctionalInterface
  interface Call<P extends Plugin, A, R> {
    /** Calls {@code plugin}. */
    R call(P plugin, CycleState state, PodInfo pod, A arg);
  }

  /**
   * How the result of one point's method reads.
   *
   * @param <R> what the method returns
   * @param status the status of a (non-null) result, recorded by the duration metric
   * @param ifNull what stands for a {@code null} result
   * @param ifThrown what stands for a call that threw, given its Error status (with the plugin)
   * @param observedIfThrown the status the duration metric records for a call that threw
   */
  record Outcome<R>(
      Function<R, Status> status,
      Supplier<R> ifNull,
      Function<Status, R> ifThrown,
      UnaryOperator<Status> observedIfThrown) {
    /** An outcome whose metric records the Error of a call that threw. */
    Outcome(Function<R, Status> status, Supplier<R> ifNull, Function<Status, R> ifThrown) {
      this(status, ifNull, ifThrown, UnaryOperator.identity());
    }
  }

  /** A method returning a {@link Status}; {@code null} is Success. */
  static final Outcome<Status> STATUS = new Outcome<>(s -> s, Status::success, e -> e);

  /** PreFilter; {@code null} is Success with all nodes, a throw the Error with all nodes. */
  static final Outcome<PreFilterResult> PRE_FILTER =
      new Outcome<>(PreFilterResult::status, PreFilterResult::success, PreFilterResult::of);

  /** PostFilter; {@code null} is Success without nomination, a throw the Error. */
  static final Outcome<PostFilterResult> POST_FILTER =
      new Outcome<>(
          PostFilterResult::status,
          () -> PostFilterResult.of(Status.success()),
          PostFilterResult::of);

  /** Permit; {@code null} allows, a throw is the Error with no timeout. */
  static final Outcome<PermitResult> PERMIT =
      new Outcome<>(PermitResult::status, PermitResult::allow, PermitResult::of);

  /**
   * A method without result (Unreserve, PostBind): the metric records Success even when the plugin
   * threw, as kube records Success for these points; what was thrown is only logged.
   */
  static final Outcome<Void> VOID =
      new Outcome<>(r -> Status.success(), () -> null, e -> null, e -> Status.success());

  /** PreEnqueue, which has no cycle state nor argument. */
  static final Call<PreEnqueuePlugin, Void, Status> PRE_ENQUEUE =
      (pl, state, pod, unused) -> pl.preEnqueue(pod);

  /** Normalize of a Score plugin that has {@link ScoreExtensions}. */
  static final Call<ScorePlugin, NodeScores, Status> NORMALIZE =
      (pl, state, pod, scores) -> ((ScoreExtensions) pl).normalizeScore(state, pod, scores);

  /** Unreserve, which returns nothing. */
  static final Call<ReservePlugin, String, Void> UNRESERVE =
      (pl, state, pod, node) -> {
        pl.unreserve(state, pod, node);
        return null;
      };

  /** PostBind, which returns nothing. */
  static final Call<PostBindPlugin, String, Void> POST_BIND =
      (pl, state, pod, node) -> {
        pl.postBind(state, pod, node);
        return null;
      };

  private final SchedulerMetrics metrics;

  /** Creates the calls reporting to {@code metrics}. */
  PluginCalls(SchedulerMetrics metrics) {
    this.metrics = Objects.requireNonNull(metrics, "metrics must not be null");
  }

  /**
   * Calls {@code plugin} through {@code call}, instrumented.
   *
   * @param point the extension point's metric label, e.g. {@code Filter}
   * @param plugin the plugin
   * @param state the cycle state, or {@code null} (no plugin metrics then)
   * @param pod the pod
   * @param arg the point's own argument
   * @param call the plugin method
   * @param outcome how the method's result reads
   * @return the result; {@link Outcome#ifNull()}'s for {@code null}, {@link Outcome#ifThrown()}'s
   *     for a throw
   */
  <P extends Plugin, A, R> R run(
      String point,
      P plugin,
      CycleState state,
      PodInfo pod,
      A arg,
      Call<? super P, A, R> call,
      Outcome<R> outcome) {
    boolean record = state != null && state.recordPluginMetrics();
    long start = record ? System.nanoTime() : 0;
    R result = null;
    Status error = null;
    try {
      result = call.call(plugin, state, pod, arg);
    } catch (RuntimeException e) {
      error = thrown(plugin.name(), e);
    }
    if (error == null && result == null) {
      result = outcome.ifNull().get();
    }
    if (record) {
      observe(
          point,
          plugin,
          error == null ? outcome.status().apply(result) : outcome.observedIfThrown().apply(error),
          start);
    }
    return error == null ? result : outcome.ifThrown().apply(error);
  }

  /**
   * Calls {@link ScorePlugin#score} instrumented as {@link #run} does, without boxing the score
   * (Score is the hottest call): the score is stored at {@code scores[index]}, and what the plugin
   * throws goes to {@code onThrown} as its Error status.
   *
   * @return whether the plugin returned a score
   */
  boolean score(
      ScorePlugin plugin,
      CycleState state,
      PodInfo pod,
      NodeInfo node,
      long[] scores,
      int index,
      Consumer<Status> onThrown) {
    boolean record = state != null && state.recordPluginMetrics();
    long start = record ? System.nanoTime() : 0;
    try {
      scores[index] = plugin.score(state, pod, node);
    } catch (RuntimeException e) {
      Status error = thrown(plugin.name(), e);
      if (record) {
        observe("Score", plugin, error, start);
      }
      onThrown.accept(error);
      return false;
    }
    if (record) {
      observe("Score", plugin, Status.success(), start);
    }
    return true;
  }

  /**
   * Calls a Filter bound to the cycle ({@link CycleBoundFilter.NodeCheck}) instrumented exactly as
   * {@link #status} calls {@link FilterPlugin#filter}: a {@code null} result is Success, a throw is
   * the plugin's Error.
   */
  Status filter(
      FilterPlugin plugin, CycleBoundFilter.NodeCheck check, CycleState state, NodeInfo node) {
    boolean record = state != null && state.recordPluginMetrics();
    long start = record ? System.nanoTime() : 0;
    Status result;
    Status error = null;
    try {
      result = check.filter(node);
      if (result == null) {
        result = Status.success();
      }
    } catch (RuntimeException e) {
      error = thrown(plugin.name(), e);
      result = error;
    }
    if (record) {
      observe("Filter", plugin, result, start);
    }
    return result;
  }

  /**
   * Calls a Score bound to the cycle ({@link CycleBoundScore.NodeScorer}) instrumented exactly as
   * {@link #score(ScorePlugin, CycleState, PodInfo, NodeInfo, long[], int, Consumer)}.
   */
  boolean score(
      ScorePlugin plugin,
      CycleBoundScore.NodeScorer scorer,
      CycleState state,
      NodeInfo node,
      long[] scores,
      int index,
      Consumer<Status> onThrown) {
    boolean record = state != null && state.recordPluginMetrics();
    long start = record ? System.nanoTime() : 0;
    try {
      scores[index] = scorer.score(node);
    } catch (RuntimeException e) {
      Status error = thrown(plugin.name(), e);
      if (record) {
        observe("Score", plugin, error, start);
      }
      onThrown.accept(error);
      return false;
    }
    if (record) {
      observe("Score", plugin, Status.success(), start);
    }
    return true;
  }

  /** Runs a plugin method returning a {@link Status}; see {@link #run}. */
  <P extends Plugin, A> Status status(
      String point,
      P plugin,
      CycleState state,
      PodInfo pod,
      A arg,
      Call<? super P, A, Status> call) {
    return run(point, plugin, state, pod, arg, call, STATUS);
  }

  /** Returns the message of an Error status: its cause's message, else its reasons. */
  static String errorMessage(Status s) {
    if (s.cause() != null) {
      return String.valueOf(s.cause().getMessage());
    }
    return s.message();
  }

  /** Returns an Error whose message is {@code prefix} followed by {@code s}'s error message. */
  static Status wrapError(String prefix, Status s) {
    return Status.error(new SchedulingException(prefix + errorMessage(s)));
  }

  private void observe(String point, Plugin plugin, Status status, long startNanos) {
    metrics.pluginExecutionDuration(
        plugin.name(),
        point,
        status.code().toString(),
        Duration.ofNanos(System.nanoTime() - startNanos));
  }

  private static Status thrown(String plugin, RuntimeException e) {
    log.atWarn().setMessage("plugin threw").addKeyValue("plugin", plugin).setCause(e).log();
    return Status.error(e).withPlugin(plugin);
  }
}
