package io.kubesched.core;

import io.kubesched.core.queue.QueueSizes;
import io.kubesched.core.queue.SchedulingQueue;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.core.time.SimulatedTime;
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
 * activating and rejecting each other): the run also stops, with a warning, once more than {@value
 * #LIVELOCK_MIN_ATTEMPTS} and more than {@value #LIVELOCK_FACTOR} attempts per pod in play were
 * made since the last progress; the bindings in flight are then settled (pods waiting at Permit run
 * into their timeouts) so none is left half-way. As a last resort the run stops, with a warning,
 * after {@value #MAX_IDLE_STEPS} steps.
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
      }
      if (simulatedTime != null && simulatedTime.runDueTasks() > 0) {
        continue;
      }
      if (scheduler.scheduleOne()) {
        long since = scheduler.attemptCount() - lastProgressAttempts;
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
