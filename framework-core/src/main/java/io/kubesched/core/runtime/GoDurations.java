package io.kubesched.core.runtime;

import java.time.Duration;

/** Formats durations as Go's {@code time.Duration.String()} does ({@code 10s}, {@code 1m0s}). */
final class GoDurations {
  private GoDurations() {}

  /** Returns {@code d} in Go's format, e.g. {@code 1h2m3.5s}, {@code 150ms}, {@code 0s}. */
  static String format(Duration d) {
    long ns = d.toNanos();
    if (ns == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (ns < 0) {
      sb.append('-');
      ns = -ns;
    }
    if (ns < 1_000L) {
      return sb.append(ns).append("ns").toString();
    }
    if (ns < 1_000_000L) {
      return sb.append(fraction(ns, 3)).append("\u00b5s").toString();
    }
    if (ns < 1_000_000_000L) {
      return sb.append(fraction(ns, 6)).append("ms").toString();
    }
    long hours = ns / 3_600_000_000_000L;
    long rest = ns % 3_600_000_000_000L;
    long minutes = rest / 60_000_000_000L;
    long secNanos = rest % 60_000_000_000L;
    if (hours > 0) {
      sb.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      sb.append(minutes).append('m');
    }
    return sb.append(fraction(secNanos, 9)).append('s').toString();
  }

  /** Returns {@code value / 10^digits} with the fraction's trailing zeros removed. */
  private static String fraction(long value, int digits) {
    long scale = 1;
    for (int i = 0; i < digits; i++) {
      scale *= 10;
    }
    long whole = value / scale;
    long frac = value % scale;
    if (frac == 0) {
      return Long.toString(whole);
    }
    StringBuilder f = new StringBuilder(Long.toString(frac));
    while (f.length() < digits) {
      f.insert(0, '0');
    }
    int end = f.length();
    while (end > 0 && f.charAt(end - 1) == '0') {
      end--;
    }
    return whole + "." + f.substring(0, end);
  }
}
