package io.kubesched.plugins.helper;

import io.kubesched.core.config.QualifiedNames;
import io.kubesched.framework.FieldError;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds {@link FieldError}s whose messages read like kube's {@code field.Error} bodies ({@code
 * Invalid value: 0: not in valid range (0, 100]}), so that {@code path: message} is the text
 * kube-scheduler prints, and holds kube's name validations.
 */
public final class FieldErrors {
  private FieldErrors() {}

  /** Returns kube's {@code field.Invalid(path, value, detail)}. */
  public static FieldError invalid(String path, Object value, String detail) {
    return new FieldError(path, "Invalid value: " + format(value) + ": " + detail);
  }

  /** Returns kube's {@code field.NotSupported(path, value, supported)}. */
  public static FieldError notSupported(String path, Object value, List<String> supported) {
    StringBuilder sb = new StringBuilder("Unsupported value: ").append(format(value));
    if (!supported.isEmpty()) {
      sb.append(": supported values: ");
      for (int i = 0; i < supported.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        sb.append(quote(supported.get(i)));
      }
    }
    return new FieldError(path, sb.toString());
  }

  /** Returns kube's {@code field.Duplicate(path, value)}. */
  public static FieldError duplicate(String path, Object value) {
    return new FieldError(path, "Duplicate value: " + format(value));
  }

  /** Returns kube's {@code field.Required(path, detail)}. */
  public static FieldError required(String path, String detail) {
    return new FieldError(path, detail.isEmpty() ? "Required value" : "Required value: " + detail);
  }

  /**
   * Returns the errors of kube's {@code ValidateLabelName}: {@code name} must be a qualified name
   * (an optional DNS subdomain prefix and {@code /}, then up to 63 characters).
   */
  public static List<FieldError> validateLabelName(String name, String path) {
    List<FieldError> out = new ArrayList<>();
    for (String msg : qualifiedNameErrors(name)) {
      out.add(invalid(path, name, msg));
    }
    return out;
  }

  /**
   * Returns the problems kube's {@code IsQualifiedName} finds with {@code value}; empty when it is
   * a valid qualified name.
   */
  public static List<String> qualifiedNameErrors(String value) {
    return QualifiedNames.isQualifiedName(value);
  }

  /** Formats a bad value as Go's field errors do: numbers plain, strings quoted. */
  static String format(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return quote(s);
    }
    if (value instanceof List<?> list) {
      StringBuilder sb = new StringBuilder("[]string{");
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        sb.append(quote(String.valueOf(list.get(i))));
      }
      return sb.append('}').toString();
    }
    return String.valueOf(value);
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
