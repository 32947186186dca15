package io.kubesched.framework;

import io.kubernetes.client.custom.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Conversions of Kubernetes quantities to the {@code long}s the scheduler computes with, rounding
 * up as kube's {@code Value()} and {@code MilliValue()} do.
 */
public final class Quantities {
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private Quantities() {}

  /**
   * Parses {@code text} ({@code "500m"}, {@code "1Gi"}, {@code "1e3"}, {@code "0.5"}).
   *
   * @throws IllegalArgumentException naming the text when it is not a quantity
   */
  public static Quantity parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("quantity must not be empty");
    }
    try {
      return Quantity.fromString(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("invalid quantity \"" + text + "\"", e);
    }
  }

  /** Returns the value rounded up to a whole number, saturating at {@link Long#MAX_VALUE}. */
  public static long value(Quantity q) {
    return toLong(q.getNumber().setScale(0, RoundingMode.CEILING));
  }

  /** Returns the value in thousandths rounded up, as kube's {@code MilliValue()}. */
  public static long milliValue(Quantity q) {
    return toLong(q.getNumber().multiply(THOUSAND).setScale(0, RoundingMode.CEILING));
  }

  /**
   * Returns the value of the named resource in the unit the scheduler uses: millicores for CPU,
   * whole units for everything else.
   */
  public static long valueOf(String resourceName, Quantity q) {
    return ResourceNames.CPU.equals(resourceName) ? milliValue(q) : value(q);
  }

  /**
   * Formats a scheduler value of the named resource back to a canonical quantity string ({@code
   * 500m}, {@code 4}, {@code 256Mi}).
   */
  public static String format(String resourceName, long value) {
    if (ResourceNames.CPU.equals(resourceName)) {
      if (value % 1000 == 0) {
        return Long.toString(value / 1000);
      }
      return value + "m";
    }
    if (ResourceNames.MEMORY.equals(resourceName)
        || ResourceNames.EPHEMERAL_STORAGE.equals(resourceName)
        || resourceName.startsWith("hugepages-")) {
      String[] suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
      long v = value;
      int i = 0;
      while (v != 0 && v % 1024 == 0 && i < suffixes.length - 1) {
        v /= 1024;
        i++;
      }
      return v + suffixes[i];
    }
    return Long.toString(value);
  }

  private static long toLong(BigDecimal d) {
    if (d.compareTo(LONG_MAX) > 0) {
      return Long.MAX_VALUE;
    }
    return d.longValueExact();
  }
}
