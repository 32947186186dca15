package io.kubesched.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

final class FakeClockTest {
  @Test
  void movesOnlyWhenTold() {
    FakeClock clock = FakeClock.epoch();

    assertThat(clock.instant()).isEqualTo(Instant.EPOCH);
    assertThat(clock.advance(Duration.ofSeconds(5))).isEqualTo(Instant.ofEpochSecond(5));
    assertThat(clock.millis()).isEqualTo(5000);
    clock.set(Instant.parse("2025-01-01T00:00:00Z"));
    assertThat(clock.instant()).isEqualTo(Instant.parse("2025-01-01T00:00:00Z"));
  }

  @Test
  void zonedViewsShareTheTime() {
    FakeClock clock = FakeClock.at(Instant.ofEpochSecond(100));
    FakeClock paris = clock.withZone(ZoneId.of("Europe/Paris"));

    clock.advance(Duration.ofMinutes(1));

    assertThat(paris.instant()).isEqualTo(Instant.ofEpochSecond(160));
    assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
  }

  @Test
  void refusesToGoBackwardsByAdvance() {
    assertThatThrownBy(() -> FakeClock.epoch().advance(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
