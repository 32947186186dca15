package io.kubesched.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class HeldHandOffsTest {
  /**
   * A single-threaded executor run by hand: it queues the tasks it is given; {@link #runAll} runs
   * them, and those they hand over meanwhile, in order.
   */
  private static final class Queued implements Executor {
    final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    int given;

    @Override
    public void execute(Runnable r) {
      given++;
      tasks.add(r);
    }

    void runAll() {
      for (Runnable r; (r = tasks.poll()) != null; ) {
        r.run();
      }
    }
  }

  private static Runnable cycle(String name, List<String> ran) {
    return new Runnable() {
      @Override
      public void run() {
        ran.add(name);
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  static Stream<Arguments> releases() {
    long limit = HeldHandOffs.MAX_HOLD_NANOS;
    int max = HeldHandOffs.MAX_HELD;
    return Stream.of(
        Arguments.of("nothing held", 0, 0L, false, 0),
        Arguments.of("nothing held, all", 0, 0L, true, 0),
        Arguments.of("one held, fresh", 1, 0L, false, 0),
        Arguments.of("one held, fresh, all (the loop waits for pods)", 1, 0L, true, 1),
        Arguments.of("one held just under the limit", 1, limit - 1, false, 0),
        Arguments.of("one held for the limit", 1, limit, false, 1),
        Arguments.of("one fewer than the most", max - 1, 0L, false, 0),
        Arguments.of("the most", max, 0L, false, max),
        Arguments.of("the most, all", max, 0L, true, max));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("releases")
  void releaseHandsOverWhenALimitIsReached(
      String name, int held, long elapsed, boolean all, int handed) {
    long[] now = {1_000L};
    Queued executor = new Queued();
    HeldHandOffs h = new HeldHandOffs(executor, () -> now[0]);
    List<String> ran = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < held; i++) {
      h.hold(cycle("c" + i, ran));
      if (i < handed) {
        expected.add("c" + i);
      }
    }
    now[0] += elapsed;

    int n = h.release(all);
    int tasksAtRelease = executor.given;
    executor.runAll();

    // one drainer per release that hands anything over, which runs the whole group in order
    assertThat(List.of(n, h.size(), tasksAtRelease, ran))
        .containsExactly(handed, held - handed, handed == 0 ? 0 : 1, expected);
  }

  @Test
  void theHoldLimitCountsFromTheFirstCycleHeldSinceTheLastRelease() {
    long[] now = {0L};
    Queued executor = new Queued();
    HeldHandOffs h = new HeldHandOffs(executor, () -> now[0]);
    List<String> ran = new ArrayList<>();
    h.hold(cycle("a", ran));
    h.release(true);
    now[0] = 5 * HeldHandOffs.MAX_HOLD_NANOS;
    h.hold(cycle("b", ran));
    now[0] += HeldHandOffs.MAX_HOLD_NANOS - 1;
    int early = h.release(false);
    now[0] += 1;
    int due = h.release(false);
    executor.runAll();

    assertThat(List.of(early, due, ran)).containsExactly(0, 1, List.of("a", "b"));
  }

  @Test
  void aSingleThreadRunsAGroupWithoutATaskPerCycle() {
    Queued executor = new Queued();
    HeldHandOffs h = new HeldHandOffs(executor, () -> 0L);
    List<String> ran = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      h.hold(cycle("c" + i, ran));
      expected.add("c" + i);
    }

    h.release(true);
    executor.runAll();

    // the drainer and, queued while it ran, one more that found nothing left
    assertThat(List.of(ran, executor.given)).containsExactly(expected, 2);
  }

  @Test
  void cyclesReleasedWhileADrainerIsQueuedRunInOrderWithoutAnotherTask() {
    Queued executor = new Queued();
    HeldHandOffs h = new HeldHandOffs(executor, () -> 0L);
    List<String> ran = new ArrayList<>();
    h.hold(cycle("a", ran));
    h.release(true);
    h.hold(cycle("b", ran));
    h.release(true);
    int given = executor.given;
    executor.runAll();

    assertThat(List.of(given, ran)).containsExactly(1, List.of("a", "b"));
  }

  @Test
  void aCycleThatThrowsDoesNotStopTheOthers() {
    Queued executor = new Queued();
    HeldHandOffs h = new HeldHandOffs(executor, () -> 0L);
    List<String> ran = new ArrayList<>();
    h.hold(cycle("a", ran));
    h.hold(
        () -> {
          throw new IllegalStateException("boom");
        });
    h.hold(cycle("c", ran));

    h.release(true);
    executor.runAll();

    assertThat(ran).containsExactly("a", "c");
  }

  @Test
  void anExecutorWithSeveralThreadsRunsAGroupsCyclesInParallel() throws Exception {
    int n = 4;
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      HeldHandOffs h = new HeldHandOffs(pool, () -> 0L);
      // each cycle waits until all n have started: they finish only if they run at once
      CountDownLatch started = new CountDownLatch(n);
      CountDownLatch finished = new CountDownLatch(n);
      for (int i = 0; i < n; i++) {
        h.hold(
            () -> {
              started.countDown();
              try {
                if (started.await(30, TimeUnit.SECONDS)) {
                  finished.countDown();
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
      }

      h.release(true);

      assertThat(finished.await(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anExecutorRunningTasksOnTheCallersThreadRunsTheCyclesInOrder() {
    List<String> ran = new ArrayList<>();
    int[] tasks = {0};
    Executor direct =
        r -> {
          tasks[0]++;
          r.run();
        };
    HeldHandOffs h = new HeldHandOffs(direct, () -> 0L);
    for (String name : List.of("a", "b", "c", "d")) {
      h.hold(cycle(name, ran));
    }

    h.release(true);

    // the drainer runs them all; the one it hands over for parallelism returns at once
    assertThat(List.of(ran, tasks[0])).containsExactly(List.of("a", "b", "c", "d"), 4);
  }

  @Test
  void cyclesTheExecutorRejectsRunInlineInOrder() {
    List<String> ran = new ArrayList<>();
    Executor rejecting =
        r -> {
          throw new RejectedExecutionException("shut down");
        };
    HeldHandOffs h = new HeldHandOffs(rejecting, () -> 0L);
    h.hold(cycle("a", ran));
    h.hold(cycle("b", ran));
    h.hold(cycle("c", ran));

    h.release(true);

    assertThat(ran).containsExactly("a", "b", "c");
  }
}
