package io.kubesched.core;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubesched.core.cache.SchedulerCache;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.cluster.Cluster;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.core.cluster.ObjectCopier;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.config.Profile;
import io.kubesched.core.extender.HttpExtender;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.core.queue.ClusterEvents;
import io.kubesched.core.queue.QueueProfile;
import io.kubesched.core.queue.SchedulingQueue;
import io.kubesched.core.runtime.Diagnosis;
import io.kubesched.core.runtime.EngineAccess;
import io.kubesched.core.runtime.ExecutorParallelizer;
import io.kubesched.core.runtime.FitError;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.FrameworkContext;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.runtime.ScheduleResult;
import io.kubesched.core.runtime.SchedulerExtender;
import io.kubesched.core.runtime.SchedulingAlgorithm;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodsToActivate;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * {@code Scheduler} is the scheduling engine: it watches a {@link Cluster}, keeps the cache and the
 * scheduling queue up to date, and runs kube-scheduler's scheduling cycle for one pod at a time and
 * the binding cycles asynchronously (kube's {@code scheduler.go}, {@code schedule_one.go} and
 * {@code eventhandlers.go}).
 *
 * <p>Build one with {@link #builder()}, then either {@link #startSchedulingLoop()} (a thread pops
 * pods forever, for a real cluster) or, for simulations and tests, {@link #start()} and {@link
 * #runUntilIdle()} (or {@link #scheduleOne()} step by step) on a {@link SimulatedTime}.
 *
 * <p>One profile ({@link Framework}) is built per configured profile; they share the waiting pods,
 * the cache and one queue whose order is the first profile's QueueSort plugin. Pods whose {@code
 * spec.schedulerName} names none of the profiles are ignored unless bound; terminal pods
 * (Succeeded, Failed) are invisible, as with kube-scheduler's pod informer.
 *
 * <h2>Threads</h2>
 *
 * One thread runs scheduling cycles (the loop thread, or the caller of {@link #scheduleOne()} and
 * {@link #runUntilIdle()}). Binding cycles run on the binding executor once Permit allows the pod;
 * on simulated time that is the simulation's scheduler, so they run on the thread advancing time,
 * deterministically. Cluster events reach the cache and the queue on whichever thread changed the
 * cluster.
 */
public final class Scheduler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

  /** The event message limit ({@code NoteLengthLimit}); longer messages are truncated. */
  static final int NOTE_LENGTH_LIMIT = 1024;

  /** The message of the error when the cluster has no node. */
  static final String NO_NODES_AVAILABLE = "no nodes available to schedule pods";

  /** The reason of a PodScheduled=False condition when the pod does not fit. */
  public static final String REASON_UNSCHEDULABLE = "Unschedulable";

  /** The reason of a PodScheduled=False condition on an internal error. */
  public static final String REASON_SCHEDULER_ERROR = "SchedulerError";

  private static final Duration POD_MAX_IN_UNSCHEDULABLE = Duration.ofMinutes(5);
  private static final String DEFAULT_SCHEDULER_NAME =
      io.kubesched.framework.SchedulerConstants.DEFAULT_SCHEDULER_NAME;
  private static final int MAX_IDLE_STEPS = 1_000_000;
  private static final int LIVELOCK_MIN_ATTEMPTS = 100;
  private static final int LIVELOCK_FACTOR = 5;

  private final Cluster cluster;
  private final Clock clock;
  private final ScheduledExecutorService timers;
  private final Executor bindingExecutor;
  private final SimulatedTime simulatedTime;
  private final boolean simulatedBinding;
  private final Random random;
  private final SchedulerMetrics metrics;
  private final SchedulingAttemptListener attemptListener;
  private final ThreadFactory threadFactory;
  private final List<ExecutorService> owned;
  private final SchedulingAlgorithm algorithm;
  private final SchedulerCache cache;
  private final SchedulingQueue queue;
  private final WaitingPods waitingPods;
  private final Map<String, Framework> profiles;
  private final Snapshot snapshot = Snapshot.empty();
  private final ClusterListener handlers = new EventHandlers();

  private final AtomicInteger bindingsInFlight = new AtomicInteger();
  private final AtomicInteger bindingsWaitingOnPermit = new AtomicInteger();
  private final AtomicLong progress = new AtomicLong();
  private final AtomicLong attempts = new AtomicLong();
  private final Object bindingMonitor = new Object();
  private long bindingCompletions;

  private final Object lifecycle = new Object();
  private boolean started;
  private volatile boolean closed;
  private Thread loopThread;

  private Scheduler(Builder b) {
    this.cluster = Objects.requireNonNull(b.cluster, "cluster must not be null");
    PluginRegistry registry = b.registry != null ? b.registry : PluginRegistry.discover();
    KubeSchedulerConfiguration config =
        b.configuration != null ? b.configuration : ConfigurationLoader.defaults(registry);
    if (config.profiles().isEmpty()) {
      throw new IllegalArgumentException("profiles: Required value: at least one profile");
    }
    List<SchedulerExtender> extenders = new ArrayList<>();
    for (int i = 0; i < config.extenders().size(); i++) {
      try {
        extenders.add(HttpExtender.create(config.extenders().get(i)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("extenders[" + i + "]: " + e.getMessage(), e);
      }
    }
    extenders.addAll(b.extenders);
    this.simulatedTime = b.simulatedTime;
    List<ExecutorService> ownedPools = new ArrayList<>();
    this.clock =
        b.clock != null
            ? b.clock
            : simulatedTime != null ? simulatedTime.clock() : Clock.systemUTC();
    ScheduledExecutorService t = b.timers;
    if (t == null && simulatedTime != null) {
      t = simulatedTime.scheduler();
    }
    if (t == null) {
      ScheduledExecutorService own =
          Executors.newSingleThreadScheduledExecutor(daemon("kubesched-timers"));
      ownedPools.add(own);
      t = own;
    }
    this.timers = t;
    Executor be = b.bindingExecutor;
    if (be == null && simulatedTime != null) {
      be = simulatedTime.scheduler();
    }
    if (be == null) {
      ExecutorService own = Executors.newCachedThreadPool(daemon("kubesched-binding"));
      ownedPools.add(own);
      be = own;
    }
    this.bindingExecutor = be;
    this.simulatedBinding = simulatedTime != null && be == simulatedTime.scheduler();
    this.owned = List.copyOf(ownedPools);
    this.random = b.random != null ? b.random : new Random(0);
    this.attemptListener =
        b.attemptListener != null ? b.attemptListener : SchedulingAttemptListener.NONE;
    this.metrics = b.metrics != null ? b.metrics : SchedulerMetrics.noop();
    this.threadFactory = b.threadFactory != null ? b.threadFactory : daemon("kubesched-scheduler");
    Parallelizer parallelizer =
        b.workers == null
            ? ExecutorParallelizer.callerRuns()
            : new ExecutorParallelizer(b.workers, Math.max(1, config.parallelism()));

    this.algorithm = new SchedulingAlgorithm(random);
    this.cache = new SchedulerCache(clock);
    this.waitingPods = new WaitingPods(timers);
    QueueHolder holder = new QueueHolder();
    FrameworkContext ctx =
        new FrameworkContext(
            cluster,
            cluster,
            clock,
            parallelizer,
            node -> holder.queue == null ? List.of() : holder.queue.nominatedPodsForNode(node),
            () -> snapshot,
            waitingPods,
            pods -> {
              if (holder.queue != null) {
                holder.queue.activate(pods);
              }
            },
            metrics,
            b.featureGates);
    Map<String, Framework> built = new LinkedHashMap<>();
    Map<String, QueueProfile> queueProfiles = new LinkedHashMap<>();
    try {
      buildProfiles(config, registry, ctx, extenders, built, queueProfiles);
    } catch (RuntimeException e) {
      ownedPools.forEach(ExecutorService::shutdownNow);
      throw e;
    }
    Framework first = built.values().iterator().next();
    this.profiles = Collections.unmodifiableMap(built);
    this.queue =
        new SchedulingQueue(
            clock,
            first.queueSortPlugin(),
            queueProfiles,
            config.podInitialBackoff() == null ? Duration.ofSeconds(1) : config.podInitialBackoff(),
            config.podMaxBackoff() == null ? Duration.ofSeconds(10) : config.podMaxBackoff(),
            POD_MAX_IN_UNSCHEDULABLE);
    holder.queue = queue;
  }

  /** Builds one framework per profile and its queue profile; checks names and QueueSort. */
  private static void buildProfiles(
      KubeSchedulerConfiguration config,
      PluginRegistry registry,
      FrameworkContext ctx,
      List<SchedulerExtender> extenders,
      Map<String, Framework> built,
      Map<String, QueueProfile> queueProfiles) {
    Framework first = null;
    for (int i = 0; i < config.profiles().size(); i++) {
      Profile p = config.profiles().get(i);
      if (built.containsKey(p.schedulerName())) {
        throw new IllegalArgumentException(
            "profiles[" + i + "].schedulerName: Duplicate value: \"" + p.schedulerName() + "\"");
      }
      Framework fwk =
          Framework.create(p, config.percentageOfNodesToScore(), registry, ctx, extenders);
      if (first == null) {
        first = fwk;
      } else if (!first.queueSortPlugin().name().equals(fwk.queueSortPlugin().name())) {
        throw new IllegalArgumentException(
            "different queue sort plugins for profile \""
                + p.schedulerName()
                + "\": \""
                + fwk.queueSortPlugin().name()
                + "\", first: \""
                + first.queueSortPlugin().name()
                + "\"");
      }
      built.put(p.schedulerName(), fwk);
      queueProfiles.put(
          p.schedulerName(), new QueueProfile(fwk::runPreEnqueuePlugins, fwk.enqueueExtensions()));
    }
  }

  /** Late-bound reference: the frameworks are built before the queue that orders by them. */
  private static final class QueueHolder {
    volatile SchedulingQueue queue;
  }

  /** Returns a new builder. */
  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------- accessors

  /** Returns the frameworks by profile (scheduler) name, in configuration order. */
  public Map<String, Framework> profiles() {
    return profiles;
  }

  /** Returns the scheduling queue. */
  public SchedulingQueue queue() {
    return queue;
  }

  /** Returns the scheduler cache. */
  public SchedulerCache cache() {
    return cache;
  }

  /** Returns the pods waiting at Permit, shared by all profiles. */
  public WaitingPods waitingPods() {
    return waitingPods;
  }

  /** Returns the number of binding cycles started and not finished (including Permit waits). */
  public int bindingsInFlight() {
    return bindingsInFlight.get();
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Connects the scheduler to the cluster (existing nodes and pods are replayed into the cache and
   * the queue) and starts the queue's periodic flushes on the timers (backoff every second,
   * unschedulable leftovers every 30 seconds). Idempotent.
   */
  public void start() {
    synchronized (lifecycle) {
      if (started) {
        return;
      }
      if (closed) {
        throw new IllegalStateException("scheduler is closed");
      }
      started = true;
      cluster.addListener(handlers);
      queue.run(timers);
    }
  }

  /**
   * Starts the scheduler and a thread that pops pods and schedules them until {@link #close()}
   * (kube's {@code Run}). Not for simulations: use {@link #runUntilIdle()} there.
   */
  public void startSchedulingLoop() {
    start();
    synchronized (lifecycle) {
      if (loopThread != null) {
        return;
      }
      loopThread = threadFactory.newThread(this::loop);
      loopThread.start();
    }
  }

  private void loop() {
    while (!closed) {
      QueuedPodInfo next;
      try {
        next = queue.pop();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (next == null) {
        return;
      }
      try {
        scheduleOne(next);
      } catch (RuntimeException e) {
        log.atError().setMessage("scheduling cycle failed").setCause(e).log();
      }
    }
  }

  /**
   * Stops the scheduling loop, the periodic flushes and the listener, closes the queue and shuts
   * down the executors the scheduler created itself (injected ones are left alone).
   */
  @Override
  public void close() {
    Thread t;
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
      t = loopThread;
      if (started) {
        cluster.removeListener(handlers);
      }
    }
    queue.close();
    if (t != null) {
      t.interrupt();
    }
    for (ExecutorService e : owned) {
      e.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- simulation driver

  /**
   * Pops the next pod of the active queue, if any, and runs its scheduling cycle; its binding cycle
   * is handed to the binding executor. Returns {@code false} when no pod was ready.
   *
   * <p>On a {@link SimulatedTime} the binding cycle runs when due tasks run ({@link
   * SimulatedTime#runDueTasks()}), which {@link #runUntilIdle()} does between cycles.
   */
  public boolean scheduleOne() {
    Optional<QueuedPodInfo> next = queue.tryPop();
    if (next.isEmpty()) {
      return false;
    }
    scheduleOne(next.get());
    return true;
  }

  /**
   * Schedules until nothing can make progress (for simulations and tests). Starts the scheduler if
   * needed.
   *
   * <p>It repeatedly runs due timer tasks (binding continuations, Permit timeouts, flushes) and
   * schedules the pods of the active queue; with real binding threads it waits for running
   * bindings. Without simulated time it returns as soon as nothing is ready and no binding is
   * running.
   *
   * <p>On a {@link SimulatedTime}, when nothing is ready it advances simulated time to the next
   * timer task, which lets backoffs expire, Permit timeouts fire and the queue's flushes move pods
   * (unschedulable pods are flushed after five minutes, as in kube-scheduler). Pods waiting at
   * Permit and one-shot timers of plugins always let time advance. A real scheduler would retry
   * failing pods forever; the run stops at a fixed point instead: it stops once, since the first
   * idle point after the last progress (a pod bound or an assigned pod deleted), the pending pods
   * (active, backoff, unschedulable; not gated) were attempted as many times as there are of them
   * without progress, i.e. each failing pod was retried once (after its backoff or the 5-minute
   * flush) and failed again. So a run ends with every pod bound or carrying its latest
   * FailedScheduling reason. Plugins can also make pods chase each other without time passing (a
   * gang whose members keep activating and rejecting each other): the run also stops, with a
   * warning, once more than {@value #LIVELOCK_MIN_ATTEMPTS} and more than {@value #LIVELOCK_FACTOR}
   * attempts per pod in play were made since the last progress.
   */
  public void runUntilIdle() {
    start();
    long roundProgress = -1;
    long roundAttempts = 0;
    long lastProgress = progress.get();
    long lastProgressAttempts = attempts.get();
    for (int steps = 0; !closed; steps++) {
      if (steps > MAX_IDLE_STEPS) {
        log.atWarn().setMessage("runUntilIdle stopped after too many steps").log();
        return;
      }
      if (progress.get() != lastProgress) {
        lastProgress = progress.get();
        lastProgressAttempts = attempts.get();
      }
      if (simulatedTime != null && simulatedTime.runDueTasks() > 0) {
        continue;
      }
      if (scheduleOne()) {
        long since = attempts.get() - lastProgressAttempts;
        if (since > LIVELOCK_MIN_ATTEMPTS && since > LIVELOCK_FACTOR * podsInPlay()) {
          log.atWarn()
              .setMessage("runUntilIdle stopped: pods keep being retried without progress")
              .addKeyValue("attempts", since)
              .log();
          settleBindings();
          return;
        }
        continue;
      }
      if (runningBindings() > 0) {
        awaitBindingCompletion();
        continue;
      }
      if (simulatedTime == null) {
        return;
      }
      if (bindingsWaitingOnPermit.get() > 0
          || waitingPods.size() > 0
          || simulatedTime.pendingOneShotTasks() > 0) {
        if (!simulatedTime.advanceToNextTask()) {
          return;
        }
        continue;
      }
      Map<String, Integer> sizes = queue.sizes();
      long pending =
          sizes.getOrDefault("active", 0)
              + sizes.getOrDefault("backoff", 0)
              + sizes.getOrDefault("unschedulable", 0);
      if (pending == 0) {
        return;
      }
      long p = progress.get();
      if (p != roundProgress) {
        // First idle point since the last progress: a retry round starts.
        roundProgress = p;
        roundAttempts = attempts.get();
      } else if (attempts.get() - roundAttempts >= pending) {
        return;
      }
      if (!simulatedTime.advanceToNextTask()) {
        return;
      }
    }
  }


  /**
   * Lets the binding cycles in flight finish without scheduling anything new: pods waiting at
   * Permit run into their timeouts (on simulated time), so none is left half-way.
   */
  private void settleBindings() {
    for (int steps = 0; steps < MAX_IDLE_STEPS && !closed && bindingsInFlight.get() > 0; steps++) {
      if (simulatedTime != null && simulatedTime.runDueTasks() > 0) {
        continue;
      }
      if (runningBindings() > 0) {
        awaitBindingCompletion();
      } else if (simulatedTime == null || !simulatedTime.advanceToNextTask()) {
        return;
      }
    }
  }

  /** Returns the pods the queue holds (not gated) plus those in their binding cycle. */
  private long podsInPlay() {
    Map<String, Integer> sizes = queue.sizes();
    return sizes.getOrDefault("active", 0)
        + sizes.getOrDefault("backoff", 0)
        + sizes.getOrDefault("unschedulable", 0)
        + bindingsInFlight.get();
  }

  private int runningBindings() {
    return bindingsInFlight.get() - bindingsWaitingOnPermit.get();
  }

  private void awaitBindingCompletion() {
    if (simulatedBinding) {
      // Binding continuations are simulated tasks; running due tasks makes them progress.
      if (simulatedTime.runDueTasks() == 0 && !simulatedTime.advanceToNextTask()) {
        log.atWarn().setMessage("binding in flight but no task can run").log();
      }
      return;
    }
    synchronized (bindingMonitor) {
      long seen = bindingCompletions;
      while (bindingCompletions == seen && runningBindings() > 0 && !closed) {
        try {
          bindingMonitor.wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  // ---------------------------------------------------------------- scheduleOne

  /** The outcome of a scheduling cycle. */
  private record CycleOutcome(
      ScheduleResult result, NominatingInfo nominatingInfo, PodInfo podInfo, Status status) {}

  private void scheduleOne(QueuedPodInfo qpi) {
    attempts.incrementAndGet();
    PodInfo podInfo = qpi.podInfo();
    Framework fwk = profiles.get(podInfo.schedulerName());
    if (fwk == null) {
      log.atError()
          .setMessage("profile not found for scheduler name")
          .addKeyValue("pod", podInfo.key())
          .addKeyValue("profile", podInfo.schedulerName())
          .log();
      queue.done(podInfo.uid());
      return;
    }
    if (skipPodSchedule(fwk, podInfo)) {
      queue.done(podInfo.uid());
      return;
    }
    try (MDC.MDCCloseable a = MDC.putCloseable("sched.pod", podInfo.key());
        MDC.MDCCloseable b = MDC.putCloseable("sched.profile", fwk.profileName())) {
      runSchedulingCycle(fwk, qpi, podInfo);
    }
  }

  private void runSchedulingCycle(Framework fwk, QueuedPodInfo qpi, PodInfo podInfo) {
    log.atDebug().setMessage("attempting to schedule pod").addKeyValue("pod", podInfo.key()).log();
    long start = System.nanoTime();
    CycleState state = Framework.newCycleState(random);
    PodsToActivate podsToActivate = new PodsToActivate();
    state.write(PodsToActivate.KEY, podsToActivate);

    CycleOutcome outcome;
    try {
      outcome = schedulingCycle(state, fwk, qpi, podsToActivate);
    } catch (RuntimeException e) {
      outcome = new CycleOutcome(null, NominatingInfo.override(""), podInfo, Status.error(e));
    }
    if (!outcome.status().isSuccess()) {
      handleSchedulingFailure(
          fwk, qpi, outcome.podInfo().pod(), outcome.status(), outcome.nominatingInfo(), start);
      reportPendingPods();
      return;
    }
    startBindingCycle(state, fwk, qpi, outcome.podInfo(), outcome.result(), podsToActivate, start);
    reportPendingPods();
  }

  private boolean skipPodSchedule(Framework fwk, PodInfo pod) {
    if (pod.isTerminating()) {
      fwk.eventRecorder()
          .event(
              pod.pod(),
              EventRecorder.WARNING,
              "FailedScheduling",
              "Scheduling",
              "skip schedule deleting pod: " + pod.namespace() + "/" + pod.name());
      return true;
    }
    return cache.isAssumedPod(pod.uid());
  }

  private CycleOutcome schedulingCycle(
      CycleState state, Framework fwk, QueuedPodInfo qpi, PodsToActivate podsToActivate) {
    PodInfo pod = qpi.podInfo();
    NominatingInfo clear = NominatingInfo.override("");
    ScheduleResult result;
    try {
      cache.updateSnapshot(snapshot);
      if (snapshot.numNodes() == 0) {
        return new CycleOutcome(
            null,
            clear,
            pod,
            new Status(
                Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                List.of(),
                new SchedulingException(NO_NODES_AVAILABLE),
                null));
      }
      result = algorithm.schedulePod(fwk, state, pod, snapshot);
      attemptListener.onAttempt(pod, snapshot.list(), result, null);
    } catch (FitError fitError) {
      if (!fwk.hasPostFilterPlugins()) {
        attemptListener.onAttempt(pod, snapshot.list(), null, fitError);
        return new CycleOutcome(null, clear, pod, unschedulable(fitError));
      }
      PostFilterResult pf;
      try {
        pf = fwk.runPostFilterPlugins(state, pod, fitError.diagnosis().nodeToStatus());
      } catch (RuntimeException e) {
        pf = PostFilterResult.of(Status.error(e));
      }
      String msg = pf.status().message();
      fitError.diagnosis().setPostFilterMsg(msg);
      attemptListener.onAttempt(pod, snapshot.list(), null, fitError);
      if (pf.status().code() == Status.Code.ERROR) {
        log.atWarn()
            .setMessage("PostFilter failed")
            .addKeyValue("pod", pod.key())
            .addKeyValue("status", msg)
            .log();
      }
      return new CycleOutcome(null, pf.nominatingInfo(), pod, unschedulable(fitError));
    } catch (RuntimeException e) {
      log.atWarn()
          .setMessage("error selecting node for pod")
          .addKeyValue("pod", pod.key())
          .setCause(e)
          .log();
      return new CycleOutcome(null, clear, pod, Status.error(e));
    }

    String host = result.suggestedHost();
    // A new revision sharing everything but the spec's node name (pods are never modified).
    V1Pod assumedPod = ObjectCopier.shallowCopy(pod.pod());
    assumedPod.setSpec(
        pod.pod().getSpec() == null
            ? new V1PodSpec()
            : ObjectCopier.shallowCopy(pod.pod().getSpec()));
    assumedPod.getSpec().setNodeName(host);
    PodInfo assumed = PodInfo.of(assumedPod);
    try {
      cache.assumePod(assumed);
    } catch (RuntimeException e) {
      log.atError().setMessage("cache assumePod failed").setCause(e).log();
      return new CycleOutcome(result, clear, assumed, Status.error(e));
    }
    queue.deleteNominatedPodIfExists(assumedPod);

    Status reserve = safely(() -> fwk.runReservePluginsReserve(state, assumed, host));
    if (!reserve.isSuccess()) {
      unreserveAndForget(fwk, state, assumed, host);
      return new CycleOutcome(result, clear, assumed, rejectedOnOneNode(pod, host, reserve));
    }
    Status permit = safely(() -> fwk.runPermitPlugins(state, assumed, host));
    if (!permit.isWait() && !permit.isSuccess()) {
      unreserveAndForget(fwk, state, assumed, host);
      return new CycleOutcome(result, clear, assumed, rejectedOnOneNode(pod, host, permit));
    }
    if (!podsToActivate.pods().isEmpty()) {
      queue.activate(new ArrayList<>(podsToActivate.pods().values()));
      podsToActivate.pods().clear();
    }
    return new CycleOutcome(result, NominatingInfo.noop(), assumed, Status.success());
  }

  /** Wraps a Reserve or Permit rejection in a FitError over the one node, as kube does. */
  private static Status rejectedOnOneNode(PodInfo pod, String host, Status status) {
    if (!status.isRejected()) {
      return status;
    }
    Diagnosis d = new Diagnosis();
    d.nodeToStatus().set(host, status);
    d.addPluginStatus(status);
    return new Status(status.code(), List.of(), new FitError(pod, 1, d), null);
  }

  private static Status unschedulable(FitError fitError) {
    return new Status(Status.Code.UNSCHEDULABLE, List.of(), fitError, null);
  }

  private boolean unreserveAndForget(
      Framework fwk, CycleState state, PodInfo assumed, String host) {
    try {
      fwk.runReservePluginsUnreserve(state, assumed, host);
    } catch (RuntimeException e) {
      log.atWarn()
          .setMessage("Unreserve failed")
          .addKeyValue("pod", assumed.key())
          .setCause(e)
          .log();
    }
    try {
      cache.forgetPod(assumed);
      return true;
    } catch (RuntimeException e) {
      log.atWarn()
          .setMessage("cache forgetPod failed")
          .addKeyValue("pod", assumed.key())
          .setCause(e)
          .log();
      return false;
    }
  }

  private static Status safely(Supplier<Status> call) {
    try {
      Status s = call.get();
      return s == null ? Status.success() : s;
    } catch (RuntimeException e) {
      return Status.error(e);
    }
  }

  // ---------------------------------------------------------------- binding cycle

  private void startBindingCycle(
      CycleState state,
      Framework fwk,
      QueuedPodInfo qpi,
      PodInfo assumed,
      ScheduleResult result,
      PodsToActivate podsToActivate,
      long start) {
    bindingsInFlight.incrementAndGet();
    CompletableFuture<Status> permit;
    try {
      permit = fwk.waitOnPermit(assumed);
    } catch (RuntimeException e) {
      permit = CompletableFuture.completedFuture(Status.error(e));
    }
    boolean waiting = !permit.isDone();
    if (waiting) {
      bindingsWaitingOnPermit.incrementAndGet();
    }
    permit.whenComplete(
        (status, error) -> {
          if (waiting) {
            bindingsWaitingOnPermit.decrementAndGet();
          }
          Status s =
              error != null ? Status.error(error) : status == null ? Status.success() : status;
          Runnable cycle =
              () -> bindingCycle(state, fwk, qpi, assumed, result, podsToActivate, start, s);
          try {
            bindingExecutor.execute(cycle);
          } catch (RejectedExecutionException e) {
            cycle.run();
          }
        });
  }

  private void bindingCycle(
      CycleState state,
      Framework fwk,
      QueuedPodInfo qpi,
      PodInfo assumed,
      ScheduleResult result,
      PodsToActivate podsToActivate,
      long start,
      Status permitStatus) {
    String host = result.suggestedHost();
    try {
      if (!permitStatus.isSuccess()) {
        Status s = permitStatus;
        if (s.isRejected()) {
          Diagnosis d = new Diagnosis();
          d.nodeToStatus().set(host, s);
          d.addUnschedulablePlugin(s.plugin() == null ? "" : s.plugin());
          s = new Status(s.code(), List.of(), new FitError(assumed, 1, d), null);
        }
        handleBindingCycleError(state, fwk, qpi, assumed, host, s, start);
        return;
      }
      // Failures after Permit are not event-requeueable: free the in-flight events now.
      queue.done(assumed.uid());
      Status preBind = safely(() -> fwk.runPreBindPlugins(state, assumed, host));
      if (!preBind.isSuccess()) {
        handleBindingCycleError(state, fwk, qpi, assumed, host, preBind, start);
        return;
      }
      Status bind = bind(fwk, state, assumed, host);
      if (!bind.isSuccess()) {
        handleBindingCycleError(state, fwk, qpi, assumed, host, bind, start);
        return;
      }
      log.atInfo()
          .setMessage("successfully bound pod to node")
          .addKeyValue("pod", assumed.key())
          .addKeyValue("node", host)
          .addKeyValue("evaluatedNodes", result.evaluatedNodes())
          .addKeyValue("feasibleNodes", result.feasibleNodes())
          .log();
      progress.incrementAndGet();
      metrics.scheduleAttempt("scheduled", fwk.profileName(), since(start));
      metrics.podSchedulingAttempts(qpi.attempts());
      try {
        fwk.runPostBindPlugins(state, assumed, host);
      } catch (RuntimeException e) {
        log.atWarn()
            .setMessage("PostBind failed")
            .addKeyValue("pod", assumed.key())
            .setCause(e)
            .log();
      }
      if (!podsToActivate.pods().isEmpty()) {
        queue.activate(new ArrayList<>(podsToActivate.pods().values()));
      }
    } catch (RuntimeException e) {
      log.atError()
          .setMessage("binding cycle failed")
          .addKeyValue("pod", assumed.key())
          .setCause(e)
          .log();
    } finally {
      bindingsInFlight.decrementAndGet();
      synchronized (bindingMonitor) {
        bindingCompletions++;
        bindingMonitor.notifyAll();
      }
    }
  }

  private Status bind(Framework fwk, CycleState state, PodInfo assumed, String host) {
    Status byExtender = extendersBinding(fwk, assumed, host);
    Status status =
        byExtender != null ? byExtender : safely(() -> fwk.runBindPlugins(state, assumed, host));
    try {
      cache.finishBinding(assumed);
    } catch (RuntimeException e) {
      log.atWarn()
          .setMessage("cache finishBinding failed")
          .addKeyValue("pod", assumed.key())
          .setCause(e)
          .log();
    }
    if (status.isSuccess()) {
      fwk.eventRecorder()
          .event(
              assumed.pod(),
              EventRecorder.NORMAL,
              "Scheduled",
              "Binding",
              "Successfully assigned "
                  + assumed.namespace()
                  + "/"
                  + assumed.name()
                  + " to "
                  + host);
    } else {
      log.atInfo().setMessage("failed to bind pod").addKeyValue("pod", assumed.key()).log();
    }
    return status;
  }

  /**
   * Lets the first interested binder extender bind the pod (kube's {@code extendersBinding}); an
   * ignorable extender's error passes on to the next one.
   *
   * @return the binding status, or {@code null} when no extender bound (the Bind plugins do)
   */
  private static Status extendersBinding(Framework fwk, PodInfo assumed, String host) {
    for (SchedulerExtender e : fwk.extenders()) {
      if (!e.isBinder() || !e.isInterested(assumed)) {
        continue;
      }
      try {
        e.bind(assumed, host);
        return Status.success();
      } catch (RuntimeException ex) {
        if (e.isIgnorable()) {
          log.atInfo()
              .setMessage(
                  "skipping extender in bind as it returned error and has ignorable flag set")
              .addKeyValue("pod", assumed.key())
              .addKeyValue("extender", e.name())
              .addKeyValue("err", ex.getMessage())
              .log();
          continue;
        }
        return Status.error(ex);
      }
    }
    return null;
  }

  private void handleBindingCycleError(
      CycleState state,
      Framework fwk,
      QueuedPodInfo qpi,
      PodInfo assumed,
      String host,
      Status status,
      long start) {
    boolean forgotten = unreserveAndForget(fwk, state, assumed, host);
    Runnable deferred = null;
    if (forgotten) {
      // The assumed pod's resources are free again: like an assigned pod deletion. When it was
      // rejected, move the others after its own failure handling, excluding it.
      if (status.isRejected()) {
        String uid = assumed.uid();
        deferred =
            () ->
                queue.moveAllToActiveOrBackoffQueue(
                    ClusterEvents.ASSIGNED_POD_DELETE,
                    assumed.pod(),
                    null,
                    p -> !uid.equals(uid(p)));
      } else {
        queue.moveAllToActiveOrBackoffQueue(
            ClusterEvents.ASSIGNED_POD_DELETE, assumed.pod(), null, null);
      }
    }
    handleSchedulingFailure(fwk, qpi, assumed.pod(), status, NominatingInfo.override(""), start);
    if (deferred != null) {
      deferred.run();
    }
  }

  // ---------------------------------------------------------------- failure handling

  /**
   * Records a failed attempt (kube's {@code handleSchedulingFailure}): requeues the pod as
   * unschedulable (or with backoff), updates its nomination, emits a {@code FailedScheduling} event
   * and patches {@code PodScheduled=False}.
   */
  private void handleSchedulingFailure(
      Framework fwk,
      QueuedPodInfo qpi,
      V1Pod pod,
      Status status,
      NominatingInfo nominatingInfo,
      long start) {
    NominatingInfo ni = nominatingInfo == null ? NominatingInfo.noop() : nominatingInfo;
    String uid = qpi.podInfo().uid();
    boolean calledDone = false;
    try {
      boolean rejected = status.isRejected();
      String reason = rejected ? REASON_UNSCHEDULABLE : REASON_SCHEDULER_ERROR;
      metrics.scheduleAttempt(
          rejected ? "unschedulable" : "error", fwk.profileName(), since(start));
      String errMsg = status.message();
      if (status.cause() instanceof FitError fitError) {
        EngineAccess.mutableUnschedulablePlugins(qpi).clear();
        EngineAccess.mutableUnschedulablePlugins(qpi)
            .addAll(fitError.diagnosis().unschedulablePlugins());
        EngineAccess.mutablePendingPlugins(qpi).clear();
        EngineAccess.mutablePendingPlugins(qpi).addAll(fitError.diagnosis().pendingPlugins());
        log.atDebug()
            .setMessage("unable to schedule pod; no fit; waiting")
            .addKeyValue("pod", qpi.podInfo().key())
            .addKeyValue("err", errMsg)
            .log();
      } else if (!NO_NODES_AVAILABLE.equals(errMsg)) {
        log.atWarn()
            .setMessage("error scheduling pod; retrying")
            .addKeyValue("pod", qpi.podInfo().key())
            .addKeyValue("err", errMsg)
            .log();
      }
      Optional<V1Pod> cached =
          cluster.getPod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
      if (cached.isEmpty()) {
        log.atInfo()
            .setMessage("pod doesn't exist in informer cache")
            .addKeyValue("pod", qpi.podInfo().key())
            .log();
      } else if (!isEmpty(nodeName(cached.get()))) {
        log.atInfo()
            .setMessage("pod has been assigned to node; abort adding it back to queue")
            .addKeyValue("pod", qpi.podInfo().key())
            .addKeyValue("node", nodeName(cached.get()))
            .log();
      } else {
        EngineAccess.setPodInfo(qpi, PodInfo.of(cached.get()));
        queue.addUnschedulableIfNotPresent(qpi, queue.schedulingCycle());
        calledDone = true;
      }
      queue.addNominatedPod(qpi.podInfo(), ni);
      fwk.eventRecorder()
          .event(
              pod,
              EventRecorder.WARNING,
              "FailedScheduling",
              "Scheduling",
              truncateMessage(errMsg));
      cluster.patchPodScheduledCondition(
          pod, reason, errMsg, ni.mode() == NominatingInfo.Mode.OVERRIDE ? ni.nodeName() : null);
    } catch (RuntimeException e) {
      log.atError()
          .setMessage("failure handling failed")
          .addKeyValue("pod", qpi.podInfo().key())
          .setCause(e)
          .log();
    } finally {
      if (!calledDone) {
        queue.done(uid);
      }
    }
  }

  /** Truncates {@code message} to kube's event note limit (1024 bytes), ending with " ...". */
  static String truncateMessage(String message) {
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= NOTE_LENGTH_LIMIT) {
      return message;
    }
    String suffix = " ...";
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.IGNORE)
            .onUnmappableCharacter(CodingErrorAction.IGNORE);
    CharBuffer out = CharBuffer.allocate(NOTE_LENGTH_LIMIT);
    decoder.decode(ByteBuffer.wrap(bytes, 0, NOTE_LENGTH_LIMIT - suffix.length()), out, true);
    out.flip();
    return out + suffix;
  }

  private void reportPendingPods() {
    Map<String, Integer> sizes = queue.sizes();
    for (String q : List.of("active", "backoff", "unschedulable", "gated")) {
      metrics.pendingPods(q, sizes.getOrDefault(q, 0));
    }
  }

  private static Duration since(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  // ---------------------------------------------------------------- event handlers

  private boolean responsibleForPod(V1Pod pod) {
    String name = pod.getSpec() == null ? null : pod.getSpec().getSchedulerName();
    return profiles.containsKey(isEmpty(name) ? DEFAULT_SCHEDULER_NAME : name);
  }

  /** Returns the pod's UID as {@link PodInfo#uid()} does (the key when the UID is unset). */
  private static String uid(V1Pod pod) {
    String uid = pod.getMetadata().getUid();
    return isEmpty(uid)
        ? pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
        : uid;
  }

  private static boolean assigned(V1Pod pod) {
    return !isEmpty(nodeName(pod));
  }

  private static boolean terminal(V1Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static int priority(V1Pod pod) {
    Integer p = pod.getSpec() == null ? null : pod.getSpec().getPriority();
    return p == null ? 0 : p;
  }

  private static Predicate<V1Pod> lowerOrEqualPriority(int priority) {
    return p -> priority(p) <= priority;
  }

  private static String nodeName(V1Pod pod) {
    return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }

  private static String nominatedNodeName(V1Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
  }

  /**
   * The informer event handlers: assigned pods go to the cache, unassigned pods of our profiles to
   * the queue, nodes to the cache; each change moves unschedulable pods with its cluster event.
   * Terminal pods are invisible, as with kube-scheduler's pod informer field selector.
   */
  private final class EventHandlers implements ClusterListener {
    @Override
    public void onNodeAdd(V1Node node) {
      cache.addNode(node);
      queue.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, node, null);
    }

    @Override
    public void onNodeUpdate(V1Node oldNode, V1Node node) {
      cache.updateNode(oldNode, node);
      for (ClusterEvent evt : ClusterEvents.nodeSchedulingPropertiesChange(node, oldNode)) {
        queue.moveAllToActiveOrBackoffQueue(evt, oldNode, node, null);
      }
    }

    @Override
    public void onNodeDelete(V1Node node) {
      queue.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_DELETE, node, null, null);
      cache.removeNode(node);
    }

    @Override
    public void onPodAdd(V1Pod pod) {
      if (terminal(pod)) {
        return;
      }
      if (assigned(pod)) {
        addPodToCache(pod);
      } else if (responsibleForPod(pod)) {
        queue.add(pod);
      }
    }

    @Override
    public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
      boolean oldVisible = !terminal(oldPod);
      boolean newVisible = !terminal(pod);
      // The assigned-pod handler (registered first in kube) ...
      boolean oldAssigned = oldVisible && assigned(oldPod);
      boolean newAssigned = newVisible && assigned(pod);
      if (oldAssigned && newAssigned) {
        updatePodInCache(oldPod, pod);
      } else if (newAssigned) {
        addPodToCache(pod);
      } else if (oldAssigned) {
        deletePodFromCache(oldPod);
      }
      // ... then the unscheduled-pod handler.
      boolean oldQueued = oldVisible && !assigned(oldPod) && responsibleForPod(oldPod);
      boolean newQueued = newVisible && !assigned(pod) && responsibleForPod(pod);
      if (oldQueued && newQueued) {
        updatePodInSchedulingQueue(oldPod, pod);
      } else if (oldQueued) {
        deletePodFromSchedulingQueue(oldPod);
      } else if (newQueued) {
        queue.add(pod);
      }
    }

    @Override
    public void onPodDelete(V1Pod pod) {
      if (terminal(pod)) {
        return;
      }
      if (assigned(pod)) {
        deletePodFromCache(pod);
      } else if (responsibleForPod(pod)) {
        deletePodFromSchedulingQueue(pod);
      }
    }

    private void addPodToCache(V1Pod pod) {
      try {
        cache.addPod(pod);
      } catch (RuntimeException e) {
        log.atError()
            .setMessage("cache addPod failed")
            .addKeyValue("pod", key(pod))
            .setCause(e)
            .log();
      }
      queue.moveAllToActiveOrBackoffQueue(ClusterEvents.ASSIGNED_POD_ADD, null, pod, null);
    }

    private void updatePodInCache(V1Pod oldPod, V1Pod pod) {
      try {
        cache.updatePod(oldPod, pod);
      } catch (RuntimeException e) {
        log.atError()
            .setMessage("cache updatePod failed")
            .addKeyValue("pod", key(pod))
            .setCause(e)
            .log();
      }
      for (ClusterEvent evt : ClusterEvents.podSchedulingPropertiesChange(pod, oldPod)) {
        queue.moveAllToActiveOrBackoffQueue(evt, oldPod, pod, null);
      }
    }

    private void deletePodFromCache(V1Pod pod) {
      try {
        cache.removePod(pod);
      } catch (RuntimeException e) {
        log.atError()
            .setMessage("cache removePod failed")
            .addKeyValue("pod", key(pod))
            .setCause(e)
            .log();
      }
      progress.incrementAndGet();
      queue.moveAllToActiveOrBackoffQueue(ClusterEvents.ASSIGNED_POD_DELETE, pod, null, null);
    }

    private void updatePodInSchedulingQueue(V1Pod oldPod, V1Pod pod) {
      if (Objects.equals(
          oldPod.getMetadata().getResourceVersion(), pod.getMetadata().getResourceVersion())) {
        return;
      }
      if (cache.isAssumedPod(uid(pod))) {
        return;
      }
      queue.update(oldPod, pod);
      String oldNominated = nominatedNodeName(oldPod);
      if (!isEmpty(oldNominated) && !oldNominated.equals(nominatedNodeName(pod))) {
        queue.moveAllToActiveOrBackoffQueue(
            ClusterEvents.ASSIGNED_POD_DELETE,
            oldPod,
            null,
            lowerOrEqualPriority(priority(oldPod)));
      }
    }

    private void deletePodFromSchedulingQueue(V1Pod pod) {
      queue.delete(pod);
      if (waitingPods.reject(uid(pod), "", "removed")) {
        queue.moveAllToActiveOrBackoffQueue(ClusterEvents.ASSIGNED_POD_DELETE, pod, null, null);
      } else if (!isEmpty(nominatedNodeName(pod))) {
        queue.moveAllToActiveOrBackoffQueue(
            ClusterEvents.ASSIGNED_POD_DELETE, pod, null, lowerOrEqualPriority(priority(pod)));
      }
    }

    private String key(V1Pod pod) {
      return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  // ---------------------------------------------------------------- builder

  /**
   * Builds a {@link Scheduler}. The cluster is required; everything else has a default (the plugins
   * found by {@link PluginRegistry#discover()} and the default configuration).
   */
  public static final class Builder {
    private Cluster cluster;
    private KubeSchedulerConfiguration configuration;
    private PluginRegistry registry;
    private Clock clock;
    private ScheduledExecutorService timers;
    private Executor bindingExecutor;
    private ExecutorService workers;
    private Random random;
    private SchedulerMetrics metrics;
    private SimulatedTime simulatedTime;
    private SchedulingAttemptListener attemptListener;
    private ThreadFactory threadFactory;
    private List<SchedulerExtender> extenders = List.of();
    private io.kubesched.framework.FeatureGates featureGates;

    private Builder() {}

    /** Sets the feature gates the plugins read; default {@code FeatureGates.defaults()}. */
    public Builder featureGates(io.kubesched.framework.FeatureGates featureGates) {
      this.featureGates = featureGates;
      return this;
    }

    /**
     * Sets extra extenders shared by all profiles (filter after the Filter plugins, prioritize next
     * to the Score plugins, bind before the Bind plugins, narrow preemption candidates), in order;
     * default none. They come after the {@link HttpExtender}s built from the configuration's
     * {@code extenders}.
     */
    public Builder extenders(List<? extends SchedulerExtender> extenders) {
      this.extenders = List.copyOf(extenders);
      return this;
    }

    /** Sets the cluster to watch and write to (required). */
    public Builder cluster(Cluster cluster) {
      this.cluster = cluster;
      return this;
    }

    /**
     * Sets the configuration: profiles, backoff, parallelism, percentages; default {@link
     * ConfigurationLoader#defaults(PluginRegistry)}.
     */
    public Builder configuration(KubeSchedulerConfiguration configuration) {
      this.configuration = configuration;
      return this;
    }

    /**
     * Sets the plugin registry the profiles' plugins come from; default the plugins on the class
     * path ({@link PluginRegistry#discover()}).
     */
    public Builder registry(PluginRegistry registry) {
      this.registry = registry;
      return this;
    }

    /** Sets the clock; default the simulated time's clock, else the system UTC clock. */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /**
     * Sets the executor of timers (Permit timeouts, queue flushes); default the simulated time's
     * scheduler, else a daemon thread the scheduler owns.
     */
    public Builder timers(ScheduledExecutorService timers) {
      this.timers = timers;
      return this;
    }

    /**
     * Sets the executor of binding cycles; default the simulated time's scheduler (bindings run
     * deterministically on the thread advancing time), else a cached pool the scheduler owns.
     */
    public Builder bindingExecutor(Executor bindingExecutor) {
      this.bindingExecutor = bindingExecutor;
      return this;
    }

    /**
     * Sets the worker pool for parallel Filter and Score, used with the configured parallelism;
     * default none: the scheduling thread does the work itself.
     */
    public Builder workers(ExecutorService workers) {
      this.workers = workers;
      return this;
    }

    /** Sets the random source (node tie-breaks, metric sampling); default seed 0. */
    public Builder random(Random random) {
      this.random = random;
      return this;
    }

    /** Sets the metrics sink; default no-op. */
    public Builder metrics(SchedulerMetrics metrics) {
      this.metrics = metrics;
      return this;
    }

    /** Sets the observer of every attempt's node selection (explain tooling); default none. */
    public Builder attemptListener(SchedulingAttemptListener listener) {
      this.attemptListener = listener;
      return this;
    }

    /**
     * Runs the scheduler on simulated time: its clock, and its scheduler for timers and binding
     * cycles unless set explicitly; enables {@link Scheduler#runUntilIdle()}'s time advances.
     */
    public Builder simulatedTime(SimulatedTime simulatedTime) {
      this.simulatedTime = simulatedTime;
      return this;
    }

    /** Sets the factory of the scheduling-loop thread; default a daemon thread. */
    public Builder threadFactory(ThreadFactory threadFactory) {
      this.threadFactory = threadFactory;
      return this;
    }

    /**
     * Builds the scheduler: one framework per profile, the cache and the queue.
     *
     * @throws IllegalArgumentException when a profile is invalid, two profiles share a scheduler
     *     name or use different QueueSort plugins
     * @throws NullPointerException when the cluster is missing
     */
    public Scheduler build() {
      return new Scheduler(this);
    }
  }
}
