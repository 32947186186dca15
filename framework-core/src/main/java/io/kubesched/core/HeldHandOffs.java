package io.kubesched.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binding cycles the scheduling loop has started and Permit allowed, held back to be handed to the
 * binding executor in groups: an idle binding thread is then woken once per group instead of once
 * per pod (each wake-up is a system call, and on virtual machines an interrupt between CPUs that
 * costs the waker tens of microseconds). A cycle is held until {@link #MAX_HELD} are held, until
 * the first of them has waited {@link #MAX_HOLD_NANOS} (checked after each scheduling cycle), or
 * until the loop runs out of pods; binding never decides where a pod goes (the assumed pod already
 * counts), so only when a bind starts changes.
 *
 * <p>A released group is queued here whole, then one <em>drainer</em> task is handed to the
 * executor; it runs the queued cycles in the order they were held until none is left. The thread
 * woken for it therefore finds the whole group, even when the loop's thread is preempted halfway
 * through the release (one task per cycle made the two threads take turns, a wake-up and a thread
 * switch per pod). While cycles wait, a running drainer keeps one more drainer queued on the
 * executor, so an executor with several threads still runs a group's cycles in parallel; on a
 * single thread that drainer finds nothing left. An executor that rejects a drainer has the cycles
 * run on the thread that handed it over; one that runs tasks on the caller's thread runs them there
 * in order.
 *
 * <p>Holding and releasing are not thread-safe: the scheduling loop's thread is the only one to
 * hold and release.
 */
final class HeldHandOffs {
  private static final Logger log = LoggerFactory.getLogger(HeldHandOffs.class);

  /** The most cycles held at once. */
  static final int MAX_HELD = 32;

  /** The longest a cycle is held, in nanoseconds, when scheduling cycles are short. */
  static final long MAX_HOLD_NANOS = 1_000_000L;

  private final Executor executor;
  private final LongSupplier nanoTime;
  private final List<Runnable> held = new ArrayList<>();
  // released cycles wait here for a drainer, a task on the executor that runs them: the binding
  // thread woken for the first finds the others already there, even when the loop's thread is
  // preempted halfway through a release
  private final Queue<Runnable> released = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queuedDrainers = new AtomicInteger();
  private final Runnable drainer = this::drain;
  // the thread handing a drainer over from inside a drainer, while it does so
  private volatile @Nullable Thread spawning;
  private long firstHeldNanos;

  /**
   * Creates an empty holder.
   *
   * @param executor runs the released cycles (inline when it rejects one)
   * @param nanoTime the monotonic clock of the hold limit ({@code System::nanoTime})
   */
  HeldHandOffs(Executor executor, LongSupplier nanoTime) {
    this.executor = executor;
    this.nanoTime = nanoTime;
  }

  /** Holds {@code cycle} until the next {@link #release} that hands the held cycles over. */
  void hold(Runnable cycle) {
    if (held.isEmpty()) {
      firstHeldNanos = nanoTime.getAsLong();
    }
    held.add(cycle);
  }

  /**
   * Hands the held cycles to the executor, in the order they were held, when {@code all}, when
   * {@link #MAX_HELD} are held or when the first has been held {@link #MAX_HOLD_NANOS}; else keeps
   * holding them.
   *
   * @return the number of cycles handed over
   */
  int release(boolean all) {
    int n = held.size();
    if (n == 0 || !all && n < MAX_HELD && nanoTime.getAsLong() - firstHeldNanos < MAX_HOLD_NANOS) {
      return 0;
    }
    released.addAll(held);
    held.clear();
    if (queuedDrainers.compareAndSet(0, 1)) {
      try {
        executor.execute(drainer);
      } catch (RejectedExecutionException e) {
        drain();
      }
    }
    return n;
  }

  /**
   * Runs released cycles, in the order they were held, until none is left; while more wait, keeps
   * one more drainer queued on the executor (see the class comment). A cycle that throws is logged
   * and the next one runs.
   */
  private void drain() {
    queuedDrainers.decrementAndGet();
    if (spawning == Thread.currentThread()) {
      // an executor that runs tasks on the caller's thread: the drainer below runs them, in order
      return;
    }
    Runnable cycle;
    while ((cycle = released.poll()) != null) {
      if (!released.isEmpty() && queuedDrainers.compareAndSet(0, 1)) {
        spawning = Thread.currentThread();
        try {
          executor.execute(drainer);
        } catch (RejectedExecutionException e) {
          // this drainer runs them all
          queuedDrainers.decrementAndGet();
        } finally {
          spawning = null;
        }
      }
      try {
        cycle.run();
      } catch (RuntimeException e) {
        log.atError().setMessage("binding cycle failed").setCause(e).log();
      }
    }
  }

  /** Returns the number of cycles held. */
  int size() {
    return held.size();
  }
}
