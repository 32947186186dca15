package io.kubesched.plugins.defaultpreemption;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostFilterPlugin;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreemptionObserver;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import io.kubesched.preemption.DisruptionBudget;
import io.kubesched.preemption.Evaluator;
import io.kubesched.preemption.PodImportance;
import io.kubesched.preemption.PreemptionInterface;
import io.kubesched.preemption.VictimSelection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;

/**
 * {@code DefaultPreemption} is a plugin that evicts lower-priority pods so that a pod no node fits
 * can run (kube-scheduler's {@code defaultpreemption}).
 *
 * <p>PostFilter runs the {@link Evaluator} with this plugin's policy: a pod with {@code
 * preemptionPolicy: Never}, or whose nominated node still has a lower-priority pod terminating
 * because of preemption, may not preempt; on a node every lower-priority pod is a potential victim,
 * and as many of them as possible are reprieved, those whose eviction would violate a pod
 * disruption budget first, then the others, most important first. PreEnqueue holds back a pod while
 * its victims are being evicted.
 *
 * <h2>Same victims as kube-scheduler</h2>
 *
 * Which of several equally important pods is reprieved depends on their order, so the order is
 * kube-scheduler 1.33's: the potential victims are collected the way Go ranges over the node's pod
 * slice while removing from it, and sorted with a port of Go's {@code sort.Slice} ({@link
 * io.kubesched.preemption.GoSort}). Pods that have not started count as starting "now", with kube's
 * quirk that of two such pods of equal priority the one compared first is the earlier (successive
 * {@code time.Now()} calls), which reverses runs of them in small sorts.
 */
public final class DefaultPreemption
    implements PostFilterPlugin, PreEnqueuePlugin, EnqueueExtensions, PreemptionInterface {
  /** The plugin name. */
  public static final String NAME = "DefaultPreemption";

  /** The prefix of every non-empty PostFilter message. */
  public static final String MESSAGE_PREFIX = "preemption: ";

  /** Why a pod with {@code preemptionPolicy: Never} does not preempt. */
  public static final String REASON_NEVER = "not eligible due to preemptionPolicy=Never.";

  /** Why a pod whose earlier victims are still terminating does not preempt again. */
  public static final String REASON_TERMINATING_VICTIM =
      "not eligible due to a terminating pod on the nominated node.";

  /** Why a node without lower-priority pods is no candidate. */
  public static final String REASON_NO_VICTIMS = "No preemption victims found for incoming pod";

  /** Why PreEnqueue holds a pod back. */
  public static final String REASON_PREEMPTION_RUNNING =
      "waiting for the preemption for this pod to be finished";

  private final DefaultPreemptionArgs args;
  private final FrameworkHandle handle;
  private final Random random;
  private final PreemptionObserver observer;
  private final Evaluator evaluator;

  /**
   * Creates the plugin without metrics.
   *
   * @param args validated arguments
   * @param handle the framework of the profile
   * @param random the source of dry-run offsets
   */
  public DefaultPreemption(DefaultPreemptionArgs args, FrameworkHandle handle, Random random) {
    this(args, handle, random, PreemptionObserver.none());
  }

  /**
   * Creates the plugin.
   *
   * @param args validated arguments
   * @param handle the framework of the profile
   * @param random the source of dry-run offsets
   * @param observer receives the preemption metrics
   */
  public DefaultPreemption(
      DefaultPreemptionArgs args,
      FrameworkHandle handle,
      Random random,
      PreemptionObserver observer) {
    this.args = Objects.requireNonNull(args, "args must not be null");
    this.handle = Objects.requireNonNull(handle, "handle must not be null");
    this.random = Objects.requireNonNull(random, "random must not be null");
    this.observer = Objects.requireNonNull(observer, "observer must not be null");
    this.evaluator = new Evaluator(NAME, handle, this, observer);
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Returns the evaluator this plugin drives. */
  public Evaluator evaluator() {
    return evaluator;
  }

  /**
   * Tries to preempt lower-priority pods for {@code pod}; any message gets the {@value
   * #MESSAGE_PREFIX} prefix.
   */
  @Override
  public PostFilterResult postFilter(
      CycleState state, PodInfo pod, NodeToStatusReader filteredNodeStatuses) {
    try {
      PostFilterResult result = evaluator.preempt(state, pod, filteredNodeStatuses);
      Status status = result.status();
      String message = status.message();
      if (message.isEmpty()) {
        return result;
      }
      Status prefixed =
          status.code() == Status.Code.ERROR
              ? Status.error(MESSAGE_PREFIX + message)
              : Status.of(status.code(), MESSAGE_PREFIX + message);
      return new PostFilterResult(prefixed, result.nominatingInfo());
    } finally {
      observer.attempt();
    }
  }

  /** Holds {@code pod} back while it is evicting victims. */
  @Override
  public Status preEnqueue(PodInfo pod) {
    if (evaluator.isPodRunningPreemption(pod.uid())) {
      return Status.unresolvable(REASON_PREEMPTION_RUNNING);
    }
    return Status.success();
  }

  /**
   * Registers pod deletion with a hint that always skips: a pod held back by PreEnqueue is moved by
   * the plugins that rejected it, not by this one (kube-scheduler 1.33 with async preemption).
   */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.POD, ActionType.DELETE, (pod, oldObj, newObj) -> QueueingHint.SKIP));
  }

  /** Draws a random offset and computes the number of candidates from the arguments. */
  @Override
  public Window offsetAndNumCandidates(int numNodes) {
    return new Window(random.nextInt(numNodes), args.numCandidates(numNodes));
  }

  @Override
  public Optional<String> podEligibleToPreemptOthers(PodInfo pod, Status nominatedNodeStatus) {
    if ("Never".equals(pod.preemptionPolicy())) {
      return Optional.of(REASON_NEVER);
    }
    String nominated = pod.nominatedNodeName();
    if (nominated != null) {
      // a nominated node that filters can never pass is no reason to wait: preempt again
      if (nominatedNodeStatus != null
          && nominatedNodeStatus.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        return Optional.empty();
      }
      NodeInfo node = handle.snapshot().find(nominated);
      if (node != null) {
        for (PodInfo p : node.pods()) {
          if (p.priority() < pod.priority() && terminatingByPreemption(p.pod())) {
            return Optional.of(REASON_TERMINATING_VICTIM);
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Returns whether {@code pod} is terminating because the scheduler preempted it. */
  static boolean terminatingByPreemption(V1Pod pod) {
    if (pod.getMetadata() == null || pod.getMetadata().getDeletionTimestamp() == null) {
      return false;
    }
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return false;
    }
    for (V1PodCondition c : pod.getStatus().getConditions()) {
      if (Evaluator.DISRUPTION_TARGET.equals(c.getType())) {
        return "True".equals(c.getStatus())
            && Evaluator.REASON_PREEMPTION_BY_SCHEDULER.equals(c.getReason());
      }
    }
    return false;
  }

  /**
   * Answers without copies when no pod on {@code node} has a lower priority than {@code pod}: then
   * {@link #selectVictimsOnNode} finds no victim whatever the node's state.
   */
  @Override
  public Optional<VictimSelection> selectVictimsWithoutCopy(PodInfo pod, NodeInfo node) {
    int priority = pod.priority();
    List<PodInfo> pods = node.pods();
    for (int i = 0, n = pods.size(); i < n; i++) {
      if (pods.get(i).priority() < priority) {
        return Optional.empty();
      }
    }
    return Optional.of(VictimSelection.failed(Status.unresolvable(REASON_NO_VICTIMS)));
  }

  /**
   * Returns {@code true}: {@link #selectVictimsOnNode} changes the state only through the PreFilter
   * extensions.
   */
  @Override
  public boolean changesStateOnlyThroughExtensions() {
    return true;
  }

  /**
   * Removes every lower-priority pod from {@code node}; if {@code pod} then fits, adds them back
   * one by one, those whose eviction violates a budget first, most important first, keeping each
   * one with which {@code pod} still fits.
   */
  @Override
  public VictimSelection selectVictimsOnNode(
      CycleState state, PodInfo pod, NodeInfo node, List<DisruptionBudget> pdbs) {
    List<PodInfo> potential = new ArrayList<>();
    try {
      // kube 1.33 removes the victims while ranging over the node's pod slice, and its removal
      // moves the last pod into the freed slot; the loop below reads the slice the way Go's range
      // does (fixed length, shared backing array) so that victims are found in the same order
      List<PodInfo> pods = node.pods();
      PodInfo[] slice = new PodInfo[pods.size()];
      for (int i = 0; i < slice.length; i++) {
        slice[i] = pods.get(i);
      }
      int live = slice.length;
      for (int i = 0; i < slice.length; i++) {
        PodInfo p = slice[i];
        if (p.priority() >= pod.priority()) {
          continue;
        }
        potential.add(p);
        removePod(state, pod, p, node);
        for (int j = 0; j < live; j++) {
          if (slice[j].uid().equals(p.uid())) {
            slice[j] = slice[live - 1];
            live--;
            break;
          }
        }
      }
      if (potential.isEmpty()) {
        return VictimSelection.failed(Status.unresolvable(REASON_NO_VICTIMS));
      }
      // the nominations are read once for all the Filter runs on this node
      List<PodInfo> nominated = handle.nominator().nominatedPodsForNode(node.name());
      // preemption does not try to satisfy affinity to the victims: if the pod does not fit
      // without all of them, the node is no candidate
      Status fits = handle.runFilterPluginsWithNominatedPods(state, pod, node, nominated);
      if (!fits.isSuccess()) {
        return VictimSelection.failed(fits);
      }
      Instant now = handle.clock().instant();
      PodImportance.sortAsKube(potential, now);
      DisruptionBudget.Split split = DisruptionBudget.split(potential, pdbs);
      List<PodInfo> victims = new ArrayList<>();
      int violations = 0;
      for (PodInfo p : split.violating()) {
        if (!reprieve(state, pod, p, node, nominated, victims)) {
          violations++;
        }
      }
      for (PodInfo p : split.nonViolating()) {
        reprieve(state, pod, p, node, nominated, victims);
      }
      if (!split.violating().isEmpty() && !split.nonViolating().isEmpty()) {
        PodImportance.sortAsKube(victims, now);
      }
      return new VictimSelection(victims, violations, Status.success());
    } catch (SchedulingException e) {
      return VictimSelection.failed(Status.error(e));
    }
  }

  /** Adds {@code p} back; when {@code pod} no longer fits, removes it again as a victim. */
  private boolean reprieve(
      CycleState state,
      PodInfo pod,
      PodInfo p,
      NodeInfo node,
      List<PodInfo> nominated,
      List<PodInfo> victims) {
    node.addPod(p);
    Status added = handle.runPreFilterExtensionAddPod(state, pod, p, node);
    if (!added.isSuccess()) {
      throw asException(added);
    }
    boolean fits =
        handle.runFilterPluginsWithNominatedPods(state, pod, node, nominated).isSuccess();
    if (!fits) {
      removePod(state, pod, p, node);
      victims.add(p);
    }
    return fits;
  }

  private void removePod(CycleState state, PodInfo pod, PodInfo p, NodeInfo node) {
    if (!node.removePod(p)) {
      throw new SchedulingException(
          "no corresponding pod " + p.name() + " in pods of node " + node.name());
    }
    Status removed = handle.runPreFilterExtensionRemovePod(state, pod, p, node);
    if (!removed.isSuccess()) {
      throw asException(removed);
    }
  }

  private static SchedulingException asException(Status s) {
    SchedulingException e = s.asException();
    return e != null ? e : new SchedulingException(s.message());
  }
}
