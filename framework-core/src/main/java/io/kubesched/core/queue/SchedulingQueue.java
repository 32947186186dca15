package io.kubesched.core.queue;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.queue.QueueingHints.Strategy;
import io.kubesched.core.runtime.EngineAccess;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.KeyedQueueSort;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodNominator;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling queue (kube-scheduler 1.33's {@code PriorityQueue} with queueing hints and
 * PopFromBackoffQ enabled).
 *
 * <h2>Structure</h2>
 *
 * <ul>
 *   <li><b>activeQ</b>: pods ready to be scheduled, a heap ordered by the QueueSort plugin's {@code
 *       less} (ties keep insertion order);
 *   <li><b>backoffQ</b>: pods waiting for their backoff, two heaps ordered by backoff expiry: pods
 *       rejected by plugins (ties ordered by {@code less}) and pods that failed with an error;
 *   <li><b>unschedulable pods</b>: pods rejected by plugins waiting for a cluster event, and pods
 *       gated by a PreEnqueue plugin.
 * </ul>
 *
 * <p>A pod's backoff is {@code min(max, initial * 2^(attempts-1))} from its last enqueue, truncated
 * to the second; a pod is backing off while that expiry is not before the current second. When the
 * active queue is empty, {@link #pop()} takes the head of the rejected-pods backoff heap even
 * before its expiry.
 *
 * <p>Between {@link #pop()} and {@link #done(String)} a pod is <em>in flight</em>: the cluster
 * events received meanwhile are recorded and evaluated when the pod comes back through {@link
 * #addUnschedulableIfNotPresent}. Requeueing is decided by the queueing hints the rejecting plugins
 * registered: a Queue from a plugin that returned Pending requeues at once, a Queue from an
 * Unschedulable plugin requeues after backoff, otherwise the pod stays.
 *
 * <p>Time comes only from the injected {@link Clock}; the periodic flushes are public so a
 * simulation can drive them ({@link #run(ScheduledExecutorService)} schedules them for real use).
 * Thread-safe: one lock guards everything; {@link #pop()} waits on it.
 */
public final class SchedulingQueue implements PodNominator {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulingQueue.class);

  /** Interval of the backoff flush, also the backoff ordering window. */
  public static final Duration BACKOFF_FLUSH_INTERVAL = Duration.ofSeconds(1);

  /** Interval of the unschedulable-pods flush. */
  public static final Duration UNSCHEDULABLE_FLUSH_INTERVAL = Duration.ofSeconds(30);

  /** Default initial backoff. */
  public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(1);

  /** Default maximum backoff. */
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(10);

  /** Default longest stay among the unschedulable pods. */
  public static final Duration DEFAULT_MAX_IN_UNSCHEDULABLE = Duration.ofMinutes(5);

  /** Where a requeued pod went. */
  enum Target {
    ACTIVE,
    BACKOFF,
    UNSCHEDULABLE
  }

  private final Clock clock;
  private final QueueSortPlugin sort;
  private final Map<String, QueueProfile> profiles;
  private final Duration maxInUnschedulable;

  private final QueueingHints hints;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition cond = lock.newCondition();
  private final PodHeap activeQ;
  private final BackoffQueue backoffQ;
  private final Map<String, QueuedPodInfo> unschedulablePods = new LinkedHashMap<>();
  // how many of unschedulablePods are gated, kept in step by putUnschedulable,
  // removeUnschedulable and runPreEnqueue (the only writers of the map and of a pod's gating)
  private int gatedCount;
  // The nominated pods by node as last resolved; the nominator, the heaps and the changes of the
  // unschedulable pods mark the nodes to resolve again. Guarded by the lock.
  private final ResolvedNominations resolved = new ResolvedNominations();
  private final Nominator nominator = new Nominator(resolved::mark);

  /** Whether the active queue or the rejected backoff heap held pods at the last unlock. */
  private volatile boolean ready;

  // the sizes after the last change, published as the lock is released (see sizes())
  private volatile QueueSizes published = new QueueSizes(0, 0, 0, 0);

  private final InFlightTracker inFlight = new InFlightTracker();
  private long schedCycle;
  private long moveRequestCycle = -1;
  private boolean closed;
  private final List<ScheduledFuture<?>> timers = new ArrayList<>();

  /**
   * Creates a queue.
   *
   * @param clock the only source of time
   * @param sort the QueueSort plugin ordering the active queue
   * @param profiles the profiles by scheduler name (PreEnqueue and registered events)
   * @param initialBackoff the backoff after the first failed attempt (kube default 1 s)
   * @param maxBackoff the longest backoff (kube default 10 s)
   * @param maxInUnschedulable how long a pod may stay among the unschedulable pods before the
   *     leftover flush moves it (kube default 5 min)
   */
  public SchedulingQueue(
      Clock clock,
      QueueSortPlugin sort,
      Map<String, QueueProfile> profiles,
      Duration initialBackoff,
      Duration maxBackoff,
      Duration maxInUnschedulable) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sort = Objects.requireNonNull(sort, "sort");
    this.profiles = Map.copyOf(profiles);
    this.maxInUnschedulable = Objects.requireNonNull(maxInUnschedulable, "maxInUnschedulable");
    Comparator<QueuedPodInfo> byLess = (a, b) -> sort.less(a, b) ? -1 : sort.less(b, a) ? 1 : 0;
    this.activeQ =
        new PodHeap(
            byLess, sort instanceof KeyedQueueSort keyed ? keyed : null, this::entryChanged);
    this.backoffQ =
        new BackoffQueue(
            clock,
            Objects.requireNonNull(initialBackoff, "initialBackoff"),
            Objects.requireNonNull(maxBackoff, "maxBackoff"),
            byLess,
            this::entryChanged);
    this.hints = new QueueingHints(profiles);
  }

  // ---- backoff -------------------------------------------------------------------------------

  /** Returns the backoff duration after {@code attempts} attempts. */
  Duration backoffDuration(int attempts) {
    return backoffQ.backoffDuration(attempts);
  }

  private static String keyOf(V1Pod pod) {
    V1ObjectMeta m = pod.getMetadata();
    String ns = m == null || m.getNamespace() == null ? "" : m.getNamespace();
    String name = m == null || m.getName() == null ? "" : m.getName();
    return PodInfo.key(ns, name);
  }

  // ---- PreEnqueue ----------------------------------------------------------------------------

  private void runPreEnqueue(QueuedPodInfo p) {
    boolean gatedBefore = p.gated();
    decideGating(p);
    if (p.gated() != gatedBefore && unschedulablePods.get(PodHeap.key(p)) == p) {
      gatedCount += p.gated() ? 1 : -1;
    }
  }

  private void decideGating(QueuedPodInfo p) {
    QueueProfile profile = profiles.get(p.podInfo().schedulerName());
    if (profile == null || profile.preEnqueue() == null) {
      EngineAccess.setGatingPlugin(p, null);
      return;
    }
    Status s = profile.preEnqueue().apply(p.podInfo());
    if (s == null || s.isSuccess()) {
      EngineAccess.setGatingPlugin(p, null);
      return;
    }
    String plugin = s.plugin() == null ? "PreEnqueue" : s.plugin();
    EngineAccess.mutableUnschedulablePlugins(p).add(plugin);
    EngineAccess.setGatingPlugin(p, plugin);
    if (s.code() == Status.Code.ERROR) {
      LOG.atError()
          .addKeyValue("pod", p.podInfo().key())
          .addKeyValue("plugin", plugin)
          .log("Unexpected error running PreEnqueue plugin: {}", s.message());
    } else {
      LOG.atDebug()
          .addKeyValue("pod", p.podInfo().key())
          .addKeyValue("plugin", plugin)
          .log("Status after running PreEnqueue plugin: {}", s);
    }
  }

  // ---- moves ---------------------------------------------------------------------------------

  private boolean moveToActiveQ(QueuedPodInfo p, String event, boolean fromBackoffQ) {
    if (!fromBackoffQ) {
      runPreEnqueue(p);
    }
    String key = PodHeap.key(p);
    if (p.gated()) {
      if (activeQ.has(key) || backoffQ.has(key) || unschedulablePods.containsKey(key)) {
        return false;
      }
      putUnschedulable(key, p);
      LOG.atDebug()
          .addKeyValue("pod", p.podInfo().key())
          .addKeyValue("event", event)
          .log("Pod moved to the unschedulable pods, because the pod is gated");
      return false;
    }
    if (p.initialAttemptTimestamp() == null) {
      EngineAccess.setInitialAttemptTimestamp(p, clock.instant());
    }
    removeUnschedulable(key);
    backoffQ.delete(key);
    activeQ.addOrUpdate(p);
    if (event.equals(ClusterEvents.UNSCHEDULED_POD_ADD.label())
        || event.equals(ClusterEvents.UNSCHEDULED_POD_UPDATE.label())) {
      nominator.add(p.podInfo(), null);
    }
    return true;
  }

  private boolean moveToBackoffQ(QueuedPodInfo p, String event) {
    runPreEnqueue(p);
    String key = PodHeap.key(p);
    if (p.gated()) {
      if (!unschedulablePods.containsKey(key)) {
        putUnschedulable(key, p);
      }
      return false;
    }
    removeUnschedulable(key);
    backoffQ.add(p);
    return true;
  }

  private Target requeue(QueuedPodInfo p, Strategy strategy, String event) {
    if (strategy == Strategy.SKIP) {
      putUnschedulable(PodHeap.key(p), p);
      return Target.UNSCHEDULABLE;
    }
    if (strategy == Strategy.AFTER_BACKOFF && backoffQ.isBackingOff(p)) {
      return moveToBackoffQ(p, event) ? Target.BACKOFF : Target.UNSCHEDULABLE;
    }
    return moveToActiveQ(p, event, false) ? Target.ACTIVE : Target.UNSCHEDULABLE;
  }

  private void movePods(
      List<QueuedPodInfo> pods, ClusterEvent event, Object oldObj, Object newObj) {
    if (!hints.isEventOfInterest(event)) {
      return;
    }
    boolean activated = false;
    for (QueuedPodInfo p : pods) {
      if (p.gated() && !hints.matchesGatingPlugin(p, event)) {
        continue;
      }
      Strategy strategy = hints.strategy(p, event, oldObj, newObj);
      if (strategy == Strategy.SKIP) {
        LOG.atTrace()
            .addKeyValue("pod", p.podInfo().key())
            .addKeyValue("event", event.label())
            .log("Event is not making pod schedulable");
        continue;
      }
      removeUnschedulable(PodHeap.key(p));
      Target t = requeue(p, strategy, event.label());
      if (t != Target.UNSCHEDULABLE) {
        activated = true;
      }
    }
    moveRequestCycle = schedCycle;
    addEventIfAnyInFlight(oldObj, newObj, event);
    if (activated) {
      cond.signalAll();
    }
  }

  // ---- public API ----------------------------------------------------------------------------

  /** Adds a new unscheduled pod: to the active queue, or to the unschedulable pods when gated. */
  public void add(V1Pod pod) {
    // Parsed before taking the lock: the scheduling loop waits on it.
    PodInfo info = PodInfo.of(pod);
    lockForUpdate();
    try {
      QueuedPodInfo p = new QueuedPodInfo(info, clock.instant());
      if (moveToActiveQ(p, ClusterEvents.UNSCHEDULED_POD_ADD.label(), false)) {
        cond.signalAll();
      }
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * Updates a pending pod. An in-flight pod only records the update's events. A pod in the active
   * or backoff queue is updated in place. An unschedulable (or gated) pod is updated and requeued
   * if a pod-update event's hint says so (gated pods run PreEnqueue again). An unknown pod is
   * added.
   */
  public void update(V1Pod oldPod, V1Pod newPod) {
    lockForUpdate();
    try {
      List<ClusterEvent> events =
          oldPod == null ? List.of() : ClusterEvents.podSchedulingPropertiesChange(newPod, oldPod);
      if (addEventsIfPodInFlight(oldPod, newPod, events)) {
        return;
      }
      String key = keyOf(newPod);
      if (oldPod != null) {
        String oldKey = keyOf(oldPod);
        QueuedPodInfo p = activeQ.get(oldKey);
        if (p != null) {
          EngineAccess.setPodInfo(p, PodInfo.of(newPod));
          activeQ.addOrUpdate(p);
          nominator.update(oldPod, p.podInfo());
          return;
        }
        p = backoffQ.get(oldKey);
        if (p != null) {
          EngineAccess.setPodInfo(p, PodInfo.of(newPod));
          backoffQ.update(p);
          nominator.update(oldPod, p.podInfo());
          return;
        }
      }
      QueuedPodInfo p = unschedulablePods.get(key);
      if (p != null) {
        EngineAccess.setPodInfo(p, PodInfo.of(newPod));
        // the nominator's update below reports the pod's node too; this keeps the rule that every
        // change of an entry is reported on its own
        entryChanged(key);
        nominator.update(oldPod, p.podInfo());
        for (ClusterEvent evt : events) {
          Strategy s = hints.strategy(p, evt, oldPod, newPod);
          Target t = requeue(p, s, evt.label());
          if (t != Target.UNSCHEDULABLE) {
            cond.signalAll();
            break;
          }
        }
        return;
      }
      QueuedPodInfo fresh = new QueuedPodInfo(PodInfo.of(newPod), clock.instant());
      if (moveToActiveQ(fresh, ClusterEvents.UNSCHEDULED_POD_UPDATE.label(), false)) {
        cond.signalAll();
      }
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Removes a pod from every queue and from the nominator. */
  public void delete(V1Pod pod) {
    lockForUpdate();
    try {
      nominator.delete(PodInfo.uidOf(pod));
      String key = keyOf(pod);
      if (activeQ.delete(key)) {
        return;
      }
      if (backoffQ.delete(key)) {
        return;
      }
      removeUnschedulable(key);
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * Removes and returns the head of the active queue, or (when it is empty) the head of the
   * rejected-pods backoff heap; blocks while both are empty. Returns {@code null} once the queue is
   * closed. Increments the attempts and the scheduling cycle and marks the pod in flight.
   */
  public QueuedPodInfo pop() throws InterruptedException {
    lockForUpdate();
    try {
      while (true) {
        while (activeQ.isEmpty() && !backoffQ.hasRejected()) {
          if (closed) {
            LOG.atInfo().log("Scheduling queue is closed");
            return null;
          }
          // the lock is released while waiting: what this pop discarded shows in sizes()
          publishLocked();
          cond.await();
        }
        QueuedPodInfo p = popLocked();
        if (p != null) {
          return p;
        }
        // Every pod there was a duplicate of one in flight and was discarded: wait again, as
        // kube's Pop does (returning null here would end the scheduling loop as if closed).
      }
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * Like {@link #pop()} but returns empty instead of blocking (for simulations); like {@code pop},
   * a closed queue still hands out the pods it holds.
   */
  public Optional<QueuedPodInfo> tryPop() {
    lockForUpdate();
    try {
      if (activeQ.isEmpty() && !backoffQ.hasRejected()) {
        return Optional.empty();
      }
      return Optional.ofNullable(popLocked());
    } finally {
      unlockAfterUpdate();
    }
  }

  private QueuedPodInfo popLocked() {
    while (true) {
      QueuedPodInfo p = activeQ.pop();
      if (p == null) {
        p = backoffQ.popRejected();
        if (p == null) {
          return null;
        }
        LOG.atTrace().addKeyValue("pod", p.podInfo().key()).log(ClusterEvents.POP_FROM_BACKOFF_Q);
      }
      EngineAccess.setAttempts(p, p.attempts() + 1);
      EngineAccess.setBackoffExpiration(p, null);
      String uid = p.podInfo().uid();
      if (!inFlight.markPopped(uid, p.podInfo().pod())) {
        LOG.atError()
            .addKeyValue("pod", p.podInfo().key())
            .log(
                "The same pod is tracked in multiple places in the scheduler, and just discard it");
        continue;
      }
      schedCycle++;
      EngineAccess.mutableUnschedulablePlugins(p).clear();
      EngineAccess.mutablePendingPlugins(p).clear();
      return p;
    }
  }

  /** Marks the pod with {@code uid} no longer in flight; prunes events nobody needs any more. */
  public void done(String uid) {
    lockForUpdate();
    try {
      doneLocked(uid);
    } finally {
      unlockAfterUpdate();
    }
  }

  private void doneLocked(String uid) {
    inFlight.done(uid);
  }

  /**
   * Puts back a pod whose scheduling attempt failed, and marks it done. The events received while
   * it was in flight decide where it goes (see the class comment); a pod without rejecting plugins
   * (an error) goes to the backoff queue.
   *
   * @throws SchedulingException when the pod is already in a queue
   */
  public void addUnschedulableIfNotPresent(QueuedPodInfo p, long podSchedulingCycle) {
    lockForUpdate();
    try {
      String key = PodHeap.key(p);
      try {
        if (unschedulablePods.containsKey(key)) {
          throw new SchedulingException(
              "Pod " + p.podInfo().key() + " is already present in unschedulable queue");
        }
        if (activeQ.has(key)) {
          throw new SchedulingException(
              "Pod " + p.podInfo().key() + " is already present in the active queue");
        }
        if (backoffQ.has(key)) {
          throw new SchedulingException(
              "Pod " + p.podInfo().key() + " is already present in the backoff queue");
        }
        EngineAccess.setTimestamp(p, clock.instant());
        EngineAccess.setBackoffExpiration(p, null);
        Strategy hint = hintForInFlightPod(p);
        Target t = requeue(p, hint, ClusterEvents.SCHEDULE_ATTEMPT_FAILURE);
        LOG.atDebug()
            .addKeyValue("pod", p.podInfo().key())
            .addKeyValue("queue", t)
            .addKeyValue("schedulingCycle", podSchedulingCycle)
            .addKeyValue("hint", hint)
            .log("Pod moved to an internal scheduling queue");
        if (t != Target.UNSCHEDULABLE) {
          cond.signalAll();
        }
      } finally {
        doneLocked(p.podInfo().uid());
      }
    } finally {
      unlockAfterUpdate();
    }
  }

  private Strategy hintForInFlightPod(QueuedPodInfo p) {
    if (p.unschedulablePlugins().isEmpty() && p.pendingPlugins().isEmpty()) {
      return Strategy.AFTER_BACKOFF;
    }
    List<InFlightTracker.Event> events = inFlight.eventsSince(p.podInfo().uid());
    if (events == null) {
      LOG.atError()
          .addKeyValue("pod", p.podInfo().key())
          .log(
              "in flight Pod isn't found in the scheduling queue. If you see this error log, it's"
                  + " likely a bug in the scheduler");
      return Strategy.AFTER_BACKOFF;
    }
    Strategy strategy = Strategy.SKIP;
    for (InFlightTracker.Event e : events) {
      switch (hints.strategy(p, e.event(), e.oldObj(), e.newObj())) {
        case SKIP:
          break;
        case IMMEDIATELY:
          return Strategy.IMMEDIATELY;
        case AFTER_BACKOFF:
          strategy = Strategy.AFTER_BACKOFF;
          if (p.pendingPlugins().isEmpty()) {
            return Strategy.AFTER_BACKOFF;
          }
          break;
        default:
          throw new IllegalStateException();
      }
    }
    return strategy;
  }

  /** Returns the number of pods popped so far (the current scheduling cycle). */
  public long schedulingCycle() {
    lockForUpdate();
    try {
      return schedCycle;
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * Moves the given pods from the unschedulable pods or the backoff queue to the active queue
   * ({@code ForceActivate}). For a pod in flight, a pod-targeted ForceActivate event is recorded so
   * it is requeued when it comes back; unknown pods are ignored.
   */
  public void activate(Collection<V1Pod> pods) {
    lockForUpdate();
    try {
      boolean activated = false;
      for (V1Pod pod : pods) {
        if (activateLocked(pod)) {
          activated = true;
          continue;
        }
        addEventsIfPodInFlight(null, pod, List.of(ClusterEvent.FORCE_ACTIVATE));
        moveRequestCycle = schedCycle;
      }
      if (activated) {
        cond.signalAll();
      }
    } finally {
      unlockAfterUpdate();
    }
  }

  private boolean activateLocked(V1Pod pod) {
    String key = keyOf(pod);
    QueuedPodInfo p = unschedulablePods.get(key);
    boolean fromBackoff = false;
    if (p == null) {
      p = backoffQ.get(key);
      if (p == null || !backoffQ.delete(key)) {
        return false;
      }
      fromBackoff = true;
    }
    return moveToActiveQ(p, ClusterEvents.FORCE_ACTIVATE, fromBackoff);
  }

  /**
   * Requeues the unschedulable pods (those passing {@code preCheck}, when given) for which the
   * event is worth it according to their rejecting plugins' registered events and hints; records
   * the event for pods in flight. Returns at once when no profile registered a matching event
   * (wildcard events always proceed). Gated pods move only on events their gating plugin
   * registered.
   */
  public void moveAllToActiveOrBackoffQueue(
      ClusterEvent event, Object oldObj, Object newObj, Predicate<V1Pod> preCheck) {
    lockForUpdate();
    try {
      if (!hints.isEventOfInterest(event)) {
        return;
      }
      List<QueuedPodInfo> pods = new ArrayList<>(unschedulablePods.size());
      for (QueuedPodInfo p : unschedulablePods.values()) {
        if (preCheck == null || preCheck.test(p.podInfo().pod())) {
          pods.add(p);
        }
      }
      movePods(pods, event, oldObj, newObj);
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * A bound pod was added: with queueing hints on, kube's event handler moves pods with the {@code
   * AssignedPod/Add} event.
   */
  public void assignedPodAdded(V1Pod pod) {
    moveAllToActiveOrBackoffQueue(ClusterEvents.ASSIGNED_POD_ADD, null, pod, null);
  }

  /**
   * A bound pod was updated: moves pods with the {@code AssignedPod} event of {@code actionType}
   * (one of the events {@link ClusterEvents#podSchedulingPropertiesChange} derives).
   */
  public void assignedPodUpdated(V1Pod oldPod, V1Pod newPod, int actionType) {
    moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.ASSIGNED_POD, actionType), oldPod, newPod, null);
  }

  /** A bound pod was deleted: moves pods with the {@code AssignedPod/Delete} event. */
  public void assignedPodDeleted(V1Pod pod) {
    moveAllToActiveOrBackoffQueue(ClusterEvents.ASSIGNED_POD_DELETE, pod, null, null);
  }

  /** Moves every pod whose backoff completed (both heaps) to the active queue. Run every second. */
  public void flushBackoffQCompleted() {
    lockForUpdate();
    try {
      boolean activated = false;
      for (QueuedPodInfo p : backoffQ.popCompleted()) {
        if (moveToActiveQ(p, ClusterEvents.BACKOFF_COMPLETE, true)) {
          activated = true;
        }
      }
      if (activated) {
        cond.signalAll();
      }
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * Moves the pods that stayed among the unschedulable pods longer than the maximum with the {@code
   * UnschedulableTimeout} wildcard event. Run every 30 seconds.
   */
  public void flushUnschedulablePodsLeftover() {
    lockForUpdate();
    try {
      Instant now = clock.instant();
      List<QueuedPodInfo> toMove = new ArrayList<>();
      for (QueuedPodInfo p : unschedulablePods.values()) {
        if (Duration.between(p.timestamp(), now).compareTo(maxInUnschedulable) > 0) {
          toMove.add(p);
        }
      }
      if (!toMove.isEmpty()) {
        movePods(toMove, ClusterEvent.UNSCHEDULABLE_TIMEOUT, null, null);
      }
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * Schedules the periodic flushes on {@code timers}: the backoff flush aligned to whole seconds of
   * the clock, every second; the leftover flush now and every 30 seconds. {@link #close()} cancels
   * them.
   */
  public void run(ScheduledExecutorService timers) {
    Instant now = clock.instant();
    long toNextWindow =
        Duration.between(now, BackoffQueue.alignToWindow(now.plus(BACKOFF_FLUSH_INTERVAL)))
            .toNanos();
    lockForUpdate();
    try {
      this.timers.add(
          timers.scheduleAtFixedRate(
              this::flushBackoffQCompleted,
              toNextWindow,
              BACKOFF_FLUSH_INTERVAL.toNanos(),
              TimeUnit.NANOSECONDS));
      this.timers.add(
          timers.scheduleWithFixedDelay(
              this::flushUnschedulablePodsLeftover,
              0,
              UNSCHEDULABLE_FLUSH_INTERVAL.toNanos(),
              TimeUnit.NANOSECONDS));
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * Returns the earliest instant at which {@link #flushBackoffQCompleted()} moves a pod (the second
   * after the head's aligned expiry, or now for a pod without backoff); empty when the backoff
   * queue is empty.
   */
  public Optional<Instant> nextBackoffExpiry() {
    lockForUpdate();
    try {
      return backoffQ.nextCompletion();
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Closes the queue: cancels the flush timers and wakes up {@link #pop()}, which returns null. */
  public void close() {
    lockForUpdate();
    try {
      closed = true;
      for (ScheduledFuture<?> f : timers) {
        f.cancel(false);
      }
      timers.clear();
      cond.signalAll();
    } finally {
      unlockAfterUpdate();
    }
  }

  // ---- nominator -----------------------------------------------------------------------------

  /**
   * Sets the informer lookup ({@code (namespace, name) -> current pod}, e.g. {@code
   * ClusterClient::getPod}) the nominator uses, like kube's pod lister, to refuse nominating a pod
   * that was deleted or is already bound. Without it every nomination is recorded. Called under the
   * queue's lock: it must not call back into the queue.
   */
  public void setPodLister(BiFunction<String, String, Optional<V1Pod>> podLister) {
    lockForUpdate();
    try {
      nominator.setPodLister(podLister);
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * Records that {@code pod} is nominated: to {@code info.nodeName()} under OVERRIDE, else (NOOP or
   * {@code null}) to its {@code status.nominatedNodeName}.
   */
  public void addNominatedPod(PodInfo pod, NominatingInfo info) {
    lockForUpdate();
    try {
      nominator.add(pod, info);
    } finally {
      unlockAfterUpdate();
    }
  }

  /**
   * Drops the nomination of {@code pod}, if any. With no pod nominated at all it returns without
   * taking the queue's lock (the scheduling loop calls this for every assumed pod): a nomination
   * added concurrently is then ordered after this call, as it could have been with the lock.
   */
  public void deleteNominatedPodIfExists(V1Pod pod) {
    if (nominator.isEmpty()) {
      return;
    }
    lockForUpdate();
    try {
      nominator.delete(PodInfo.uidOf(pod));
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Re-nominates an updated pod, keeping an in-memory nomination the update does not carry. */
  public void updateNominatedPod(V1Pod oldPod, PodInfo newPod) {
    lockForUpdate();
    try {
      nominator.update(oldPod, newPod);
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Returns whether any pod is nominated to a node (read without the lock). */
  public boolean hasNominatedPods() {
    return !nominator.isEmpty();
  }

  /**
   * Returns the pods nominated to {@code nodeName}, in nomination order: their queued versions, or
   * a bare pod (name, namespace, UID) for a pod in no queue.
   */
  @Override
  public List<PodInfo> nominatedPodsForNode(String nodeName) {
    if (nominator.isEmpty()) {
      return List.of();
    }
    lock.lock();
    try {
      List<PodInfo> pods = resolved.forNode(nodeName);
      return pods != null ? pods : resolveNominated(nominator.forNode(nodeName));
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The answer is kept between calls: only the nodes whose nominations, or whose nominated pods'
   * entries in the queues, changed since the last call are resolved again; the map and its lists
   * are read-only and never change.
   */
  @Override
  public Map<String, List<PodInfo>> nominatedPodsByNode() {
    if (nominator.isEmpty()) {
      return Map.of();
    }
    lock.lock();
    try {
      return resolved.byNode(node -> resolveNominated(nominator.forNode(node)));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Resolves every node's nominated pods anew, as {@link #nominatedPodsByNode()} did before it kept
   * its answer (for tests: the reference the kept answer must equal).
   */
  Map<String, List<PodInfo>> nominatedPodsByNodeResolvedAnew() {
    lock.lock();
    try {
      Map<String, List<PodInfo>> out = new java.util.HashMap<>();
      for (String node : nominator.nodes()) {
        List<PodInfo> pods = node.isEmpty() ? List.of() : resolveNominated(nominator.forNode(node));
        if (!pods.isEmpty()) {
          out.put(node, pods);
        }
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** Takes the lock for a section that may change the queue or the nominator. */
  private void lockForUpdate() {
    lock.lock();
  }

  /**
   * Releases the lock taken by {@link #lockForUpdate()}, after {@link #publishLocked()}; the lock
   * is released even if publishing fails.
   */
  private void unlockAfterUpdate() {
    try {
      publishLocked();
    } finally {
      lock.unlock();
    }
  }

  /** Notes whether pods are ready and publishes the sizes; called under the lock. */
  private void publishLocked() {
    ready = !activeQ.isEmpty() || backoffQ.hasRejected();
    int active = activeQ.size();
    int backoff = backoffQ.size();
    int unschedulable = unschedulablePods.size() - gatedCount;
    QueueSizes last = published;
    if (last.active() != active
        || last.backoff() != backoff
        || last.unschedulable() != unschedulable
        || last.gated() != gatedCount) {
      published = new QueueSizes(active, backoff, unschedulable, gatedCount);
    }
  }

  /**
   * The queue entry with {@code key} was added, replaced or removed (the active and backoff heaps
   * report theirs): the nodes the pod is nominated to are resolved again. Called under the lock.
   */
  private void entryChanged(String key) {
    nominator.keyChanged(key);
  }

  private void putUnschedulable(String key, QueuedPodInfo p) {
    QueuedPodInfo old = unschedulablePods.put(key, p);
    if (old != null && old.gated()) {
      gatedCount--;
    }
    if (p.gated()) {
      gatedCount++;
    }
    entryChanged(key);
  }

  private void removeUnschedulable(String key) {
    QueuedPodInfo old = unschedulablePods.remove(key);
    if (old != null) {
      if (old.gated()) {
        gatedCount--;
      }
      entryChanged(key);
    }
  }

  /**
   * Returns whether {@link #pop()} would have returned a pod without blocking when the queue was
   * last changed: a hint read without the lock, for a caller that waits briefly before blocking.
   */
  public boolean hasReadyPods() {
    return ready;
  }

  /**
   * The pods of {@code refs} as the queue holds them now (a bare pod for one the queue no longer
   * holds, e.g. in flight); called under the lock.
   */
  private List<PodInfo> resolveNominated(List<Nominator.PodRef> refs) {
    if (refs.isEmpty()) {
      return List.of();
    }
    List<PodInfo> out = new ArrayList<>(refs.size());
    for (Nominator.PodRef r : refs) {
      String key = r.key();
      QueuedPodInfo p = activeQ.get(key);
      if (p == null) {
        p = unschedulablePods.get(key);
      }
      if (p == null) {
        p = backoffQ.get(key);
      }
      if (p != null) {
        out.add(p.podInfo());
      } else {
        out.add(r.bare());
      }
    }
    return out;
  }

  /** Returns the node the pod with {@code uid} is nominated to, or {@code null}. */
  public String nominatedNodeOf(String uid) {
    lock.lock();
    try {
      return nominator.nodeOf(uid);
    } finally {
      lock.unlock();
    }
  }

  // ---- in-flight events ------------------------------------------------------------------------

  private boolean addEventsIfPodInFlight(V1Pod oldPod, V1Pod newPod, List<ClusterEvent> events) {
    return inFlight.addIfPodInFlight(PodInfo.uidOf(newPod), oldPod, newPod, events);
  }

  private void addEventIfAnyInFlight(Object oldObj, Object newObj, ClusterEvent event) {
    inFlight.addIfAnyInFlight(oldObj, newObj, event);
  }

  // ---- introspection -------------------------------------------------------------------------

  /**
   * Returns the number of pods in the active, backoff and unschedulable queues and gated, as the
   * last change left them; read without the queue's lock (the scheduling loop reports them after
   * every cycle).
   */
  public QueueSizes sizes() {
    return published;
  }

  /**
   * Returns every pending pod: the active queue in pop order, the backoff queue (rejected pods,
   * then error pods, each by expiry), then the unschedulable and gated pods in arrival order.
   */
  public List<QueuedPodInfo> pendingPods() {
    lockForUpdate();
    try {
      List<QueuedPodInfo> out = new ArrayList<>(activeQ.sorted());
      out.addAll(backoffQ.sorted());
      out.addAll(unschedulablePods.values());
      return out;
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Returns the pods of the active queue in pop order. */
  public List<V1Pod> podsInActiveQ() {
    lockForUpdate();
    try {
      return pods(activeQ.sorted());
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Returns the pods of the backoff queue (rejected pods, then error pods, each by expiry). */
  public List<V1Pod> podsInBackoffQ() {
    lockForUpdate();
    try {
      return pods(backoffQ.sorted());
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Returns the unschedulable pods, gated ones included, in arrival order. */
  public List<V1Pod> unschedulablePods() {
    lockForUpdate();
    try {
      return pods(unschedulablePods.values());
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Returns the pods in flight (popped, not yet done), in pop order. */
  public List<V1Pod> inFlightPods() {
    lockForUpdate();
    try {
      return inFlight.pods();
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Returns the number of recorded in-flight events (for tests). */
  int inFlightEventCount() {
    lockForUpdate();
    try {
      return inFlight.eventCount();
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Returns the queued pod {@code namespace/name} from any queue, or empty. */
  public Optional<QueuedPodInfo> get(String namespace, String name) {
    lockForUpdate();
    try {
      String key = namespace + "/" + name;
      QueuedPodInfo p = backoffQ.get(key);
      if (p == null) {
        p = unschedulablePods.get(key);
      }
      if (p == null) {
        p = activeQ.get(key);
      }
      return Optional.ofNullable(p);
    } finally {
      unlockAfterUpdate();
    }
  }

  /** Returns the scheduling cycle of the last move request (kept for parity with kube). */
  long moveRequestCycle() {
    return moveRequestCycle;
  }

  private static List<V1Pod> pods(Collection<QueuedPodInfo> infos) {
    List<V1Pod> out = new ArrayList<>(infos.size());
    for (QueuedPodInfo p : infos) {
      out.add(p.podInfo().pod());
    }
    return out;
  }
}
