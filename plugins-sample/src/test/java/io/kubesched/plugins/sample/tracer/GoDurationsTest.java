package io.kubesched.plugins.sample.tracer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class GoDurationsTest {
  // Go's time.Duration.String() test table values.
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("0s", Duration.ZERO),
        Arguments.of("1ns", Duration.ofNanos(1)),
        Arguments.of("1.1µs", Duration.ofNanos(1100)),
        Arguments.of("41.447µs", Duration.ofNanos(41_447)),
        Arguments.of("2.2ms", Duration.ofNanos(2_200_000)),
        Arguments.of("3.3s", Duration.ofMillis(3300)),
        Arguments.of("4m5s", Duration.ofSeconds(245)),
        Arguments.of("4m5.001s", Duration.ofMillis(245_001)),
        Arguments.of("5h6m7.001s", Duration.ofMillis(18_367_001)),
        Arguments.of("8m0.000000001s", Duration.ofMinutes(8).plusNanos(1)),
        Arguments.of("-1.1µs", Duration.ofNanos(-1100)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void formatsLikeGo(String want, Duration d) {
    assertThat(GoDurations.format(d)).isEqualTo(want);
  }
}
