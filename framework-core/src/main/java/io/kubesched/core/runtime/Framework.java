package io.kubesched.core.runtime;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.config.Profile;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodNominator;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.Status;
import io.kubesched.framework.WaitingPod;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The plugins of one profile and the runners of every extension point (kube's {@code
 * frameworkImpl}); also the {@link FrameworkHandle} its plugins receive.
 */
public final class Framework implements FrameworkHandle {

  /**
   * What the PreFilter runner returns.
   *
   * @param nodeNames the intersection of the plugins' node sets, {@code null} for all nodes
   * @param status the status of the point, never {@code null}
   * @param unschedulablePlugins the plugins that rejected the pod or restricted the nodes
   */
  public record PreFilterOutcome(Set<String> nodeNames, Status status, Set<String> unschedulablePlugins) {}

  /**
   * What the Score runner returns.
   *
   * @param scores the scores of each node, in node order (empty on failure)
   * @param status success, or the Error that stopped scoring
   */
  public record ScoreOutcome(List<NodePluginScores> scores, Status status) {}

  private Framework() {}

  /**
   * Builds the framework of {@code profile}.
   *
   * @throws IllegalArgumentException when the profile is invalid (unknown plugin, missing
   *     QueueSort or Bind, a plugin lacking an extension point's interface, ...)
   */
  public static Framework create(
      Profile profile,
      int globalPercentageOfNodesToScore,
      PluginRegistry registry,
      FrameworkContext ctx) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public String profileName() {
    throw new UnsupportedOperationException();
  }

  /** Returns the QueueSort plugin. */
  public QueueSortPlugin queueSortPlugin() {
    throw new UnsupportedOperationException();
  }

  /** Returns the PreEnqueue plugins, in order. */
  public List<PreEnqueuePlugin> preEnqueuePlugins() {
    throw new UnsupportedOperationException();
  }

  /** Returns the events each plugin registered (defaults applied), by plugin name. */
  public Map<String, List<ClusterEventWithHint>> enqueueExtensions() {
    throw new UnsupportedOperationException();
  }

  /** Returns the profile's percentage of nodes to score, or {@code null} for the global one. */
  public Integer percentageOfNodesToScore() {
    throw new UnsupportedOperationException();
  }

  /** Returns the global percentage of nodes to score (0 for adaptive). */
  public int globalPercentageOfNodesToScore() {
    throw new UnsupportedOperationException();
  }

  /** Returns whether the profile has Filter plugins. */
  public boolean hasFilterPlugins() {
    throw new UnsupportedOperationException();
  }

  /** Returns whether the profile has Score plugins. */
  public boolean hasScorePlugins() {
    throw new UnsupportedOperationException();
  }

  /** Returns whether the profile has PostFilter plugins. */
  public boolean hasPostFilterPlugins() {
    throw new UnsupportedOperationException();
  }

  /** Runs the PreEnqueue plugins; returns the first non-success with its plugin. */
  public Status runPreEnqueuePlugins(PodInfo pod) {
    throw new UnsupportedOperationException();
  }

  /** Runs the PreFilter plugins over {@code nodes}. */
  public PreFilterOutcome runPreFilterPlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    throw new UnsupportedOperationException();
  }

  /** Runs the PostFilter plugins. */
  public PostFilterResult runPostFilterPlugins(CycleState s, PodInfo pod, NodeToStatusReader m) {
    throw new UnsupportedOperationException();
  }

  /** Runs the PreScore plugins over the feasible {@code nodes}. */
  public Status runPreScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    throw new UnsupportedOperationException();
  }

  /** Runs the Score plugins over the feasible {@code nodes}, normalises and weights. */
  public ScoreOutcome runScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    throw new UnsupportedOperationException();
  }

  /** Runs Reserve of the Reserve plugins, stopping at the first failure. */
  public Status runReservePluginsReserve(CycleState s, PodInfo pod, String node) {
    throw new UnsupportedOperationException();
  }

  /** Runs Unreserve of every Reserve plugin, in reverse order. */
  public void runReservePluginsUnreserve(CycleState s, PodInfo pod, String node) {
    throw new UnsupportedOperationException();
  }

  /** Runs the Permit plugins; a Wait registers a {@link WaitingPod}. */
  public Status runPermitPlugins(CycleState s, PodInfo pod, String node) {
    throw new UnsupportedOperationException();
  }

  /**
   * Returns a future completed when the pod waiting at Permit is allowed (Success) or rejected;
   * already complete with Success when the pod is not waiting.
   */
  public CompletableFuture<Status> waitOnPermit(PodInfo pod) {
    throw new UnsupportedOperationException();
  }

  /** Runs the PreBind plugins. */
  public Status runPreBindPlugins(CycleState s, PodInfo pod, String node) {
    throw new UnsupportedOperationException();
  }

  /** Runs the Bind plugins until one does not Skip. */
  public Status runBindPlugins(CycleState s, PodInfo pod, String node) {
    throw new UnsupportedOperationException();
  }

  /** Runs the PostBind plugins. */
  public void runPostBindPlugins(CycleState s, PodInfo pod, String node) {
    throw new UnsupportedOperationException();
  }

  @Override
  public NodeInfoLister snapshot() {
    throw new UnsupportedOperationException();
  }

  @Override
  public ClusterClient client() {
    throw new UnsupportedOperationException();
  }

  @Override
  public EventRecorder eventRecorder() {
    throw new UnsupportedOperationException();
  }

  @Override
  public Parallelizer parallelizer() {
    throw new UnsupportedOperationException();
  }

  @Override
  public Clock clock() {
    throw new UnsupportedOperationException();
  }

  @Override
  public PodNominator nominator() {
    throw new UnsupportedOperationException();
  }

  @Override
  public void iterateOverWaitingPods(Consumer<WaitingPod> action) {
    throw new UnsupportedOperationException();
  }

  @Override
  public WaitingPod getWaitingPod(String uid) {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean rejectWaitingPod(String uid) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void activate(Collection<V1Pod> pods) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Status runPreFilterExtensionAddPod(
      CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Status runPreFilterExtensionRemovePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    throw new UnsupportedOperationException();
  }
}
