package io.kubesched.core;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.queue.QueueSizes;
import io.kubesched.core.queue.SchedulingQueue;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.QueuedPodInfo;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a {@link Scheduler} until nothing can make progress, for simulations and tests ({@link
 * Scheduler#runUntilIdle()}); kube-scheduler has no counterpart, it runs forever.
 *
 * <p>It repeatedly runs due timer tasks (binding continuations, Permit timeouts, flushes) and
 * schedules the pods of the active queue; with real binding threads it waits for running bindings.
 * Without simulated time it returns as soon as nothing is ready and no binding is running.
 *
 * <p>On a {@link SimulatedTime}, when nothing is ready it advances simulated time to the next timer
 * task, which lets backoffs expire, Permit timeouts fire and the queue's flushes move pods
 * (unschedulable pods are flushed after five minutes, as in kube-scheduler). Pods waiting at Permit
 * and one-shot timers of plugins always let time advance.
 *
 * <h2>Stopping rules</h2>
 *
 * A real scheduler would retry failing pods forever; the run stops at a fixed point instead: it
 * stops once, since the first idle point after the last progress (a pod bound or an assigned pod
 * deleted), the pending pods (active, backoff, unschedulable; not gated) were attempted as many
 * times as there are of them without progress, i.e. each failing pod was retried once (after its
 * backoff or the 5-minute flush) and failed again. So a run ends with every pod bound or carrying
 * its latest FailedScheduling reason.
 *
 * <p>Plugins can also make pods chase each other without time passing (a gang whose members keep
 * activating and rejecting each other, as scheduler-plugins' Coscheduling does when a member fits
 * nowhere): once more than {@value #LIVELOCK_MIN_ATTEMPTS} and more than {@value #LIVELOCK_FACTOR}
 * attempts per pod in play were made since the last progress, the bindings in flight are settled
 * (pods waiting at Permit run into their timeouts, so none is left half-way), and the pods
 * attempted more than {@value #LIVELOCK_FACTOR} times are parked with a warning: taken out of the
 * queue so that the pods they starved (ordered behind them) get their attempts. They keep their
 * latest FailedScheduling condition, go back to the queue at the next progress, and at the latest
 * when the run ends. A run where nothing is left to park stops. As a last resort the run stops,
 * with a warning, after {@value #MAX_IDLE_STEPS} steps.
 */
final class SimulationDriver {
  private static final Logger log = LoggerFactory.getLogger(SimulationDriver.class);

  private static final int MAX_IDLE_STEPS = 1_000_000;
  private static final int LIVELOCK_MIN_ATTEMPTS = 100;
  private static final int LIVELOCK_FACTOR = 5;

  private final Scheduler scheduler;
  private final SimulatedTime simulatedTime;
  private final boolean simulatedBinding;
  private final BindingCycle bindings;
  private final WaitingPods waitingPods;
  private final SchedulingQueue queue;
  private final List<V1Pod> parked = new ArrayList<>();

  /**
   * Creates the driver.
   *
   * @param simulatedTime the scheduler's simulated time, or null on real time
   * @param simulatedBinding whether binding cycles run as tasks of {@code simulatedTime}
   */
  SimulationDriver(
      Scheduler scheduler,
      SimulatedTime simulatedTime,
      boolean simulatedBinding,
      BindingCycle bindings,
      WaitingPods waitingPods,
      SchedulingQueue queue) {
    this.scheduler = scheduler;
    this.simulatedTime = simulatedTime;
    this.simulatedBinding = simulatedBinding;
    this.bindings = bindings;
    this.waitingPods = waitingPods;
    this.queue = queue;
  }

  /** Schedules until nothing can make progress (see the class comment); starts the scheduler. */
  void runUntilIdle() {
    try {
      schedule();
    } finally {
      unpark();
    }
  }

  private void schedule() {
    scheduler.start();
    long roundProgress = -1;
    long roundAttempts = 0;
    long lastProgress = scheduler.progressCount();
    long lastProgressAttempts = scheduler.attemptCount();
    for (int steps = 0; !scheduler.isClosed(); steps++) {
      if (steps > MAX_IDLE_STEPS) {
        log.atWarn().setMessage("runUntilIdle stopped after too many steps").log();
        return;
      }
      if (scheduler.progressCount() != lastProgress) {
        lastProgress = scheduler.progressCount();
        lastProgressAttempts = scheduler.attemptCount();
        unpark();
      }
      if (simulatedTime != null && simulatedTime.runDueTasks() > 0) {
        continue;
      }
      if (scheduler.scheduleOne()) {
        long since = scheduler.attemptCount() - lastProgressAttempts;
        if (since > LIVELOCK_MIN_ATTEMPTS && since > LIVELOCK_FACTOR * podsInPlay()) {
          settleBindings();
          if (park() == 0) {
            log.atWarn()
                .setMessage("runUntilIdle stopped: pods keep being retried without progress")
                .addKeyValue("attempts", since)
                .log();
            return;
          }
          lastProgressAttempts = scheduler.attemptCount();
        }
        continue;
      }
      if (bindings.running() > 0) {
        awaitBindingCompletion();
        continue;
      }
      if (simulatedTime == null) {
        return;
      }
      if (bindings.waitingOnPermit() > 0
          || waitingPods.size() > 0
          || simulatedTime.pendingOneShotTasks() > 0) {
        if (!simulatedTime.advanceToNextTask()) {
          return;
        }
        continue;
      }
      long pending = queue.sizes().pending();
      if (pending == 0) {
        return;
      }
      long p = scheduler.progressCount();
      if (p != roundProgress) {
        // First idle point since the last progress: a retry round starts.
        roundProgress = p;
        roundAttempts = scheduler.attemptCount();
      } else if (scheduler.attemptCount() - roundAttempts >= pending) {
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
    for (int steps = 0;
        steps < MAX_IDLE_STEPS && !scheduler.isClosed() && bindings.inFlight() > 0;
        steps++) {
      if (simulatedTime != null && simulatedTime.runDueTasks() > 0) {
        continue;
      }
      if (bindings.running() > 0) {
        awaitBindingCompletion();
      } else if (simulatedTime == null || !simulatedTime.advanceToNextTask()) {
        return;
      }
    }
  }

  /**
   * Takes the pending pods attempted more than {@value #LIVELOCK_FACTOR} times out of the queue
   * (they keep their FailedScheduling condition); returns how many.
   */
  private int park() {
    List<String> names = new ArrayList<>();
    for (QueuedPodInfo p : queue.pendingPods()) {
      if (p.attempts() > LIVELOCK_FACTOR) {
        V1Pod pod = p.podInfo().pod();
        queue.delete(pod);
        parked.add(pod);
        names.add(p.podInfo().key());
      }
    }
    if (!names.isEmpty()) {
      log.atWarn()
          .setMessage("pods parked: they keep being retried without progress")
          .addKeyValue("count", names.size())
          .addKeyValue("pods", names.size() > 10 ? names.subList(0, 10) + "..." : names)
          .log();
    }
    return names.size();
  }

  /** Puts the parked pods back into the queue. */
  private void unpark() {
    for (V1Pod pod : parked) {
      queue.add(pod);
    }
    parked.clear();
  }

  /** Returns the pods the queue holds (not gated) plus those in their binding cycle. */
  private long podsInPlay() {
    QueueSizes sizes = queue.sizes();
    return (long) sizes.pending() + bindings.inFlight();
  }

  private void awaitBindingCompletion() {
    if (simulatedBinding) {
      // Binding continuations are simulated tasks; running due tasks makes them progress.
      if (simulatedTime.runDueTasks() == 0 && !simulatedTime.advanceToNextTask()) {
        log.atWarn().setMessage("binding in flight but no task can run").log();
      }
      return;
    }
    bindings.awaitCompletion(scheduler::isClosed);
  }
}
