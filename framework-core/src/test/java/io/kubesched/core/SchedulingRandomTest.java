package io.kubesched.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SchedulingRandomTest {
  static Stream<Long> seeds() {
    return Stream.of(0L, 1L, -7L, 42L, Long.MAX_VALUE);
  }

  /** Draws of every kind the scheduler makes, in a mixed order. */
  private static List<Object> draws(Random r) {
    List<Object> out = new ArrayList<>();
    for (int i = 1; i <= 500; i++) {
      out.add(r.nextInt(i));
      out.add(r.nextInt(100));
      if (i % 7 == 0) {
        out.add(r.nextDouble());
        out.add(r.nextLong());
        out.add(r.nextBoolean());
      }
    }
    return out;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void drawsTheSameSequenceAsRandom(long seed) {
    assertThat(draws(new SchedulingRandom(seed))).isEqualTo(draws(new Random(seed)));
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void reseedingRestartsTheSequence(long seed) {
    SchedulingRandom r = new SchedulingRandom(99);
    draws(r);
    r.setSeed(seed);
    assertThat(draws(r)).isEqualTo(draws(new Random(seed)));
  }
}
