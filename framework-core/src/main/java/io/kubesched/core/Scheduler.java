package io.kubesched.core;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubesched.core.cache.SchedulerCache;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.cluster.Cluster;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.core.cluster.ObjectCopier;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.extender.HttpExtender;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.core.queue.QueueSizes;
import io.kubesched.core.queue.SchedulingQueue;
import io.kubesched.core.runtime.Diagnosis;
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
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodNominator;
import io.kubesched.framework.PodsToActivate;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.SchedulerConstants;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * {@code Scheduler} is the scheduling engine: it watches a {@link Cluster}, keeps the cache and the
 * scheduling queue up to date, and runs kube-scheduler's scheduling cycle for one pod at a time and
 * the binding cycles asynchronously (kube's {@code scheduler.go} and {@code schedule_one.go}). It
 * keeps the lifecycle and the scheduling cycle; package-private collaborators handle the cluster
 * events, the binding cycle, failed attempts and {@link #runUntilIdle()}'s stopping rules.
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

  /** The message of the error when the cluster has no node. */
  static final String NO_NODES_AVAILABLE = "no nodes available to schedule pods";

  /** The reason of a PodScheduled=False condition when the pod does not fit. */
  public static final String REASON_UNSCHEDULABLE = "Unschedulable";

  /** The reason of a PodScheduled=False condition on an internal error. */
  public static final String REASON_SCHEDULER_ERROR = "SchedulerError";

  private final Cluster cluster;
  private final Clock clock;
  private final ScheduledExecutorService timers;
  private final Random random;
  private final SchedulerMetrics metrics;
  private final SchedulingAttemptListener attemptListener;
  private final ThreadFactory threadFactory;
  private final ClockAndExecutors executors;
  private final SchedulingAlgorithm algorithm;
  private final SchedulerCache cache;
  private final SchedulingQueue queue;
  private final WaitingPods waitingPods;
  private final Map<String, Framework> profiles;
  private final Snapshot snapshot = Snapshot.empty();
  private final ClusterListener handlers;
  private final SchedulingFailureHandler failures;
  private final BindingCycle bindings;
  private final SimulationDriver driver;

  /** For the driver: pods bound plus assigned pods deleted (what lets pending pods fit). */
  private final AtomicLong progress = new AtomicLong();

  /** For the driver: scheduling cycles run. */
  private final AtomicLong attempts = new AtomicLong();

  private final Object lifecycle = new Object();
  private boolean started;
  private volatile boolean closed;
  private Thread loopThread;

  private Scheduler(Builder b) {
    this.cluster = Objects.requireNonNull(b.cluster, "cluster must not be null");
    PluginRegistry registry = b.registry != null ? b.registry : PluginRegistry.discover();
    KubeSchedulerConfiguration config =
        b.configuration != null
            ? b.configuration
            : ConfigurationLoader.defaults(registry, b.featureGates);
    if (config.profiles().isEmpty()) {
      throw new IllegalArgumentException("profiles: Required value: at least one profile");
    }
    List<SchedulerExtender> extenders = Profiles.extenders(config, b.extenders);
    this.executors =
        ClockAndExecutors.resolve(b.clock, b.timers, b.bindingExecutor, b.simulatedTime);
    this.clock = executors.clock();
    this.timers = executors.timers();
    this.random = b.random != null ? b.random : new SchedulingRandom(0);
    this.attemptListener =
        b.attemptListener != null ? b.attemptListener : SchedulingAttemptListener.NONE;
    this.metrics = b.metrics != null ? b.metrics : SchedulerMetrics.NOOP;
    this.threadFactory =
        b.threadFactory != null ? b.threadFactory : ClockAndExecutors.daemon("kubesched-scheduler");
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
            new PodNominator() {
              @Override
              public List<PodInfo> nominatedPodsForNode(String node) {
                return holder.queue == null ? List.of() : holder.queue.nominatedPodsForNode(node);
              }

              @Override
              public Map<String, List<PodInfo>> nominatedPodsByNode() {
                return holder.queue == null ? Map.of() : holder.queue.nominatedPodsByNode();
              }
            },
            () -> snapshot,
            waitingPods,
            pods -> {
              if (holder.queue != null) {
                holder.queue.activate(pods);
              }
            },
            metrics,
            b.featureGates);
    try {
      this.profiles =
          Profiles.frameworks(config, registry, ctx, extenders, cluster::eventRecorderFor);
    } catch (RuntimeException e) {
      executors.shutdownOwned();
      throw e;
    }
    this.queue =
        new SchedulingQueue(
            clock,
            profiles.values().iterator().next().queueSortPlugin(),
            Profiles.queueProfiles(profiles),
            Objects.requireNonNullElse(
                config.podInitialBackoff(), SchedulingQueue.DEFAULT_INITIAL_BACKOFF),
            Objects.requireNonNullElse(config.podMaxBackoff(), SchedulingQueue.DEFAULT_MAX_BACKOFF),
            SchedulingQueue.DEFAULT_MAX_IN_UNSCHEDULABLE);
    holder.queue = queue;
    this.handlers =
        new ClusterEventHandlers(
            cache,
            queue,
            waitingPods,
            this::responsibleForPod,
            progress::incrementAndGet,
            registry.customResources(config));
    this.failures = new SchedulingFailureHandler(cluster, cache, queue, metrics);
    this.bindings =
        new BindingCycle(
            executors.bindingExecutor(),
            cache,
            queue,
            metrics,
            failures,
            progress::incrementAndGet);
    this.driver =
        new SimulationDriver(
            this, b.simulatedTime, executors.simulatedBinding(), bindings, waitingPods, queue);
  }

  /** Late-bound reference: the frameworks are built before the queue that orders by them. */
  private static final class QueueHolder {
    volatile SchedulingQueue queue;
  }

  /** Returns a new builder. */
  public static Builder builder() {
    return new Builder();
  }

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
    return bindings.inFlight();
  }

  /** Returns the progress count: pods bound plus assigned pods deleted. */
  long progressCount() {
    return progress.get();
  }

  /** Returns the number of scheduling cycles run. */
  long attemptCount() {
    return attempts.get();
  }

  /** Returns whether {@link #close()} was called. */
  boolean isClosed() {
    return closed;
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
   *
   * <p>The loop hands the binding cycles whose Permit has already decided to the binding executor
   * in groups: at 32, once the first has waited 1 ms (checked after each scheduling cycle), and
   * always before it waits for more pods; with the queue empty it spins up to 50 µs before it
   * parks. Where pods go does not depend on it (assumed pods count either way).
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
    bindings.holdHandOffsOf(Thread.currentThread());
    try {
      while (!closed) {
        QueuedPodInfo next = queue.tryPop().orElse(null);
        if (next == null) {
          bindings.releaseHeld(true);
          awaitReadyBriefly();
          try {
            next = queue.pop();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
        if (next == null) {
          return;
        }
        try {
          scheduleOne(next);
        } catch (RuntimeException e) {
          log.atError().setMessage("scheduling cycle failed").setCause(e).log();
        }
        bindings.releaseHeld(false);
      }
    } finally {
      bindings.releaseHeld(true);
    }
  }

  /**
   * Spins for up to {@link #SPIN_NANOS} until the queue has a pod, so that a stream of additions a
   * little slower than the loop does not cost a thread wake-up per pod (each one a system call, and
   * on virtual machines an interrupt between CPUs).
   */
  private void awaitReadyBriefly() {
    long deadline = System.nanoTime() + SPIN_NANOS;
    while (!queue.hasReadyPods() && !closed && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
  }

  private static final long SPIN_NANOS = 50_000L;

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
    executors.shutdownOwned();
  }

  // ---------------------------------------------------------------- stepping (simulations, tests)

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
   * <p>It repeatedly runs due timer tasks and schedules the pods of the active queue, waiting for
   * running bindings. Without simulated time it returns as soon as nothing is ready and no binding
   * is running. On a {@link SimulatedTime}, when nothing is ready it advances time to the next
   * timer task (backoffs, Permit timeouts, the queue's flushes). It stops at a fixed point: once
   * every pending pod was retried without progress since the last pod was bound or an assigned pod
   * deleted; pods retried without progress without time passing (a livelock between plugins) are
   * parked so that the pods they starve get their attempts; docs/simulator.md states the rules.
   */
  public void runUntilIdle() {
    driver.runUntilIdle();
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
    CycleState state = Framework.newCycleState(random, metrics.recordsPluginExecutionDuration());
    PodsToActivate podsToActivate = new PodsToActivate();
    state.write(PodsToActivate.KEY, podsToActivate);

    CycleOutcome outcome;
    try {
      outcome = schedulingCycle(state, fwk, qpi, podsToActivate);
    } catch (RuntimeException e) {
      outcome = new CycleOutcome(null, NominatingInfo.override(""), podInfo, Status.error(e));
    }
    if (!outcome.status().isSuccess()) {
      failures.handle(
          fwk, qpi, outcome.podInfo().pod(), outcome.status(), outcome.nominatingInfo(), start);
      reportPendingPods();
      return;
    }
    bindings.start(state, fwk, qpi, outcome.podInfo(), outcome.result(), podsToActivate, start);
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
      result = algorithm.schedulePod(fwk, state, pod, snapshot, snapshot, queue.hasNominatedPods());
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
    PodInfo assumed = pod.withNodeName(assumedPod);
    try {
      cache.assumePod(assumed);
    } catch (RuntimeException e) {
      log.atError().setMessage("cache assumePod failed").setCause(e).log();
      return new CycleOutcome(result, clear, assumed, Status.error(e));
    }
    queue.deleteNominatedPodIfExists(assumedPod);

    Status reserve = safely(Framework::runReservePluginsReserve, fwk, state, assumed, host);
    if (!reserve.isSuccess()) {
      failures.unreserveAndForget(fwk, state, assumed, host);
      return new CycleOutcome(result, clear, assumed, rejectedOnOneNode(pod, host, reserve));
    }
    Status permit = safely(Framework::runPermitPlugins, fwk, state, assumed, host);
    if (!permit.isWait() && !permit.isSuccess()) {
      failures.unreserveAndForget(fwk, state, assumed, host);
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

  /** Runs a plugin call; a null status is success, an exception an error status. */
  static Status safely(Supplier<Status> call) {
    try {
      Status s = call.get();
      return s == null ? Status.success() : s;
    } catch (RuntimeException e) {
      return Status.error(e);
    }
  }

  /** A framework runner of one pod on one node, e.g. {@code Framework::runPermitPlugins}. */
  @FunctionalInterface
  interface PodOnNodeCall {
    Status call(Framework fwk, CycleState state, PodInfo pod, String node);
  }

  /**
   * Runs {@code call} as {@link #safely(Supplier)} does. The arguments are passed rather than
   * captured: the per-pod calls then make no lambda (a capturing lambda is made through method
   * handles until the JIT's top tier has compiled the caller).
   */
  static Status safely(
      PodOnNodeCall call, Framework fwk, CycleState state, PodInfo pod, String node) {
    try {
      Status s = call.call(fwk, state, pod, node);
      return s == null ? Status.success() : s;
    } catch (RuntimeException e) {
      return Status.error(e);
    }
  }

  private void reportPendingPods() {
    QueueSizes sizes = queue.sizes();
    metrics.pendingPods("active", sizes.active());
    metrics.pendingPods("backoff", sizes.backoff());
    metrics.pendingPods("unschedulable", sizes.unschedulable());
    metrics.pendingPods("gated", sizes.gated());
  }

  private boolean responsibleForPod(V1Pod pod) {
    String name = pod.getSpec() == null ? null : pod.getSpec().getSchedulerName();
    return profiles.containsKey(
        Pods.isEmpty(name) ? SchedulerConstants.DEFAULT_SCHEDULER_NAME : name);
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
    private FeatureGates featureGates = FeatureGates.defaults();

    private Builder() {}

    /** Sets the feature gates the plugins read; default {@code FeatureGates.defaults()}. */
    public Builder featureGates(FeatureGates featureGates) {
      this.featureGates = featureGates == null ? FeatureGates.defaults() : featureGates;
      return this;
    }

    /**
     * Sets extra extenders shared by all profiles (filter after the Filter plugins, prioritize next
     * to the Score plugins, bind before the Bind plugins, narrow preemption candidates), in order;
     * default none. They come after the {@link HttpExtender}s built from the configuration's {@code
     * extenders}.
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
     * deterministically on the thread advancing time), else a cached pool the scheduler owns. The
     * scheduling loop hands it cycles in groups, a task running several cycles in order; while
     * cycles wait, another task is queued, so an executor with several threads binds them in
     * parallel. An executor that rejects a task has its cycles run on the thread handing it over.
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
