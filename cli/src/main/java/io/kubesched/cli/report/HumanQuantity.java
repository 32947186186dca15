package io.kubesched.cli.report;

import io.kubernetes.client.custom.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Quantities at human scale for the table and HTML reports (JSON keeps kube's canonical form):
 * bytes in the largest binary unit that keeps the value at least 1, with at most one decimal
 * ({@code 32806484Ki} becomes {@code 31.3Gi}, {@code 128Mi} stays {@code 128Mi}); CPU as kube
 * writes it ({@code 250m}, {@code 4}).
 */
final class HumanQuantity {
  private static final String[] BINARY = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  private static final BigDecimal KI = BigDecimal.valueOf(1024);

  private HumanQuantity() {}

  /**
   * Returns {@code quantity} of {@code resource} at human scale; the input unchanged when it is not
   * a quantity or the resource is not measured in bytes.
   */
  static String of(String resource, String quantity) {
    if (quantity == null || !("memory".equals(resource) || resource.endsWith("storage"))) {
      return quantity;
    }
    BigDecimal bytes;
    try {
      bytes = new Quantity(quantity).getNumber();
    } catch (RuntimeException e) {
      return quantity;
    }
    if (bytes.signum() <= 0) {
      return quantity;
    }
    int unit = 0;
    BigDecimal v = bytes;
    while (unit < BINARY.length - 1 && v.compareTo(KI) >= 0) {
      v = v.divide(KI);
      unit++;
    }
    BigDecimal rounded = v.setScale(1, RoundingMode.HALF_UP).stripTrailingZeros();
    if (rounded.compareTo(KI) >= 0 && unit < BINARY.length - 1) {
      rounded = BigDecimal.ONE;
      unit++;
    }
    return rounded.toPlainString() + BINARY[unit];
  }
}
