package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the framework offers to the plugins of one profile (kube's {@code framework.Handle}).
 *
 * <p>Plugins receive it at creation. Methods that run plugins are for PostFilter plugins such as
 * preemption, which evaluate "what if" scenarios on copies of nodes.
 */
public interface FrameworkHandle {
  /** Returns the name of the profile the plugin belongs to. */
  String profileName();

  /** Returns the nodes of the snapshot of the current cycle. */
  NodeInfoLister snapshot();

  /** Returns the cluster the scheduler works for. */
  ClusterClient client();

  /** Returns the event recorder. */
  EventRecorder eventRecorder();

  /** Returns the worker pool for parallel work. */
  Parallelizer parallelizer();

  /** Returns the clock; tests and simulations inject a fake one. */
  Clock clock();

  /** Returns the nominated pods. */
  PodNominator nominator();

  /**
   * Returns the scheduler's feature gates ({@code --feature-gates}); the defaults unless the
   * scheduler was built with others.
   */
  default FeatureGates featureGates() {
    return FeatureGates.defaults();
  }

  /** Calls {@code action} for every pod waiting at Permit (in all profiles). */
  void iterateOverWaitingPods(Consumer<WaitingPod> action);

  /** Returns the pod with {@code uid} waiting at Permit (in any profile), or empty. */
  Optional<WaitingPod> getWaitingPod(String uid);

  /** Rejects the waiting pod with {@code uid}; returns whether there was one. */
  boolean rejectWaitingPod(String uid);

  /** Moves {@code pods} to the active queue if they are waiting in another queue. */
  void activate(Collection<V1Pod> pods);

  /**
   * Runs the profile's Filter plugins on {@code node} twice as kube-scheduler does: first with the
   * nominated pods of equal or higher priority added, then (if any were added) without them.
   */
  Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node);

  /**
   * The same as {@link #runFilterPluginsWithNominatedPods(CycleState, PodInfo, NodeInfo)} with the
   * pods nominated to {@code node} given, as {@code nominator().nominatedPodsForNode(node.name())}
   * returned them: a caller that filters one node several times (preemption's victim selection)
   * reads them once. The default ignores {@code nominated} and reads them again.
   *
   * @param nominated the pods nominated to {@code node}, of any priority; {@code null} or empty for
   *     none
   */
  default Status runFilterPluginsWithNominatedPods(
      CycleState state, PodInfo pod, NodeInfo node, List<PodInfo> nominated) {
    return runFilterPluginsWithNominatedPods(state, pod, node);
  }

  /** Runs the profile's Filter plugins on {@code node} and returns the first non-success. */
  Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node);

  /**
   * Returns the scheduler's extenders in configuration order (kube's {@code Handle.Extenders}):
   * preemption plugins let the preemption-capable ones narrow their candidates. The default is
   * none.
   */
  default List<? extends PreemptionExtender> extenders() {
    return List.of();
  }

  /**
   * Returns where preemption plugins report their attempts and victims: the scheduler's preemption
   * metrics. The default records nothing.
   */
  default PreemptionObserver preemptionObserver() {
    return PreemptionObserver.none();
  }

  /**
   * Returns whether {@link #runPreFilterExtensionAddPod} and {@link
   * #runPreFilterExtensionRemovePod} may change {@code state}: {@code false} only when no PreFilter
   * plugin with extensions is active in its cycle (none is configured, or all were skipped), so
   * that both calls leave the state as it is. The default answers {@code true}.
   */
  default boolean preFilterExtensionsActive(CycleState state) {
    return true;
  }

  /** Runs AddPod of every PreFilter plugin not skipped this cycle. */
  Status runPreFilterExtensionAddPod(
      CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node);

  /** Runs RemovePod of every PreFilter plugin not skipped this cycle. */
  Status runPreFilterExtensionRemovePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node);
}
