package io.kubesched.core.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * Go's {@code time.Duration} text form ({@code 10s}, {@code 1m30s}, {@code 300ms}, {@code 1.5h}),
 * as used by {@code metav1.Duration} fields of the configuration.
 */
public final class GoDuration {
  private static final Map<String, Long> UNIT_NANOS =
      Map.of(
          "ns", 1L,
          "us", 1_000L,
          "\u00b5s", 1_000L,
          "\u03bcs", 1_000L,
          "ms", 1_000_000L,
          "s", 1_000_000_000L,
          "m", 60_000_000_000L,
          "h", 3_600_000_000_000L);

  private GoDuration() {}

  /**
   * Parses a Go duration string like Go's {@code time.ParseDuration}.
   *
   * @throws IllegalArgumentException when {@code s} is not a valid duration
   */
  public static Duration parse(String s) {
    String orig = s;
    if (s.isEmpty()) {
      throw invalid(orig);
    }
    boolean neg = false;
    if (s.charAt(0) == '-' || s.charAt(0) == '+') {
      neg = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    if (s.isEmpty()) {
      throw invalid(orig);
    }
    BigDecimal total = BigDecimal.ZERO;
    int i = 0;
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
        i++;
      }
      String number = s.substring(start, i);
      if (number.isEmpty()
          || number.equals(".")
          || number.indexOf('.') != number.lastIndexOf('.')) {
        throw invalid(orig);
      }
      int unitStart = i;
      while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
        i++;
      }
      String unit = s.substring(unitStart, i);
      Long nanos = UNIT_NANOS.get(unit);
      if (nanos == null) {
        throw new IllegalArgumentException(
            unit.isEmpty()
                ? "missing unit in duration \"" + orig + "\""
                : "unknown unit \"" + unit + "\" in duration \"" + orig + "\"");
      }
      total = total.add(new BigDecimal(number).multiply(BigDecimal.valueOf(nanos)));
    }
    if (total.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw invalid(orig);
    }
    long n = total.longValue();
    return Duration.ofNanos(neg ? -n : n);
  }

  /** Formats {@code d} as Go's {@code Duration.String()} does, e.g. {@code 1m30s}, {@code 0s}. */
  public static String format(Duration d) {
    long nanos;
    try {
      nanos = d.toNanos();
    } catch (ArithmeticException e) {
      return d.toString();
    }
    if (nanos == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (nanos < 0) {
      sb.append('-');
      nanos = -nanos;
    }
    if (nanos < 1_000_000_000L) {
      if (nanos < 1_000L) {
        return sb.append(nanos).append("ns").toString();
      }
      if (nanos < 1_000_000L) {
        return sb.append(fraction(nanos, 1_000L)).append("\u00b5s").toString();
      }
      return sb.append(fraction(nanos, 1_000_000L)).append("ms").toString();
    }
    long hours = nanos / 3_600_000_000_000L;
    long rest = nanos % 3_600_000_000_000L;
    long minutes = rest / 60_000_000_000L;
    rest = rest % 60_000_000_000L;
    if (hours > 0) {
      sb.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      sb.append(minutes).append('m');
    }
    return sb.append(fraction(rest, 1_000_000_000L)).append('s').toString();
  }

  private static String fraction(long value, long unit) {
    return BigDecimal.valueOf(value)
        .divide(BigDecimal.valueOf(unit))
        .stripTrailingZeros()
        .toPlainString();
  }

  private static IllegalArgumentException invalid(String s) {
    return new IllegalArgumentException("invalid duration \"" + s + "\"");
  }
}
