package io.kubesched.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class HeldHandOffsTest {
  /** An executor that records the names of the cycles it is given, without running them. */
  private static final class Recording implements Executor {
    final List<String> given = new ArrayList<>();

    @Override
    public void execute(Runnable r) {
      given.add(r.toString());
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
    Recording executor = new Recording();
    HeldHandOffs h = new HeldHandOffs(executor, () -> now[0]);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < held; i++) {
      h.hold(cycle("c" + i, new ArrayList<>()));
      if (i < handed) {
        expected.add("c" + i);
      }
    }
    now[0] += elapsed;

    int n = h.release(all);

    assertThat(List.of(n, h.size(), executor.given))
        .containsExactly(handed, held - handed, expected);
  }

  @Test
  void theHoldLimitCountsFromTheFirstCycleHeldSinceTheLastRelease() {
    long[] now = {0L};
    Recording executor = new Recording();
    HeldHandOffs h = new HeldHandOffs(executor, () -> now[0]);
    h.hold(cycle("a", new ArrayList<>()));
    h.release(true);
    now[0] = 5 * HeldHandOffs.MAX_HOLD_NANOS;
    h.hold(cycle("b", new ArrayList<>()));
    now[0] += HeldHandOffs.MAX_HOLD_NANOS - 1;
    int early = h.release(false);
    now[0] += 1;
    int due = h.release(false);

    assertThat(List.of(early, due, executor.given)).containsExactly(0, 1, List.of("a", "b"));
  }

  @Test
  void aCycleTheExecutorRejectsRunsInlineInOrder() {
    List<String> ran = new ArrayList<>();
    List<String> given = new ArrayList<>();
    Executor rejectsB =
        r -> {
          if (r.toString().equals("b")) {
            throw new RejectedExecutionException("shut down");
          }
          given.add(r.toString());
        };
    HeldHandOffs h = new HeldHandOffs(rejectsB, () -> 0L);
    h.hold(cycle("a", ran));
    h.hold(cycle("b", ran));
    h.hold(cycle("c", ran));

    h.release(true);

    assertThat(List.of(given, ran)).containsExactly(List.of("a", "c"), List.of("b"));
  }
}
