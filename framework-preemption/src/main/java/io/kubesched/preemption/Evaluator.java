package io.kubesched.preemption;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.FitErrorMessage;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreemptionExtender;
import io.kubesched.framework.PreemptionObserver;
import io.kubesched.framework.Status;
import io.kubesched.framework.WaitingPod;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The preemption engine shared by preemption plugins (kube's {@code preemption.Evaluator}): it
 * checks the preemptor's eligibility, dry-runs victim selection on the nodes where preemption may
 * help, picks the best candidate, evicts its victims and nominates its node.
 *
 * <h2>Synchronous eviction</h2>
 *
 * kube-scheduler 1.33 evicts victims in a goroutine (async preemption, beta and on) and returns the
 * nomination at once; while the goroutine runs, the preemptor is kept out of the active queue by
 * DefaultPreemption's PreEnqueue. This evaluator evicts synchronously, in the same order (the
 * lower-priority nominations are cleared first, then every victim but the last, then the preemptor
 * is released, then the last victim), and like the async path it returns the nomination even when
 * an eviction fails, activating the preemptor so that it is retried. Only the timing differs; the
 * in-flight preemptor set behind {@link #isPodRunningPreemption(String)} is kept so that PreEnqueue
 * behaves as kube's would.
 *
 * <p>The preemption-capable extenders of the handle ({@link FrameworkHandle#extenders()}) narrow
 * the candidates after the dry run, before the best one is chosen (kube's {@code callExtenders}).
 *
 * <p>Where Go iterates a map (the choice among candidates that tie on every criterion, the
 * potential nodes of an explicit status map), this evaluator uses the first in list order;
 * kube-scheduler's choice there is random.
 */
public final class Evaluator {
  /** The absent-node reason of the message returned when no candidate is found. */
  public static final String REASON_NOT_HELPFUL = "Preemption is not helpful for scheduling";

  /** The condition type set on victims before their deletion. */
  public static final String DISRUPTION_TARGET = "DisruptionTarget";

  /** The reason of the {@link #DISRUPTION_TARGET} condition set by preemption. */
  public static final String REASON_PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler";

  private static final Logger log = LoggerFactory.getLogger(Evaluator.class);

  private final String pluginName;
  private final FrameworkHandle handle;
  private final PreemptionInterface policy;
  private final PreemptionObserver observer;
  private final Set<String> preempting = ConcurrentHashMap.newKeySet();

  /**
   * Creates an evaluator that records no metrics.
   *
   * @param pluginName the name of the preemption plugin, used when rejecting waiting pods
   * @param handle the framework of the plugin's profile
   * @param policy the plugin's policy
   */
  public Evaluator(String pluginName, FrameworkHandle handle, PreemptionInterface policy) {
    this(pluginName, handle, policy, PreemptionObserver.none());
  }

  /**
   * Creates an evaluator.
   *
   * @param pluginName the name of the preemption plugin, used when rejecting waiting pods
   * @param handle the framework of the plugin's profile
   * @param policy the plugin's policy
   * @param observer receives the number of victims of each preemption
   */
  public Evaluator(
      String pluginName,
      FrameworkHandle handle,
      PreemptionInterface policy,
      PreemptionObserver observer) {
    this.pluginName = Objects.requireNonNull(pluginName, "pluginName must not be null");
    this.handle = Objects.requireNonNull(handle, "handle must not be null");
    this.policy = Objects.requireNonNull(policy, "policy must not be null");
    this.observer = Objects.requireNonNull(observer, "observer must not be null");
  }

  /** Returns whether the pod with {@code uid} is evicting victims right now. */
  public boolean isPodRunningPreemption(String uid) {
    return preempting.contains(uid);
  }

  /**
   * Tries to make room for {@code pod} by evicting lower-priority pods (kube's {@code Preempt}).
   *
   * <ul>
   *   <li>Success with an Override nomination of the chosen node: victims were evicted.
   *   <li>Unschedulable with an Override nomination of {@code ""}: no node can be made to fit; the
   *       status carries a {@code 0/N nodes are available: ...} message.
   *   <li>Unschedulable or Error with a Noop nomination: the pod may not preempt, or something
   *       failed.
   * </ul>
   *
   * @param state the cycle state after PreFilter
   * @param pod the preemptor
   * @param filteredNodeStatuses why each node failed Filter
   * @return the status and nomination; never {@code null}
   */
  public PostFilterResult preempt(
      CycleState state, PodInfo pod, NodeToStatusReader filteredNodeStatuses) {
    ClusterClient client = handle.client();
    Optional<V1Pod> latest = client.getPod(pod.namespace(), pod.name());
    if (latest.isEmpty()) {
      return PostFilterResult.of(Status.error("pod \"" + pod.name() + "\" not found"));
    }
    PodInfo preemptor = latest.get() == pod.pod() ? pod : PodInfo.of(latest.get());

    String nominated = preemptor.nominatedNodeName();
    Status nominatedStatus = filteredNodeStatuses.get(nominated == null ? "" : nominated);
    Optional<String> ineligible = policy.podEligibleToPreemptOthers(preemptor, nominatedStatus);
    if (ineligible.isPresent()) {
      log.atDebug()
          .setMessage("pod is not eligible for preemption")
          .addKeyValue("pod", preemptor.key())
          .addKeyValue("reason", ineligible.get())
          .log();
      return PostFilterResult.of(Status.unschedulable(ineligible.get()));
    }

    List<NodeInfo> allNodes = handle.snapshot().list();
    if (allNodes.isEmpty()) {
      return PostFilterResult.of(Status.error("no nodes available"));
    }
    DryRunResult found = findCandidates(state, preemptor, filteredNodeStatuses);
    if (found.candidates().isEmpty()) {
      if (!found.errors().isEmpty()) {
        return PostFilterResult.of(Status.error(aggregate(found.errors())));
      }
      log.atDebug()
          .setMessage("no preemption candidate is found")
          .addKeyValue("pod", preemptor.key())
          .log();
      String message =
          nodesAvailableMessage(
              preemptor,
              allNodes.size(),
              found.nodeStatuses(),
              Status.unresolvable(REASON_NOT_HELPFUL));
      return new PostFilterResult(Status.unschedulable(message), NominatingInfo.override(""));
    }

    List<Candidate> candidates = found.candidates();
    List<? extends PreemptionExtender> extenders = handle.extenders();
    if (!extenders.isEmpty()) {
      ExtenderPreemption.Outcome narrowed =
          ExtenderPreemption.call(extenders, preemptor, candidates, handle.snapshot());
      if (!narrowed.status().isSuccess()) {
        return PostFilterResult.of(narrowed.status());
      }
      candidates = narrowed.candidates();
    }
    Candidate best = selectCandidate(candidates);
    if (best == null || best.name().isEmpty()) {
      return PostFilterResult.of(Status.unschedulable("no candidate node for preemption"));
    }
    log.atInfo()
        .setMessage("the target node for the preemption is determined")
        .addKeyValue("pod", preemptor.key())
        .addKeyValue("node", best.name())
        .addKeyValue("victims", best.victims().size())
        .log();
    prepareCandidate(best, preemptor);
    return PostFilterResult.nominate(best.name());
  }

  private DryRunResult findCandidates(
      CycleState state, PodInfo pod, NodeToStatusReader filteredNodeStatuses) {
    List<NodeInfo> potential =
        filteredNodeStatuses.nodesForStatusCode(handle.snapshot(), Status.Code.UNSCHEDULABLE);
    if (potential.isEmpty()) {
      log.atDebug()
          .setMessage("preemption will not help schedule pod on any node")
          .addKeyValue("pod", pod.key())
          .log();
      // the pod cannot be helped anywhere: drop a nomination made by an earlier preemption
      if (pod.nominatedNodeName() != null) {
        try {
          handle.client().setNominatedNodeName(pod.pod(), null);
        } catch (RuntimeException e) {
          log.atWarn()
              .setMessage("could not clear the nominated node name")
              .addKeyValue("pod", pod.key())
              .setCause(e)
              .log();
        }
      }
      return new DryRunResult(List.of(), Map.of(), List.of());
    }
    List<DisruptionBudget> pdbs =
        DisruptionBudget.ofAll(handle.client().listPodDisruptionBudgets());
    PreemptionInterface.Window window = policy.offsetAndNumCandidates(potential.size());
    return dryRunPreemption(state, pod, potential, pdbs, window.offset(), window.numCandidates());
  }

  /**
   * Selects victims on copies of {@code potentialNodes}, in parallel, starting at {@code offset}
   * and wrapping around, until {@code numCandidates} candidates including at least one without
   * budget violations are found (kube's {@code DryRunPreemption}). Each kind of candidate is kept
   * up to {@code numCandidates}.
   *
   * <p>kube-scheduler stops handing out nodes as soon as it has enough candidates, so which nodes
   * are tried depends on thread timing there. Here the nodes are tried in waves of the
   * parallelizer's parallelism and the candidates are recorded in node order after each wave, so
   * the result is repeatable; with parallelism 1 it is exactly kube's sequential behaviour.
   *
   * <p>Each node gets its own copy of the node info. The cycle state is copied once per worker slot
   * and reused for the slot's nodes when the policy {@link
   * PreemptionInterface#changesStateOnlyThroughExtensions() changes it only through the PreFilter
   * extensions} and none is active (the copy stays equal to {@code state}); otherwise each node
   * gets its own copy, as in kube.
   */
  public DryRunResult dryRunPreemption(
      CycleState state,
      PodInfo pod,
      List<NodeInfo> potentialNodes,
      List<DisruptionBudget> pdbs,
      int offset,
      int numCandidates) {
    int n = potentialNodes.size();
    BoundedList nonViolating = new BoundedList(numCandidates);
    BoundedList violating = new BoundedList(numCandidates);
    Map<String, Status> statuses = new ConcurrentHashMap<>(Math.min(n, 1024));
    List<String> errors = Collections.synchronizedList(new ArrayList<>());
    Candidate[] found = new Candidate[n];
    int wave = Math.max(1, handle.parallelizer().parallelism());
    // the piece j of a wave always runs on slot j, and the waves run one after the other
    CycleState[] slots =
        policy.changesStateOnlyThroughExtensions() && !handle.preFilterExtensionsActive(state)
            ? new CycleState[wave]
            : null;
    boolean enough = false;
    for (int start = 0; start < n && !enough; start += wave) {
      int first = start;
      int count = Math.min(wave, n - start);
      handle
          .parallelizer()
          .until(
              count,
              j -> {
                int i = first + j;
                NodeInfo node = potentialNodes.get((offset + i) % n);
                // a node where the outcome is known (no possible victim) costs no copies
                VictimSelection sel = policy.selectVictimsWithoutCopy(pod, node).orElse(null);
                if (sel == null) {
                  sel = selectVictims(state, slots, j, pod, node, pdbs);
                }
                Status status = sel.status();
                if (status.isSuccess() && !sel.victims().isEmpty()) {
                  found[i] = new Candidate(node.name(), sel.victims(), sel.numPdbViolations());
                  return;
                }
                if (status.isSuccess()) {
                  status =
                      Status.error(
                          "expected at least one victim pod on node \"" + node.name() + "\"");
                }
                if (status.code() == Status.Code.ERROR) {
                  errors.add(status.message());
                }
                statuses.put(node.name(), status);
              });
      for (int i = first; i < first + count; i++) {
        Candidate c = found[i];
        if (c == null) {
          continue;
        }
        (c.numPdbViolations() == 0 ? nonViolating : violating).add(c);
      }
      // like the pieces kube has already handed out, the whole wave counts
      int nv = nonViolating.size();
      enough = nv > 0 && nv + violating.size() >= numCandidates;
    }
    List<Candidate> all = new ArrayList<>(nonViolating.get());
    all.addAll(violating.get());
    return new DryRunResult(all, statuses, errors);
  }

  /**
   * Runs the policy's victim selection on a copy of {@code node} with slot {@code j}'s copy of
   * {@code state} when {@code slots} is given (made on first use, dropped when it was written to),
   * else with a copy of its own.
   */
  private VictimSelection selectVictims(
      CycleState state,
      CycleState[] slots,
      int j,
      PodInfo pod,
      NodeInfo node,
      List<DisruptionBudget> pdbs) {
    if (slots == null) {
      return policy.selectVictimsOnNode(state.clone(), pod, node.snapshot(), pdbs);
    }
    CycleState working = slots[j];
    if (working == null) {
      working = state.clone();
      slots[j] = working;
    }
    long revision = working.revision();
    try {
      return policy.selectVictimsOnNode(working, pod, node.snapshot(), pdbs);
    } finally {
      if (working.revision() != revision) {
        slots[j] = null;
      }
    }
  }

  /**
   * Chooses the best of {@code candidates} with the policy's score functions, or kube's default
   * criteria: fewest budget violations, lowest highest victim priority, lowest sum of victim
   * priorities, fewest victims, latest start among the highest-priority victims, then the first.
   *
   * @return the chosen candidate, or {@code null} when there is none
   */
  public Candidate selectCandidate(List<Candidate> candidates) {
    if (candidates.isEmpty()) {
      return null;
    }
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    Map<String, Candidate> byNode = new LinkedHashMap<>();
    for (Candidate c : candidates) {
      byNode.put(c.name(), c);
    }
    List<ToLongFunction<String>> scoreFuncs = policy.orderedScoreFuncs(byNode);
    String node = pickOneNodeForPreemption(byNode, scoreFuncs, handle.clock().instant());
    Candidate chosen = byNode.get(node);
    return chosen != null ? chosen : candidates.get(0);
  }

  /**
   * Picks a node among {@code nodesToVictims} (whose victims are ordered most important first):
   * each score function keeps the nodes with the highest score until one node is left; the first
   * remaining node wins. An empty {@code scoreFuncs} selects kube-scheduler's default criteria.
   *
   * @return the node name, or {@code ""} when there are no candidates
   */
  static String pickOneNodeForPreemption(
      Map<String, Candidate> nodesToVictims, List<ToLongFunction<String>> scoreFuncs, Instant now) {
    if (nodesToVictims.isEmpty()) {
      return "";
    }
    List<String> remaining = new ArrayList<>(nodesToVictims.keySet());
    List<ToLongFunction<String>> funcs =
        scoreFuncs.isEmpty() ? defaultScoreFuncs(nodesToVictims, now) : scoreFuncs;
    for (ToLongFunction<String> f : funcs) {
      List<String> selected = new ArrayList<>();
      long max = Long.MIN_VALUE;
      for (String node : remaining) {
        long score = f.applyAsLong(node);
        if (score > max) {
          max = score;
          selected.clear();
        }
        if (score == max) {
          selected.add(node);
        }
      }
      if (selected.size() == 1) {
        return selected.get(0);
      }
      remaining = selected;
    }
    return remaining.get(0);
  }

  private static List<ToLongFunction<String>> defaultScoreFuncs(
      Map<String, Candidate> m, Instant now) {
    ToLongFunction<String> fewestPdbViolations = node -> -m.get(node).numPdbViolations();
    ToLongFunction<String> lowestHighestPriority =
        node -> -(long) m.get(node).victims().get(0).priority();
    ToLongFunction<String> lowestPrioritySum =
        node -> {
          long sum = 0;
          for (PodInfo p : m.get(node).victims()) {
            // shifting by 2^31 makes every term positive, so more negative-priority pods weigh more
            sum += (long) p.priority() + (1L << 31);
          }
          return -sum;
        };
    ToLongFunction<String> fewestVictims = node -> -(long) m.get(node).victims().size();
    ToLongFunction<String> latestStart =
        node -> {
          Instant t = PodImportance.earliestStartTimeOfHighestPriority(m.get(node).victims(), now);
          return t == null ? Long.MIN_VALUE : t.getEpochSecond() * 1_000_000_000L + t.getNano();
        };
    return List.of(
        fewestPdbViolations, lowestHighestPriority, lowestPrioritySum, fewestVictims, latestStart);
  }

  /**
   * Evicts the victims of {@code c} and clears the nominations of lower-priority pods nominated to
   * its node. Failures are logged and make the preemptor be activated, as kube's async preemption
   * does.
   */
  void prepareCandidate(Candidate c, PodInfo preemptor) {
    observer.victims(c.victims().size());
    String uid = preemptor.uid();
    preempting.add(uid);
    boolean failed = false;
    try {
      if (!clearLowerPriorityNominations(preemptor, c.name())) {
        failed = true;
      }
      List<PodInfo> victims = c.victims();
      if (victims.isEmpty()) {
        return;
      }
      // all but the last victim go while the preemptor is held back; it is released before the
      // last one so that the deletion event of the last victim can requeue it
      for (int i = 0; i < victims.size() - 1 && !failed; i++) {
        failed = !preemptPod(c, preemptor, victims.get(i));
      }
      preempting.remove(uid);
      if (!failed) {
        failed = !preemptPod(c, preemptor, victims.get(victims.size() - 1));
      }
    } finally {
      preempting.remove(uid);
      if (failed) {
        handle.activate(List.of(preemptor.pod()));
      }
    }
  }

  private boolean clearLowerPriorityNominations(PodInfo preemptor, String node) {
    boolean ok = true;
    for (PodInfo p : handle.nominator().nominatedPodsForNode(node)) {
      if (p.priority() >= preemptor.priority() || p.nominatedNodeName() == null) {
        continue;
      }
      try {
        handle.client().setNominatedNodeName(p.pod(), null);
      } catch (RuntimeException e) {
        ok = false;
        log.atWarn()
            .setMessage("cannot clear the nominated node name of a lower-priority pod")
            .addKeyValue("pod", p.key())
            .addKeyValue("node", node)
            .setCause(e)
            .log();
      }
    }
    return ok;
  }

  private boolean preemptPod(Candidate c, PodInfo preemptor, PodInfo victim) {
    WaitingPod waiting = handle.getWaitingPod(victim.uid()).orElse(null);
    if (waiting != null) {
      waiting.reject(pluginName, "preempted");
      log.atInfo()
          .setMessage("preemptor pod rejected a waiting pod")
          .addKeyValue("pod", preemptor.key())
          .addKeyValue("victim", victim.key())
          .addKeyValue("node", c.name())
          .log();
    } else {
      try {
        V1PodCondition condition =
            new V1PodCondition()
                .type(DISRUPTION_TARGET)
                .status("True")
                .reason(REASON_PREEMPTION_BY_SCHEDULER)
                .message(
                    preemptor.schedulerName() + ": preempting to accommodate a higher priority pod")
                .lastTransitionTime(
                    OffsetDateTime.ofInstant(handle.clock().instant(), ZoneOffset.UTC));
        if (updateCondition(victim.pod(), condition)) {
          handle.client().updatePodCondition(victim.pod(), condition);
        }
        handle.client().deletePod(victim.pod());
      } catch (RuntimeException e) {
        log.atError()
            .setMessage("could not preempt victim")
            .addKeyValue("pod", preemptor.key())
            .addKeyValue("victim", victim.key())
            .addKeyValue("node", c.name())
            .setCause(e)
            .log();
        return false;
      }
      log.atInfo()
          .setMessage("preemptor pod preempted victim pod")
          .addKeyValue("pod", preemptor.key())
          .addKeyValue("victim", victim.key())
          .addKeyValue("node", c.name())
          .log();
    }
    handle
        .eventRecorder()
        .event(
            victim.pod(),
            EventRecorder.NORMAL,
            "Preempted",
            "Preempting",
            "Preempted by pod " + preemptor.uid() + " on node " + c.name());
    return true;
  }

  /**
   * Returns whether setting {@code c} changes the pod's conditions, as kube's {@code
   * UpdatePodCondition}: an existing condition of the type with the same status keeps its
   * transition time (copied into {@code c}), and nothing changes when status, reason, message,
   * probe and transition times are all equal.
   */
  private static boolean updateCondition(V1Pod pod, V1PodCondition c) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return true;
    }
    for (V1PodCondition old : pod.getStatus().getConditions()) {
      if (c.getType().equals(old.getType())) {
        if (Objects.equals(c.getStatus(), old.getStatus())) {
          c.setLastTransitionTime(old.getLastTransitionTime());
        }
        return !(Objects.equals(c.getStatus(), old.getStatus())
            && Objects.equals(c.getReason(), old.getReason())
            && Objects.equals(c.getMessage(), old.getMessage())
            && Objects.equals(c.getLastProbeTime(), old.getLastProbeTime()));
      }
    }
    return true;
  }

  /**
   * Returns the {@code 0/N nodes are available: ...} text of a FitError whose explicit node
   * statuses are {@code statuses} and whose other nodes have {@code absent}: each reason prefixed
   * with its node count, sorted, joined by {@code ", "} ({@link FitErrorMessage}).
   *
   * @param pod the preemptor (kube's FitError names it; the text does not)
   */
  public static String nodesAvailableMessage(
      PodInfo pod, int numAllNodes, Map<String, Status> statuses, Status absent) {
    return FitErrorMessage.format(numAllNodes, "", statuses, absent, "");
  }

  /** Joins error messages as Go's {@code utilerrors.NewAggregate(errs).Error()} does. */
  static String aggregate(List<String> messages) {
    if (messages.size() == 1) {
      return messages.get(0);
    }
    Set<String> unique = new LinkedHashSet<>(messages);
    if (unique.size() == 1) {
      return unique.iterator().next();
    }
    return "[" + String.join(", ", unique) + "]";
  }

  /** A fixed-capacity list filled concurrently; additions past the capacity are dropped. */
  private static final class BoundedList {
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicReferenceArray<Candidate> items;

    BoundedList(int capacity) {
      items = new AtomicReferenceArray<>(Math.max(0, capacity));
    }

    void add(Candidate c) {
      int i = next.getAndIncrement();
      if (i < items.length()) {
        items.set(i, c);
      }
    }

    int size() {
      return Math.min(next.get(), items.length());
    }

    List<Candidate> get() {
      int n = size();
      List<Candidate> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(items.get(i));
      }
      return out;
    }
  }
}
