package io.kubesched.core.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class SimulatedTimeTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final SimulatedTime time = new SimulatedTime(T0);
  private final ScheduledExecutorService exec = time.scheduler();
  private final List<String> log = new ArrayList<>();

  private Runnable record(String name) {
    return () -> log.add(name + "@" + Duration.between(T0, time.clock().instant()).toMillis());
  }

  @Test
  void tasksRunByDueTimeThenSubmissionOrderWithTheClockAtTheirDueTime() {
    exec.schedule(record("c"), 3, TimeUnit.SECONDS);
    exec.schedule(record("a"), 1, TimeUnit.SECONDS);
    exec.schedule(record("b1"), 2, TimeUnit.SECONDS);
    exec.schedule(record("b2"), 2000, TimeUnit.MILLISECONDS);

    int ran = time.advanceTo(T0.plusSeconds(10));

    assertThat(ran).isEqualTo(4);
    assertThat(log).containsExactly("a@1000", "b1@2000", "b2@2000", "c@3000");
    assertThat(time.now()).isEqualTo(T0.plusSeconds(10));
  }

  @Test
  void nothingRunsUntilTimeIsAdvanced() {
    exec.schedule(record("a"), 1, TimeUnit.SECONDS);
    exec.execute(record("now"));

    assertThat(log).isEmpty();
    assertThat(time.runDueTasks()).isEqualTo(1);
    assertThat(log).containsExactly("now@0");
    assertThat(time.advance(Duration.ofMillis(999))).isZero();
    assertThat(time.advance(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(log).containsExactly("now@0", "a@1000");
  }

  static Stream<Arguments> steps() {
    return Stream.of(
        argumentSet(
            "advanceToNextTask jumps to the earliest task and runs everything due then",
            (BiConsumer<SimulatedTime, List<Boolean>>)
                (t, results) -> results.add(t.advanceToNextTask()),
            List.of("a@500", "a2@500"),
            List.of(true)),
        argumentSet(
            "two steps reach the second due time",
            (BiConsumer<SimulatedTime, List<Boolean>>)
                (t, results) -> {
                  results.add(t.advanceToNextTask());
                  results.add(t.advanceToNextTask());
                },
            List.of("a@500", "a2@500", "b@1500"),
            List.of(true, true)),
        argumentSet(
            "stepping past the last task reports that nothing was pending",
            (BiConsumer<SimulatedTime, List<Boolean>>)
                (t, results) -> {
                  for (int i = 0; i < 3; i++) {
                    results.add(t.advanceToNextTask());
                  }
                },
            List.of("a@500", "a2@500", "b@1500"),
            List.of(true, true, false)));
  }

  @ParameterizedTest
  @MethodSource("steps")
  void advanceToNextTaskSteps(
      BiConsumer<SimulatedTime, List<Boolean>> steps, List<String> wantLog, List<Boolean> want) {
    exec.schedule(record("b"), 1500, TimeUnit.MILLISECONDS);
    exec.schedule(record("a"), 500, TimeUnit.MILLISECONDS);
    exec.schedule(record("a2"), 500, TimeUnit.MILLISECONDS);
    List<Boolean> results = new ArrayList<>();

    steps.accept(time, results);

    assertThat(log).isEqualTo(wantLog);
    assertThat(results).isEqualTo(want);
  }

  @Test
  void tasksScheduledByTasksRunInTheSameAdvanceWhenDue() {
    exec.schedule(
        () -> {
          record("outer").run();
          exec.execute(record("inner-now"));
          exec.schedule(record("inner-later"), 1, TimeUnit.SECONDS);
          exec.schedule(record("inner-beyond"), 10, TimeUnit.SECONDS);
        },
        1,
        TimeUnit.SECONDS);

    time.advanceTo(T0.plusSeconds(5));

    assertThat(log).containsExactly("outer@1000", "inner-now@1000", "inner-later@2000");
    assertThat(time.nextTaskTime()).isEqualTo(Optional.of(T0.plusSeconds(11)));
  }

  @Test
  void cancelledTasksNeverRunAndLeaveTheQueue() {
    ScheduledFuture<?> f = exec.schedule(record("x"), 1, TimeUnit.SECONDS);
    exec.schedule(record("y"), 2, TimeUnit.SECONDS);

    assertThat(f.cancel(false)).isTrue();

    assertThat(time.pendingTasks()).isEqualTo(1);
    assertThat(time.nextTaskTime()).isEqualTo(Optional.of(T0.plusSeconds(2)));
    time.advance(Duration.ofSeconds(5));
    assertThat(log).containsExactly("y@2000");
    assertThat(f.isCancelled()).isTrue();
  }

  @Test
  void fixedRateTasksRepeatFromTheirDueTime() {
    ScheduledFuture<?> f = exec.scheduleAtFixedRate(record("tick"), 1, 2, TimeUnit.SECONDS);

    time.advanceTo(T0.plusSeconds(6));
    f.cancel(false);
    time.advanceTo(T0.plusSeconds(20));

    assertThat(log).containsExactly("tick@1000", "tick@3000", "tick@5000");
    assertThatThrownBy(f::get).isInstanceOf(CancellationException.class);
  }

  @Test
  void fixedDelayTasksRepeatFromTheEndOfTheirRun() {
    exec.scheduleWithFixedDelay(record("tick"), 0, 3, TimeUnit.SECONDS);

    time.advanceTo(T0.plusSeconds(7));

    assertThat(log).containsExactly("tick@0", "tick@3000", "tick@6000");
  }

  @Test
  void aFailingPeriodicTaskStopsAndOthersGoOn() {
    exec.scheduleAtFixedRate(
        () -> {
          throw new IllegalStateException("boom");
        },
        1,
        1,
        TimeUnit.SECONDS);
    exec.schedule(record("after"), 2, TimeUnit.SECONDS);

    time.advanceTo(T0.plusSeconds(5));

    assertThat(log).containsExactly("after@2000");
    assertThat(time.pendingTasks()).isZero();
  }

  @Test
  void submittedCallablesCompleteWhenRun() throws Exception {
    Future<String> f = exec.submit(() -> "done");

    assertThat(f.isDone()).isFalse();
    time.runDueTasks();
    assertThat(f.get()).isEqualTo("done");
  }

  @Test
  void delaysReadSimulatedTime() {
    ScheduledFuture<?> f = exec.schedule(record("x"), 10, TimeUnit.SECONDS);
    time.advance(Duration.ofSeconds(4));

    assertThat(f.getDelay(TimeUnit.MILLISECONDS)).isEqualTo(6000);
  }

  @Test
  void shutdownRefusesNewTasksDropsPeriodicOnesAndKeepsDelayedOnes() {
    exec.scheduleAtFixedRate(record("tick"), 1, 1, TimeUnit.SECONDS);
    exec.schedule(record("once"), 2, TimeUnit.SECONDS);

    exec.shutdown();

    assertThatThrownBy(() -> exec.execute(record("late")))
        .isInstanceOf(RejectedExecutionException.class);
    assertThat(exec.isTerminated()).isFalse();
    time.advance(Duration.ofSeconds(3));
    assertThat(log).containsExactly("once@2000");
    assertThat(exec.isTerminated()).isTrue();
  }

  @Test
  void clockViewsShareTheSimulatedInstant() {
    var paris = time.clock().withZone(java.time.ZoneId.of("Europe/Paris"));
    time.advance(Duration.ofMinutes(5));

    assertThat(paris.instant()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
    assertThat(time.clock().millis()).isEqualTo(T0.plus(Duration.ofMinutes(5)).toEpochMilli());
  }
}
