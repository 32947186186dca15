package io.kubesched.framework.validation;

import io.kubesched.framework.FieldError;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Builds {@link FieldError}s whose messages read like Kubernetes' {@code field.Error} bodies, so
 * that {@code FieldError.toString()} prints what kube-scheduler prints, e.g. {@code parallelism:
 * Invalid value: 0: should be an integer value greater than zero}. The configuration loader and the
 * plugins' argument validation (in-tree and out-of-tree) share it.
 *
 * <p>Values are rendered as Go does: strings quoted, numbers and booleans plain, lists as {@code
 * ["a", "b"]}, {@link FieldErrors.Raw} values verbatim (Go's {@code fmt.Stringer} case: pass a
 * duration as {@code new Raw(goText)}, e.g. {@code 10s}), and Go's {@code []string{"a", "b"}}
 * through {@link #stringSlice(List)}.
 */
public final class FieldErrors {
  private FieldErrors() {}

  /** A value rendered without quotes (Go's {@code fmt.Stringer} case), e.g. a field path. */
  public record Raw(String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /** Returns {@code <path>: Invalid value: <value>: <detail>} (kube's {@code field.Invalid}). */
  public static FieldError invalid(String path, Object value, String detail) {
    return new FieldError(path, withDetail("Invalid value: " + render(value), detail));
  }

  /** Returns {@code <path>: Required value[: <detail>]} (kube's {@code field.Required}). */
  public static FieldError required(String path, String detail) {
    return new FieldError(path, withDetail("Required value", detail));
  }

  /** Returns {@code <path>: Duplicate value: <value>} (kube's {@code field.Duplicate}). */
  public static FieldError duplicate(String path, Object value) {
    return new FieldError(path, "Duplicate value: " + render(value));
  }

  /** Returns {@code <path>: Forbidden: <detail>} (kube's {@code field.Forbidden}). */
  public static FieldError forbidden(String path, String detail) {
    return new FieldError(path, withDetail("Forbidden", detail));
  }

  /**
   * Returns {@code <path>: Unsupported value: <value>: supported values: "a", "b"} (kube's {@code
   * field.NotSupported}).
   */
  public static FieldError notSupported(String path, Object value, String... valid) {
    return notSupported(path, value, Arrays.asList(valid));
  }

  /**
   * Returns {@code <path>: Unsupported value: <value>: supported values: "a", "b"} (kube's {@code
   * field.NotSupported}).
   */
  public static FieldError notSupported(String path, Object value, List<String> valid) {
    String detail =
        valid.isEmpty()
            ? ""
            : "supported values: "
                + valid.stream().map(FieldErrors::quote).collect(Collectors.joining(", "));
    return new FieldError(path, withDetail("Unsupported value: " + render(value), detail));
  }

  /** Returns a path element for index {@code i} of the list at {@code path}. */
  public static String index(String path, int i) {
    return path + "[" + i + "]";
  }

  /** Returns the path of field {@code name} of the object at {@code path}. */
  public static String child(String path, String name) {
    return path == null || path.isEmpty() ? name : path + "." + name;
  }

  /**
   * Returns {@code values} as Go's {@code %#v} prints a {@code []string}: {@code []string{"a",
   * "b"}}, the form kube's messages show for a bad list of strings.
   */
  public static Raw stringSlice(List<?> values) {
    return new Raw(
        values.stream()
            .map(v -> quote(String.valueOf(v)))
            .collect(Collectors.joining(", ", "[]string{", "}")));
  }

  /** Quotes {@code s} as Go's {@code %q} does for printable text. */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        default -> sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  /** Renders {@code value} as Go's {@code field.Error} does. */
  static String render(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return quote(s);
    }
    if (value instanceof List<?> l) {
      return l.stream().map(FieldErrors::render).collect(Collectors.joining(", ", "[", "]"));
    }
    return String.valueOf(value);
  }

  private static String withDetail(String body, String detail) {
    return detail == null || detail.isEmpty() ? body : body + ": " + detail;
  }
}
