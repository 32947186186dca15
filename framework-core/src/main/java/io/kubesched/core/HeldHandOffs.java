package io.kubesched.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;

/**
 * Binding cycles the scheduling loop has started and Permit allowed, held back to be handed to the
 * binding executor in groups: an idle binding thread is then woken once per group instead of once
 * per pod (each wake-up is a system call, and on virtual machines an interrupt between CPUs that
 * costs the waker tens of microseconds). A cycle is held until {@link #MAX_HELD} are held, until
 * the first of them has waited {@link #MAX_HOLD_NANOS} (checked after each scheduling cycle), or
 * until the loop runs out of pods; binding never decides where a pod goes (the assumed pod already
 * counts), so only when a bind starts changes.
 *
 * <p>Not thread-safe: the scheduling loop's thread is the only one to hold and release.
 */
final class HeldHandOffs {
  /** The most cycles held at once. */
  static final int MAX_HELD = 32;

  /** The longest a cycle is held, in nanoseconds, when scheduling cycles are short. */
  static final long MAX_HOLD_NANOS = 1_000_000L;

  private final Executor executor;
  private final LongSupplier nanoTime;
  private final List<Runnable> held = new ArrayList<>();
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
    for (int i = 0; i < n; i++) {
      Runnable cycle = held.get(i);
      try {
        executor.execute(cycle);
      } catch (RejectedExecutionException e) {
        cycle.run();
      }
    }
    held.clear();
    return n;
  }

  /** Returns the number of cycles held. */
  int size() {
    return held.size();
  }
}
