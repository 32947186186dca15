package io.kubesched.core;

import io.kubesched.core.time.SimulatedTime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The clock and executors a {@link Scheduler} runs on: each is the one set on the builder, else the
 * simulated time's, else (executors only) a daemon pool of the scheduler's own.
 *
 * @param clock the clock (default: the simulated time's, else the system UTC clock)
 * @param timers the executor of timers (Permit timeouts, queue flushes)
 * @param bindingExecutor the executor of binding cycles
 * @param simulatedBinding whether binding cycles run as tasks of the simulated time
 * @param owned the pools created here, which the scheduler shuts down on close
 */
record ClockAndExecutors(
    Clock clock,
    ScheduledExecutorService timers,
    Executor bindingExecutor,
    boolean simulatedBinding,
    List<ExecutorService> owned) {

  ClockAndExecutors {
    owned = List.copyOf(owned);
  }

  /** Resolves the defaults of the given settings; any of them may be null. */
  static ClockAndExecutors resolve(
      Clock clock,
      ScheduledExecutorService timers,
      Executor bindingExecutor,
      SimulatedTime simulatedTime) {
    List<ExecutorService> owned = new ArrayList<>();
    Clock c =
        clock != null ? clock : simulatedTime != null ? simulatedTime.clock() : Clock.systemUTC();
    ScheduledExecutorService t = timers;
    if (t == null && simulatedTime != null) {
      t = simulatedTime.scheduler();
    }
    if (t == null) {
      ScheduledExecutorService own =
          Executors.newSingleThreadScheduledExecutor(daemon("kubesched-timers"));
      owned.add(own);
      t = own;
    }
    Executor be = bindingExecutor;
    if (be == null && simulatedTime != null) {
      be = simulatedTime.scheduler();
    }
    if (be == null) {
      ExecutorService own = Executors.newCachedThreadPool(daemon("kubesched-binding"));
      owned.add(own);
      be = own;
    }
    boolean simulatedBinding = simulatedTime != null && be == simulatedTime.scheduler();
    return new ClockAndExecutors(c, t, be, simulatedBinding, owned);
  }

  /** Shuts down the pools created here (injected executors are left alone). */
  void shutdownOwned() {
    owned.forEach(ExecutorService::shutdownNow);
  }

  /** Returns a factory of daemon threads named {@code name-1}, {@code name-2}, .... */
  static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
