package io.kubesched.core.kubernetes;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A UTC clock the test moves by hand (framework-testing's FakeClock cannot be used here: that
 * module depends on framework-core).
 */
final class TestClock extends Clock {
  private final AtomicReference<Instant> now;

  TestClock(Instant now) {
    this.now = new AtomicReference<>(now);
  }

  void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return zone.equals(ZoneOffset.UTC) ? this : Clock.fixed(instant(), zone);
  }
}
