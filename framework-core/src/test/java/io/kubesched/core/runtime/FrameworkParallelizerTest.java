package io.kubesched.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class FrameworkParallelizerTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(4);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  static Stream<Arguments> chunkSizes() {
    return Stream.of(
        argumentSet("few pieces: 1", 10, 16, 1),
        argumentSet("sqrt is larger than n/parallelism+1", 100, 16, 7),
        argumentSet("sqrt of 1000", 1000, 16, 31),
        argumentSet("sqrt of 10000", 10000, 16, 100),
        argumentSet("one worker: sqrt", 100, 1, 10),
        argumentSet("no pieces: at least 1", 0, 16, 1));
  }

  @ParameterizedTest
  @MethodSource("chunkSizes")
  void computesKubesChunkSize(int pieces, int parallelism, int expected) {
    assertThat(ExecutorParallelizer.chunkSize(pieces, parallelism)).isEqualTo(expected);
  }

  @Test
  void runsEveryPieceExactlyOnce() {
    ExecutorParallelizer p = new ExecutorParallelizer(pool, 4);
    AtomicIntegerArray runs = new AtomicIntegerArray(1000);

    p.until(1000, runs::incrementAndGet);

    for (int i = 0; i < 1000; i++) {
      assertThat(runs.get(i)).as("piece %d", i).isEqualTo(1);
    }
  }

  @Test
  void rethrowsTheFirstFailureAfterTheWorkersStopped() {
    ExecutorParallelizer p = new ExecutorParallelizer(pool, 4);

    assertThatThrownBy(
            () ->
                p.until(
                    100,
                    i -> {
                      if (i == 37) {
                        throw new IllegalStateException("piece 37");
                      }
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("piece 37");
  }

  @Test
  void stopsWhenCancelled() {
    ExecutorParallelizer p = ExecutorParallelizer.callerRuns();
    AtomicInteger runs = new AtomicInteger();

    p.until(100, i -> runs.incrementAndGet(), () -> runs.get() >= 10);

    assertThat(runs.get()).isEqualTo(10);
  }

  @Test
  void callerRunsUsesTheCallingThread() {
    ExecutorParallelizer p = ExecutorParallelizer.callerRuns();
    Thread caller = Thread.currentThread();
    AtomicInteger elsewhere = new AtomicInteger();

    p.until(
        50,
        i -> {
          if (Thread.currentThread() != caller) {
            elsewhere.incrementAndGet();
          }
        });

    assertThat(p.parallelism()).isEqualTo(1);
    assertThat(elsewhere.get()).isZero();
  }

  @Test
  void completesOnTheCallerWhenThePoolIsBusy() throws Exception {
    ExecutorService single = Executors.newSingleThreadExecutor();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch blocked = new CountDownLatch(1);
    try {
      single.submit(
          () -> {
            blocked.countDown();
            release.await();
            return null;
          });
      blocked.await();
      ExecutorParallelizer p = new ExecutorParallelizer(single, 16);
      AtomicInteger runs = new AtomicInteger();

      p.until(400, i -> runs.incrementAndGet());

      assertThat(runs.get()).isEqualTo(400);
    } finally {
      release.countDown();
      single.shutdownNow();
    }
  }
}
