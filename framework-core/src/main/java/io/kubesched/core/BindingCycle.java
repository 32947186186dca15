package io.kubesched.core;

import io.kubesched.core.cache.SchedulerCache;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.core.queue.ClusterEvents;
import io.kubesched.core.queue.SchedulingQueue;
import io.kubesched.core.runtime.Diagnosis;
import io.kubesched.core.runtime.FitError;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.ScheduleResult;
import io.kubesched.core.runtime.SchedulerExtender;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodsToActivate;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The binding cycle (kube's {@code bindingCycle}, {@code bind}, {@code extendersBinding} and {@code
 * handleBindingCycleError}): once Permit allows an assumed pod, runs PreBind, the binder extenders
 * or the Bind plugins and PostBind on the binding executor; on failure rolls the assumption back
 * and hands the pod to the {@link SchedulingFailureHandler}.
 *
 * <p>It counts the cycles in flight (started, not finished, including Permit waits) so callers can
 * wait for them; the counters are thread-safe.
 */
final class BindingCycle {
  private static final Logger log = LoggerFactory.getLogger(BindingCycle.class);

  private final Executor bindingExecutor;
  private final SchedulerCache cache;
  private final SchedulingQueue queue;
  private final SchedulerMetrics metrics;
  private final SchedulingFailureHandler failures;
  private final Runnable onBound;

  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger waitingOnPermit = new AtomicInteger();
  private final Object monitor = new Object();
  private long completions;

  /** The scheduling loop's thread, whose allowed cycles are held ({@link #holdHandOffsOf}). */
  private volatile Thread loopThread;

  /** The cycles the loop's thread holds back; only that thread touches it. */
  private final HeldHandOffs held;

  /**
   * Creates the binding cycle.
   *
   * @param bindingExecutor runs the cycles once Permit decided, the loop's in groups (see {@link
   *     HeldHandOffs}); inline when it rejects the task
   * @param onBound called after a pod was bound (progress for the simulation driver)
   */
  BindingCycle(
      Executor bindingExecutor,
      SchedulerCache cache,
      SchedulingQueue queue,
      SchedulerMetrics metrics,
      SchedulingFailureHandler failures,
      Runnable onBound) {
    this.bindingExecutor = bindingExecutor;
    this.cache = cache;
    this.queue = queue;
    this.metrics = metrics;
    this.failures = failures;
    this.onBound = onBound;
    this.held = new HeldHandOffs(bindingExecutor, System::nanoTime);
  }

  /** Returns the number of cycles started and not finished, including those waiting on Permit. */
  int inFlight() {
    return inFlight.get();
  }

  /** Returns the number of cycles waiting for Permit to allow (or reject) their pod. */
  int waitingOnPermit() {
    return waitingOnPermit.get();
  }

  /** Returns the number of cycles past Permit and not finished. */
  int running() {
    return inFlight.get() - waitingOnPermit.get();
  }

  /**
   * Waits until a running cycle finishes, none is running, {@code stop} holds or the thread is
   * interrupted (for real binding threads; simulated ones run as simulated tasks instead).
   */
  void awaitCompletion(BooleanSupplier stop) {
    synchronized (monitor) {
      long seen = completions;
      while (completions == seen && running() > 0 && !stop.getAsBoolean()) {
        try {
          monitor.wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /**
   * Starts the binding cycle of a pod the scheduling cycle assumed on {@code result}'s host: when
   * the pod's Permit wait ends, the cycle runs on the binding executor.
   *
   * @param startNanos the attempt's start ({@link System#nanoTime()}), for the attempt metric
   */
  void start(
      CycleState state,
      Framework fwk,
      QueuedPodInfo qpi,
      PodInfo assumed,
      ScheduleResult result,
      PodsToActivate podsToActivate,
      long startNanos) {
    inFlight.incrementAndGet();
    CompletableFuture<Status> permit;
    try {
      permit = fwk.waitOnPermit(assumed);
    } catch (RuntimeException e) {
      permit = CompletableFuture.completedFuture(Status.error(e));
    }
    boolean waiting = !permit.isDone();
    if (waiting) {
      waitingOnPermit.incrementAndGet();
    }
    if (permit.isDone() && Thread.currentThread() == loopThread) {
      // a completed future runs handle's function at once, on this thread
      Status allowed = permit.handle(BindingCycle::permitOutcome).join();
      held.hold(
          new HeldCycle(
              this, state, fwk, qpi, assumed, result, podsToActivate, startNanos, allowed));
      return;
    }
    permit.whenComplete(
        (status, error) -> {
          if (waiting) {
            waitingOnPermit.decrementAndGet();
          }
          Status s = permitOutcome(status, error);
          Runnable cycle =
              () -> run(state, fwk, qpi, assumed, result, podsToActivate, startNanos, s);
          try {
            bindingExecutor.execute(cycle);
          } catch (RejectedExecutionException e) {
            cycle.run();
          }
        });
  }

  /** The outcome of a Permit wait that has ended, as the cycle reads it. */
  private static Status permitOutcome(Status status, Throwable error) {
    return error != null ? Status.error(error) : status == null ? Status.success() : status;
  }

  /**
   * Makes {@code thread} (the scheduling loop's) hold the cycles it starts whose Permit has already
   * allowed or rejected them, until it calls {@link #releaseHeld}; cycles that wait on Permit, and
   * those other threads start, are handed to the executor as before.
   */
  void holdHandOffsOf(Thread thread) {
    this.loopThread = thread;
  }

  /**
   * Hands the held cycles to the executor when {@code all} or when the hold's limits are reached
   * (see {@link HeldHandOffs}); only the loop's thread calls this, after each scheduling cycle and
   * before it waits for pods.
   */
  void releaseHeld(boolean all) {
    if (Thread.currentThread() == loopThread) {
      held.release(all);
    }
  }

  private void run(
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
      Status preBind = Scheduler.safely(Framework::runPreBindPlugins, fwk, state, assumed, host);
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
      onBound.run();
      metrics.scheduleAttempt(
          "scheduled", fwk.profileName(), Duration.ofNanos(System.nanoTime() - start));
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
      inFlight.decrementAndGet();
      synchronized (monitor) {
        completions++;
        monitor.notifyAll();
      }
    }
  }

  private Status bind(Framework fwk, CycleState state, PodInfo assumed, String host) {
    Status byExtender = extendersBinding(fwk, assumed, host);
    Status status =
        byExtender != null
            ? byExtender
            : Scheduler.safely(Framework::runBindPlugins, fwk, state, assumed, host);
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
    boolean forgotten = failures.unreserveAndForget(fwk, state, assumed, host);
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
                    p -> !uid.equals(Pods.uid(p)));
      } else {
        queue.moveAllToActiveOrBackoffQueue(
            ClusterEvents.ASSIGNED_POD_DELETE, assumed.pod(), null, null);
      }
    }
    failures.handle(fwk, qpi, assumed.pod(), status, NominatingInfo.override(""), start);
    if (deferred != null) {
      deferred.run();
    }
  }

  /**
   * A binding cycle whose Permit has decided, held for the binding executor: a record rather than a
   * lambda, which is made through method handles until the JIT's top tier has compiled the loop.
   */
  private record HeldCycle(
      BindingCycle cycle,
      CycleState state,
      Framework fwk,
      QueuedPodInfo qpi,
      PodInfo assumed,
      ScheduleResult result,
      PodsToActivate podsToActivate,
      long startNanos,
      Status allowed)
      implements Runnable {
    @Override
    public void run() {
      cycle.run(state, fwk, qpi, assumed, result, podsToActivate, startNanos, allowed);
    }
  }
}
