package io.kubesched.testing;

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
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plugin implementing every extension point, doing nothing but counting its calls per point.
 *
 * <p>Its answers are neutral: success everywhere, score {@link #score()} for every node (0 unless
 * given), Unschedulable from PostFilter (it cannot help), {@link Status#skip()} from Bind (it binds
 * nothing, so another binder must), allow from Permit, and the queue order of {@code PrioritySort}
 * (higher priority first, then earlier timestamp).
 */
public final class CountingPlugin extends FakePlugin
    implements PreEnqueuePlugin,
        QueueSortPlugin,
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

  /** The extension points (and PreFilter/Score extensions) whose calls are counted. */
  public enum Point {
    /** {@link PreEnqueuePlugin#preEnqueue}. */
    PRE_ENQUEUE,
    /** {@link QueueSortPlugin#less}. */
    QUEUE_SORT,
    /** {@link PreFilterPlugin#preFilter}. */
    PRE_FILTER,
    /** {@link PreFilterExtensions#addPod}. */
    PRE_FILTER_ADD_POD,
    /** {@link PreFilterExtensions#removePod}. */
    PRE_FILTER_REMOVE_POD,
    /** {@link FilterPlugin#filter}. */
    FILTER,
    /** {@link PostFilterPlugin#postFilter}. */
    POST_FILTER,
    /** {@link PreScorePlugin#preScore}. */
    PRE_SCORE,
    /** {@link ScorePlugin#score}. */
    SCORE,
    /** {@link ScoreExtensions#normalizeScore}. */
    NORMALIZE_SCORE,
    /** {@link ReservePlugin#reserve}. */
    RESERVE,
    /** {@link ReservePlugin#unreserve}. */
    UNRESERVE,
    /** {@link PermitPlugin#permit}. */
    PERMIT,
    /** {@link PreBindPlugin#preBind}. */
    PRE_BIND,
    /** {@link BindPlugin#bind}. */
    BIND,
    /** {@link PostBindPlugin#postBind}. */
    POST_BIND
  }

  /** The reason of the PostFilter answer. */
  public static final String REASON_POST_FILTER = "CountingPlugin cannot make the pod schedulable";

  private final Map<Point, AtomicInteger> counts = new EnumMap<>(Point.class);
  private final long score;

  /** Creates the plugin named {@code name}, scoring every node 0. */
  public CountingPlugin(String name) {
    this(name, 0);
  }

  /** Creates the plugin named {@code name}, scoring every node {@code score}. */
  public CountingPlugin(String name, long score) {
    super(name);
    this.score = score;
    for (Point p : Point.values()) {
      counts.put(p, new AtomicInteger());
    }
  }

  /** Returns the score given to every node. */
  public long score() {
    return score;
  }

  /** Returns how many times the plugin was called at {@code point}. */
  public int calls(Point point) {
    return counts.get(point).get();
  }

  /** Returns the per-point call counts, with every point present (zeros included). */
  public Map<Point, Integer> callsByPoint() {
    Map<Point, Integer> out = new EnumMap<>(Point.class);
    counts.forEach((p, c) -> out.put(p, c.get()));
    return out;
  }

  /** Resets all counts to zero. */
  @Override
  public void reset() {
    super.reset();
    counts.values().forEach(c -> c.set(0));
  }

  private void count(Point p) {
    count();
    counts.get(p).incrementAndGet();
  }

  @Override
  public Status preEnqueue(PodInfo pod) {
    count(Point.PRE_ENQUEUE);
    return Status.success();
  }

  @Override
  public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
    count(Point.QUEUE_SORT);
    int pa = a.podInfo().priority();
    int pb = b.podInfo().priority();
    return pa > pb || (pa == pb && a.timestamp().isBefore(b.timestamp()));
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    count(Point.PRE_FILTER);
    return PreFilterResult.success();
  }

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    count(Point.PRE_FILTER_ADD_POD);
    return Status.success();
  }

  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    count(Point.PRE_FILTER_REMOVE_POD);
    return Status.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    count(Point.FILTER);
    return Status.success();
  }

  @Override
  public PostFilterResult postFilter(
      CycleState state, PodInfo pod, NodeToStatusReader filteredNodeStatuses) {
    count(Point.POST_FILTER);
    return PostFilterResult.of(Status.unschedulable(REASON_POST_FILTER));
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    count(Point.PRE_SCORE);
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    count(Point.SCORE);
    return score;
  }

  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    count(Point.NORMALIZE_SCORE);
    return Status.success();
  }

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    count(Point.RESERVE);
    return Status.success();
  }

  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    count(Point.UNRESERVE);
  }

  @Override
  public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
    count(Point.PERMIT);
    return PermitResult.allow();
  }

  @Override
  public Status preBind(CycleState state, PodInfo pod, String nodeName) {
    count(Point.PRE_BIND);
    return Status.success();
  }

  @Override
  public Status bind(CycleState state, PodInfo pod, String nodeName) {
    count(Point.BIND);
    return Status.skip();
  }

  @Override
  public void postBind(CycleState state, PodInfo pod, String nodeName) {
    count(Point.POST_BIND);
  }
}
