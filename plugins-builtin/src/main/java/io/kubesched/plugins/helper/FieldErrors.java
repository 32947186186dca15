package io.kubesched.plugins.helper;

import io.kubesched.framework.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Builds {@link FieldError}s whose messages read like kube's {@code field.Error} bodies ({@code
 * Invalid value: 0: not in valid range (0, 100]}), so that {@code path: message} is the text
 * kube-scheduler prints, and holds kube's name validations.
 */
public final class FieldErrors {
  private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final Pattern QUALIFIED_NAME = Pattern.compile("^" + QUALIFIED_NAME_FMT + "$");
  private static final String QUALIFIED_NAME_MSG =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
          + " alphanumeric character";
  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT =
      DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("^" + DNS1123_SUBDOMAIN_FMT + "$");
  private static final String DNS1123_SUBDOMAIN_MSG =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or"
          + " '.', and must start and end with an alphanumeric character";

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
    List<String> errs = new ArrayList<>();
    String[] parts = value.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      String prefix = parts[0];
      name = parts[1];
      if (prefix.isEmpty()) {
        errs.add("prefix part must be non-empty");
      } else {
        if (prefix.length() > 253) {
          errs.add("prefix part must be no more than 253 characters");
        }
        if (!DNS1123_SUBDOMAIN.matcher(prefix).matches()) {
          errs.add(
              "prefix part "
                  + regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
      }
    } else {
      errs.add(
          "a qualified name "
              + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
              + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    if (name.isEmpty()) {
      errs.add("name part must be non-empty");
    } else if (name.length() > 63) {
      errs.add("name part must be no more than 63 characters");
    }
    if (!QUALIFIED_NAME.matcher(name).matches()) {
      errs.add(
          "name part "
              + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
    }
    return errs;
  }

  private static String regexError(String msg, String fmt, String... examples) {
    StringBuilder sb = new StringBuilder(msg).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        sb.append(" or ");
      }
      sb.append('\'').append(examples[i]).append("', ");
    }
    return sb.append("regex used for validation is '").append(fmt).append("')").toString();
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
