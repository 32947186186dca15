package io.kubesched.core.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code SimulatedTime} is a time source for simulations: a {@link Clock} that only moves when
 * told to, and a {@link ScheduledExecutorService} whose tasks run only when simulated time reaches
 * them.
 *
 * <p>Tasks run on the thread that advances time ({@link #runDueTasks()}, {@link
 * #advanceTo(Instant)}, {@link #advance(Duration)}, {@link #advanceToNextTask()}), in a
 * deterministic order: by due time, then by submission. While a task runs, the clock reads its
 * due time. Tasks may be submitted from any thread; only one thread advances time at a time.
 * {@code execute}/{@code submit} schedule a task due now (it runs at the next {@link
 * #runDueTasks()}). Cancelled tasks are dropped. Periodic tasks are rescheduled after each run
 * (fixed rate: from their due time; fixed delay: from the clock after the run).
 *
 * <p>Never block on a task's {@code get()} on the thread that advances time: nothing would run
 * it. {@code invokeAll}/{@code invokeAny} are therefore not supported.
 */
public final class SimulatedTime {
  private static final Logger log = LoggerFactory.getLogger(SimulatedTime.class);

  private final Object lock = new Object();
  private final Object runLock = new Object();
  private final PriorityQueue<Task<?>> queue = new PriorityQueue<>();
  private final SimClock clock;
  private final Executor scheduler = new Executor();
  private volatile Instant now;
  private long sequence;
  private boolean shutdown;

  /** Creates a time source whose clock starts at {@code start}. */
  public SimulatedTime(Instant start) {
    this.now = Objects.requireNonNull(start, "start must not be null");
    this.clock = new SimClock(ZoneOffset.UTC);
  }

  /** Creates a time source whose clock starts at the epoch. */
  public static SimulatedTime atEpoch() {
    return new SimulatedTime(Instant.EPOCH);
  }

  /** Returns the simulated clock (UTC); it reads the current simulated instant. */
  public Clock clock() {
    return clock;
  }

  /** Returns the executor whose tasks run on simulated time. */
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** Returns the current simulated instant. */
  public Instant now() {
    return now;
  }

  /** Returns the due time of the earliest pending task, or empty when none is pending. */
  public Optional<Instant> nextTaskTime() {
    synchronized (lock) {
      Task<?> head = queue.peek();
      return head == null ? Optional.empty() : Optional.of(head.due);
    }
  }

  /**
   * Returns the number of pending one-shot (not periodic) tasks: work that will happen once
   * simulated time reaches it, as opposed to periodic housekeeping.
   */
  public int pendingOneShotTasks() {
    synchronized (lock) {
      int n = 0;
      for (Task<?> t : queue) {
        if (t.periodNanos == 0) {
          n++;
        }
      }
      return n;
    }
  }

  /** Returns the number of pending (scheduled, not cancelled) tasks. */
  public int pendingTasks() {
    synchronized (lock) {
      return queue.size();
    }
  }

  /**
   * Runs every task due at or before the current instant, including tasks those tasks schedule
   * for now or earlier; the clock does not move. Returns the number of tasks run.
   */
  public int runDueTasks() {
    synchronized (runLock) {
      return runUntil(now);
    }
  }

  /**
   * Moves the clock to {@code target}, running every task due until then in order (the clock
   * reads each task's due time while it runs). Returns the number of tasks run. A target before
   * the current instant only runs the due tasks.
   */
  public int advanceTo(Instant target) {
    synchronized (runLock) {
      int n = runUntil(target);
      if (target.isAfter(now)) {
        now = target;
      }
      return n;
    }
  }

  /** Moves the clock forward by {@code duration}; see {@link #advanceTo(Instant)}. */
  public int advance(Duration duration) {
    synchronized (runLock) {
      return advanceTo(now.plus(duration));
    }
  }

  /**
   * Moves the clock to the earliest pending task (if it is in the future) and runs every task due
   * then. Returns {@code false} when no task was pending.
   */
  public boolean advanceToNextTask() {
    synchronized (runLock) {
      Optional<Instant> next = nextTaskTime();
      if (next.isEmpty()) {
        return false;
      }
      advanceTo(next.get());
      return true;
    }
  }

  private int runUntil(Instant target) {
    int ran = 0;
    while (true) {
      Task<?> task;
      synchronized (lock) {
        task = queue.peek();
        if (task == null || task.due.isAfter(target)) {
          return ran;
        }
        queue.poll();
      }
      if (task.due.isAfter(now)) {
        now = task.due;
      }
      task.runOnce();
      ran++;
    }
  }

  private <V> Task<V> enqueue(Task<V> task) {
    synchronized (lock) {
      if (shutdown) {
        throw new RejectedExecutionException("simulated scheduler is shut down");
      }
      task.seq = sequence++;
      queue.add(task);
    }
    return task;
  }

  private void requeue(Task<?> task) {
    synchronized (lock) {
      if (shutdown || task.isCancelled()) {
        return;
      }
      task.seq = sequence++;
      queue.add(task);
    }
  }

  private void remove(Task<?> task) {
    synchronized (lock) {
      queue.remove(task);
    }
  }

  /** A scheduled task: a future with a due time, a submission number and an optional period. */
  private final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {
    private Instant due;
    private long seq;
    /** Zero for one-shot tasks; positive for fixed rate; negative for fixed delay. */
    private final long periodNanos;

    Task(Callable<V> callable, Instant due) {
      super(callable);
      this.due = due;
      this.periodNanos = 0;
    }

    Task(Runnable runnable, Instant due, long periodNanos) {
      super(runnable, null);
      this.due = due;
      this.periodNanos = periodNanos;
    }

    void runOnce() {
      if (periodNanos == 0) {
        run();
        return;
      }
      if (runAndReset()) {
        due =
            periodNanos > 0
                ? due.plusNanos(periodNanos)
                : SimulatedTime.this.now.plusNanos(-periodNanos);
        requeue(this);
      }
    }

    @Override
    protected void setException(Throwable t) {
      log.atWarn().setMessage("simulated task failed").setCause(t).log();
      super.setException(t);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      if (cancelled) {
        remove(this);
      }
      return cancelled;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(Duration.between(SimulatedTime.this.now, due));
    }

    @Override
    public int compareTo(Delayed other) {
      if (other == this) {
        return 0;
      }
      if (other instanceof Task<?> t) {
        int c = due.compareTo(t.due);
        return c != 0 ? c : Long.compare(seq, t.seq);
      }
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }
  }

  /** The clock view of the simulated time. */
  private final class SimClock extends Clock {
    private final ZoneId zone;

    SimClock(ZoneId zone) {
      this.zone = zone;
    }

    @Override
    public ZoneId getZone() {
      return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return new SimClock(zone);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public long millis() {
      return now.toEpochMilli();
    }
  }

  /** The executor view: tasks become due on simulated time. */
  private final class Executor extends AbstractExecutorService
      implements ScheduledExecutorService {

    @Override
    public void execute(Runnable command) {
      Objects.requireNonNull(command, "command must not be null");
      enqueue(new Task<>(command, now, 0));
    }

    @Override
    public Future<?> submit(Runnable task) {
      return enqueue(new Task<>(task, now, 0));
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
      return enqueue(new Task<>(task, now));
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
      return enqueue(new Task<>(Executors.callable(task, result), now));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
      return enqueue(new Task<>(command, dueIn(delay, unit), 0));
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
      return enqueue(new Task<>(callable, dueIn(delay, unit)));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(
        Runnable command, long initialDelay, long period, TimeUnit unit) {
      if (period <= 0) {
        throw new IllegalArgumentException("period must be positive: " + period);
      }
      return enqueue(new Task<>(command, dueIn(initialDelay, unit), unit.toNanos(period)));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(
        Runnable command, long initialDelay, long delay, TimeUnit unit) {
      if (delay <= 0) {
        throw new IllegalArgumentException("delay must be positive: " + delay);
      }
      return enqueue(new Task<>(command, dueIn(initialDelay, unit), -unit.toNanos(delay)));
    }

    private Instant dueIn(long delay, TimeUnit unit) {
      return now.plusNanos(Math.max(0, unit.toNanos(delay)));
    }

    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) {
      throw new UnsupportedOperationException("invokeAll would block simulated time");
    }

    @Override
    public <T> List<Future<T>> invokeAll(
        Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit) {
      throw new UnsupportedOperationException("invokeAll would block simulated time");
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) {
      throw new UnsupportedOperationException("invokeAny would block simulated time");
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit) {
      throw new UnsupportedOperationException("invokeAny would block simulated time");
    }

    /** Refuses new tasks and drops periodic ones; delayed one-shot tasks still run when due. */
    @Override
    public void shutdown() {
      synchronized (lock) {
        shutdown = true;
        queue.removeIf(t -> t.periodNanos != 0);
      }
    }

    @Override
    public List<Runnable> shutdownNow() {
      synchronized (lock) {
        shutdown = true;
        List<Runnable> left = new ArrayList<>(queue);
        queue.clear();
        return left;
      }
    }

    @Override
    public boolean isShutdown() {
      synchronized (lock) {
        return shutdown;
      }
    }

    @Override
    public boolean isTerminated() {
      synchronized (lock) {
        return shutdown && queue.isEmpty();
      }
    }

    /** Returns at once whether the executor is terminated: simulated time never passes here. */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return isTerminated();
    }
  }
}
