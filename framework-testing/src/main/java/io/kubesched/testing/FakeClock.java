package io.kubesched.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Clock} that only moves when a test moves it (kube's fake clock), so tests never sleep.
 *
 * <p>Thread-safe. Clocks obtained with {@link #withZone(ZoneId)} share the time of this clock.
 */
public final class FakeClock extends Clock {
  private final AtomicReference<Instant> now;
  private final ZoneId zone;

  private FakeClock(AtomicReference<Instant> now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  /** Returns a clock standing at {@code instant}, in UTC. */
  public static FakeClock at(Instant instant) {
    return new FakeClock(
        new AtomicReference<>(Objects.requireNonNull(instant, "instant")), ZoneOffset.UTC);
  }

  /** Returns a clock standing at the epoch (1970-01-01T00:00:00Z), in UTC. */
  public static FakeClock epoch() {
    return at(Instant.EPOCH);
  }

  /**
   * Moves the clock forward by {@code d} and returns the new instant.
   *
   * @throws IllegalArgumentException when {@code d} is negative
   */
  public Instant advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("cannot advance a clock by a negative duration " + d);
    }
    return now.updateAndGet(t -> t.plus(d));
  }

  /** Sets the clock to {@code instant} (which may be in the past). */
  public void set(Instant instant) {
    now.set(Objects.requireNonNull(instant, "instant"));
  }

  /** Returns the current fake instant. */
  @Override
  public Instant instant() {
    return now.get();
  }

  /** Returns the zone of this clock (UTC unless {@link #withZone(ZoneId)} was used). */
  @Override
  public ZoneId getZone() {
    return zone;
  }

  /** Returns a clock in {@code zone} sharing this clock's time. */
  @Override
  public FakeClock withZone(ZoneId zone) {
    return zone.equals(this.zone) ? this : new FakeClock(now, zone);
  }

  @Override
  public String toString() {
    return "FakeClock[" + now.get() + "]";
  }
}
