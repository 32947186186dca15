package io.kubesched.core.config;

import io.kubesched.framework.FieldError;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Builds {@link FieldError}s whose messages read like Kubernetes' {@code field.Error} bodies, so
 * that {@code FieldError.toString()} prints what kube-scheduler prints, e.g. {@code parallelism:
 * Invalid value: 0: should be an integer value greater than zero}.
 *
 * <p>Values are rendered as Go does: strings quoted, numbers and booleans plain, durations in Go
 * form, {@link FieldErrors.Raw} values verbatim.
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

  /** Returns {@code <path>: Invalid value: <value>: <detail>}. */
  public static FieldError invalid(String path, Object value, String detail) {
    return new FieldError(path, withDetail("Invalid value: " + render(value), detail));
  }

  /** Returns {@code <path>: Required value[: <detail>]}. */
  public static FieldError required(String path, String detail) {
    return new FieldError(path, withDetail("Required value", detail));
  }

  /** Returns {@code <path>: Duplicate value: <value>}. */
  public static FieldError duplicate(String path, Object value) {
    return new FieldError(path, "Duplicate value: " + render(value));
  }

  /** Returns {@code <path>: Forbidden: <detail>}. */
  public static FieldError forbidden(String path, String detail) {
    return new FieldError(path, withDetail("Forbidden", detail));
  }

  /** Returns {@code <path>: Unsupported value: <value>: supported values: "a", "b"}. */
  public static FieldError notSupported(String path, Object value, String... valid) {
    String detail =
        valid.length == 0
            ? ""
            : "supported values: "
                + Arrays.stream(valid).map(v -> "\"" + v + "\"").collect(Collectors.joining(", "));
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

  /** Renders {@code value} as Go's {@code field.Error} does. */
  static String render(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return quote(s);
    }
    if (value instanceof Duration d) {
      return GoDuration.format(d);
    }
    if (value instanceof List<?> l) {
      return l.stream().map(FieldErrors::render).collect(Collectors.joining(", ", "[", "]"));
    }
    return String.valueOf(value);
  }

  static String quote(String s) {
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

  private static String withDetail(String body, String detail) {
    return detail == null || detail.isEmpty() ? body : body + ": " + detail;
  }
}
