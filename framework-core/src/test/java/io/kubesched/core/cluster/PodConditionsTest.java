package io.kubesched.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The cluster's timestamps: a clock's instant as a UTC offset date-time. */
final class PodConditionsTest {
  static Stream<Arguments> instants() {
    return Stream.of(
        Arguments.argumentSet("the epoch", Instant.EPOCH),
        Arguments.argumentSet("with nanoseconds", Instant.parse("2026-11-28T12:34:56.123456789Z")),
        Arguments.argumentSet("before the epoch", Instant.parse("1969-12-31T23:59:59.5Z")),
        Arguments.argumentSet("a leap day", Instant.parse("2028-02-29T00:00:00Z")));
  }

  @ParameterizedTest
  @MethodSource("instants")
  void nowIsTheClocksInstantInUtc(Instant instant) {
    OffsetDateTime now = PodConditions.now(Clock.fixed(instant, ZoneOffset.ofHours(5)));

    assertThat(now).isEqualTo(OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    assertThat(now.toString())
        .isEqualTo(OffsetDateTime.ofInstant(instant, ZoneOffset.UTC).toString());
  }
}
