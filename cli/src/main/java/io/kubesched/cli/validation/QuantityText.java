package io.kubesched.cli.validation;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;

/**
 * Parses quantity text exactly as apimachinery's {@code resource.ParseQuantity} does (its scanner,
 * its suffix table and its error messages), so that the simulator accepts and refuses the same
 * strings as the API server.
 */
public final class QuantityText {
  /** The expression apimachinery's format error quotes. */
  public static final String GRAMMAR = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";

  /** apimachinery's {@code ErrFormatWrong}. */
  public static final String ERR_FORMAT =
      "quantities must match the regular expression '" + GRAMMAR + "'";

  /** apimachinery's {@code ErrSuffix}. */
  public static final String ERR_SUFFIX = "unable to parse quantity's suffix";

  private static final Map<String, Integer> DECIMAL =
      Map.of("n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
  private static final Map<String, Integer> BINARY =
      Map.of("Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);
  private static final BigDecimal NANO = new BigDecimal("0.000000001");
  private static final BigDecimal MAX_INT64 = BigDecimal.valueOf(Long.MAX_VALUE);

  private QuantityText() {}

  /** Thrown for text that is not a quantity; the message is apimachinery's. */
  public static final class InvalidQuantityException extends IllegalArgumentException {
    InvalidQuantityException(String message) {
      super(message);
    }
  }

  /**
   * Returns the value of {@code text}, rounded up to nanounits as apimachinery rounds it.
   *
   * @throws InvalidQuantityException with apimachinery's message when it is not a quantity
   */
  public static BigDecimal parse(String text) {
    String str = text == null ? "" : text.trim();
    if (str.isEmpty()) {
      throw new InvalidQuantityException(ERR_FORMAT);
    }
    int pos = 0;
    int end = str.length();
    boolean positive = true;
    if (str.charAt(0) == '-' || str.charAt(0) == '+') {
      positive = str.charAt(0) == '+';
      pos++;
    }
    int numStart = pos;
    while (pos < end && isDigit(str.charAt(pos))) {
      pos++;
    }
    String num = str.substring(numStart, pos);
    String denom = "";
    if (pos < end && str.charAt(pos) == '.') {
      pos++;
      int denomStart = pos;
      while (pos < end && isDigit(str.charAt(pos))) {
        pos++;
      }
      denom = str.substring(denomStart, pos);
    }
    int suffixStart = pos;
    while (pos < end && "eEinumkKMGTP".indexOf(str.charAt(pos)) >= 0) {
      pos++;
    }
    if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
      pos++;
    }
    while (pos < end && isDigit(str.charAt(pos))) {
      pos++;
    }
    if (pos < end) {
      throw new InvalidQuantityException(ERR_FORMAT);
    }
    String suffix = str.substring(suffixStart);
    int base;
    int exponent;
    if (DECIMAL.containsKey(suffix)) {
      base = 10;
      exponent = DECIMAL.get(suffix);
    } else if (BINARY.containsKey(suffix)) {
      base = 2;
      exponent = BINARY.get(suffix);
    } else if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      try {
        exponent = Integer.parseInt(suffix.substring(1));
      } catch (NumberFormatException e) {
        throw new InvalidQuantityException(ERR_SUFFIX);
      }
      base = 10;
    } else {
      throw new InvalidQuantityException(ERR_SUFFIX);
    }
    BigDecimal amount =
        new BigDecimal(new BigInteger((num.isEmpty() ? "0" : num) + denom), denom.length());
    if (base == 10) {
      amount = amount.scaleByPowerOfTen(exponent);
    } else {
      amount = amount.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(exponent)));
    }
    if (amount.signum() != 0 && amount.scale() > 9) {
      amount = amount.divide(NANO).setScale(0, java.math.RoundingMode.UP).multiply(NANO);
    }
    if (base == 2 && amount.compareTo(MAX_INT64) > 0) {
      amount = MAX_INT64;
    }
    return positive ? amount : amount.negate();
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
