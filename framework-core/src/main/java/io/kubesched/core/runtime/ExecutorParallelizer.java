package io.kubesched.core.runtime;

import io.kubesched.framework.Parallelizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

/**
 * A {@link Parallelizer} over an injected {@link ExecutorService} (kube's {@code
 * parallelize.Parallelizer}): pieces are handed out in chunks of {@code max(1, min(floor(sqrt(n)),
 * n/parallelism + 1))} to at most {@code parallelism} workers that steal chunks from a shared
 * counter. The calling thread is one of the workers, so the work completes even when the pool is
 * busy; with parallelism 1 everything runs on the caller.
 */
public final class ExecutorParallelizer implements Parallelizer {
  private final ExecutorService pool;
  private final int parallelism;

  /**
   * Creates the parallelizer.
   *
   * @param pool the worker pool (may be {@code null} when {@code parallelism} is 1)
   * @param parallelism the maximum number of workers, at least 1
   */
  public ExecutorParallelizer(ExecutorService pool, int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1: " + parallelism);
    }
    if (pool == null && parallelism > 1) {
      throw new IllegalArgumentException("a pool is needed when parallelism > 1");
    }
    this.pool = pool;
    this.parallelism = parallelism;
  }

  /** Returns a parallelizer that runs every piece on the calling thread. */
  public static ExecutorParallelizer callerRuns() {
    return new ExecutorParallelizer(null, 1);
  }

  @Override
  public int parallelism() {
    return parallelism;
  }

  /** Returns kube's chunk size for {@code pieces} pieces and {@code parallelism} workers. */
  static int chunkSize(int pieces, int parallelism) {
    int s = (int) Math.sqrt(pieces);
    int r = pieces / parallelism + 1;
    return Math.max(1, Math.min(s, r));
  }

  @Override
  public void until(int pieces, IntConsumer work) {
    until(pieces, work, () -> false);
  }

  /**
   * Runs {@code work} over {@code pieces} on {@code p} until {@code cancelled}: with {@link
   * #until(int, IntConsumer, BooleanSupplier)} on an {@code ExecutorParallelizer}, else by skipping
   * the pieces that start after {@code cancelled} returned {@code true}.
   */
  static void until(Parallelizer p, int pieces, IntConsumer work, BooleanSupplier cancelled) {
    if (p instanceof ExecutorParallelizer ep) {
      ep.until(pieces, work, cancelled);
    } else {
      p.until(
          pieces,
          i -> {
            if (!cancelled.getAsBoolean()) {
              work.accept(i);
            }
          });
    }
  }

  /**
   * Runs {@code work} for the pieces {@code [0, pieces)} until all ran or {@code cancelled} returns
   * {@code true} (checked before each piece). An exception stops the remaining pieces and is
   * rethrown once every worker stopped.
   */
  public void until(int pieces, IntConsumer work, BooleanSupplier cancelled) {
    Objects.requireNonNull(work, "work must not be null");
    if (pieces <= 0) {
      return;
    }
    int chunk = chunkSize(pieces, parallelism);
    int chunks = (pieces + chunk - 1) / chunk;
    int workers = Math.min(parallelism, chunks);
    if (workers <= 1 || pool == null) {
      // one worker: the caller runs the pieces in order, as the loop below would, without its
      // shared counters (the preemption dry run hands out one piece at a time)
      runInline(pieces, work, cancelled);
      return;
    }
    AtomicInteger next = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Runnable loop =
        () -> {
          try {
            while (!stop.get()) {
              int start = next.getAndAdd(chunk);
              if (start >= pieces) {
                return;
              }
              int end = Math.min(pieces, start + chunk);
              for (int i = start; i < end; i++) {
                if (stop.get() || cancelled.getAsBoolean()) {
                  stop.set(true);
                  return;
                }
                work.accept(i);
              }
            }
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
            stop.set(true);
          }
        };
    List<AtomicBoolean> claims = new ArrayList<>(workers - 1);
    List<Future<?>> futures = new ArrayList<>(workers - 1);
    for (int w = 1; w < workers; w++) {
      AtomicBoolean claim = new AtomicBoolean();
      Future<?> f;
      try {
        f =
            pool.submit(
                () -> {
                  if (claim.compareAndSet(false, true)) {
                    loop.run();
                  }
                });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // A saturated or shut-down pool: the caller does the remaining chunks itself.
        break;
      }
      claims.add(claim);
      futures.add(f);
    }
    loop.run();
    for (int w = 0; w < claims.size(); w++) {
      // A task that never started has nothing left to do: claim it so nobody waits for it.
      if (!claims.get(w).compareAndSet(false, true)) {
        awaitQuietly(futures.get(w));
      }
    }
    Throwable t = failure.get();
    if (t instanceof RuntimeException re) {
      throw re;
    }
    if (t instanceof Error e) {
      throw e;
    }
    if (t != null) {
      throw new IllegalStateException(t);
    }
  }

  private static void runInline(int pieces, IntConsumer work, BooleanSupplier cancelled) {
    for (int i = 0; i < pieces && !cancelled.getAsBoolean(); i++) {
      work.accept(i);
    }
  }

  private static void awaitQuietly(Future<?> f) {
    boolean interrupted = false;
    while (true) {
      try {
        f.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (java.util.concurrent.ExecutionException
          | java.util.concurrent.CancellationException e) {
        break;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
