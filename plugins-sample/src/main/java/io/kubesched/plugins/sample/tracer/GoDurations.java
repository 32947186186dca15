package io.kubesched.plugins.sample.tracer;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Durations as Go's {@code time.Duration.String()} prints them ({@code 41.447µs}, {@code 1.5s},
 * {@code 2m3s}, {@code 0s}), the form kube-scheduler's logs use. The sample plugins depend on the
 * framework API only, hence this small copy of the engine's formatter.
 */
final class GoDurations {
  private static final long SECOND = 1_000_000_000L;
  private static final long MINUTE = 60 * SECOND;
  private static final long HOUR = 60 * MINUTE;

  private GoDurations() {}

  static String format(Duration d) {
    long nanos = d.toNanos();
    if (nanos == 0) {
      return "0s";
    }
    String sign = nanos < 0 ? "-" : "";
    nanos = Math.abs(nanos);
    if (nanos < 1_000L) {
      return sign + nanos + "ns";
    }
    if (nanos < 1_000_000L) {
      return sign + fraction(nanos, 1_000L) + "\u00b5s";
    }
    if (nanos < SECOND) {
      return sign + fraction(nanos, 1_000_000L) + "ms";
    }
    StringBuilder sb = new StringBuilder(sign);
    long hours = nanos / HOUR;
    long minutes = nanos % HOUR / MINUTE;
    if (hours > 0) {
      sb.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      sb.append(minutes).append('m');
    }
    return sb.append(fraction(nanos % MINUTE, SECOND)).append('s').toString();
  }

  private static String fraction(long value, long unit) {
    return BigDecimal.valueOf(value)
        .divide(BigDecimal.valueOf(unit))
        .stripTrailingZeros()
        .toPlainString();
  }
}
