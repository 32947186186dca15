package io.kubesched.framework;

import java.util.List;

/**
 * A plugin implementing every extension point interface and every optional extension: if the
 * contracts change incompatibly, this stops compiling.
 */
final class AllExtensionPointsPlugin
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
        PostBindPlugin,
        EnqueueExtensions {
  static final String NAME = "AllExtensionPoints";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status preEnqueue(PodInfo pod) {
    return Status.success();
  }

  @Override
  public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
    return a.timestamp().isBefore(b.timestamp());
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return PreFilterResult.success();
  }

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    return Status.success();
  }

  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    return Status.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    return Status.success();
  }

  @Override
  public PostFilterResult postFilter(
      CycleState state, PodInfo pod, NodeToStatusReader filteredNodeStatuses) {
    return PostFilterResult.of(Status.unschedulable());
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return MAX_NODE_SCORE;
  }

  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    return Status.success();
  }

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    return Status.success();
  }

  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {}

  @Override
  public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
    return PermitResult.allow();
  }

  @Override
  public Status preBind(CycleState state, PodInfo pod, String nodeName) {
    return Status.success();
  }

  @Override
  public Status bind(CycleState state, PodInfo pod, String nodeName) {
    return Status.skip();
  }

  @Override
  public void postBind(CycleState state, PodInfo pod, String nodeName) {}

  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of();
  }
}
