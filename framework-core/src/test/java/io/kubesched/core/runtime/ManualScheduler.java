package io.kubesched.core.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ScheduledExecutorService} driven by hand: delayed tasks run only when {@link #advance}
 * moves its virtual time past their due time, on the calling thread. No real time passes.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {
  private long nowNanos;
  private long seq;
  private final List<Task<?>> tasks = new ArrayList<>();

  /** Moves the virtual time forward by {@code d}, running every task that becomes due. */
  void advance(Duration d) {
    long target = nowNanos + d.toNanos();
    while (true) {
      Task<?> next;
      synchronized (this) {
        next =
            tasks.stream()
                .filter(t -> !t.isDone() && t.due <= target)
                .min(Comparator.<Task<?>>comparingLong(t -> t.due).thenComparingLong(t -> t.seq))
                .orElse(null);
        if (next == null) {
          nowNanos = target;
          return;
        }
        tasks.remove(next);
        nowNanos = next.due;
      }
      next.run();
    }
  }

  /** Returns how many scheduled tasks are still pending (not run, not cancelled). */
  synchronized long pending() {
    return tasks.stream().filter(t -> !t.isDone()).count();
  }

  @Override
  public synchronized ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    Task<Object> t =
        new Task<>(
            () -> {
              command.run();
              return null;
            },
            nowNanos + unit.toNanos(delay),
            seq++);
    tasks.add(t);
    return t;
  }

  @Override
  public synchronized <V> ScheduledFuture<V> schedule(
      Callable<V> callable, long delay, TimeUnit unit) {
    Task<V> t = new Task<>(callable, nowNanos + unit.toNanos(delay), seq++);
    tasks.add(t);
    return t;
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(
      Runnable command, long initialDelay, long period, TimeUnit unit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable command, long initialDelay, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void execute(Runnable command) {
    command.run();
  }

  @Override
  public void shutdown() {}

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }

  private final class Task<V> implements ScheduledFuture<V>, Runnable {
    private final Callable<V> body;
    private final long due;
    private final long seq;
    private final CompletableFuture<V> result = new CompletableFuture<>();

    Task(Callable<V> body, long due, long seq) {
      this.body = body;
      this.due = due;
      this.seq = seq;
    }

    @Override
    public void run() {
      if (result.isDone()) {
        return;
      }
      try {
        result.complete(body.call());
      } catch (Exception e) {
        result.completeExceptionally(e);
      }
    }

    @Override
    public long getDelay(TimeUnit unit) {
      synchronized (ManualScheduler.this) {
        return unit.convert(due - nowNanos, TimeUnit.NANOSECONDS);
      }
    }

    @Override
    public int compareTo(Delayed o) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      return result.cancel(mayInterruptIfRunning);
    }

    @Override
    public boolean isCancelled() {
      return result.isCancelled();
    }

    @Override
    public boolean isDone() {
      return result.isDone();
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
      return result.get();
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException {
      return result.get();
    }
  }
}
