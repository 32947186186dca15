package io.kubesched.framework.validation;

import io.kubesched.framework.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kubernetes' qualified-name, label-name and extended-resource-name checks ({@code
 * validation.IsQualifiedName}, {@code metav1validation.ValidateLabelName}, {@code
 * v1helper.IsExtendedResourceName}), with upstream's messages.
 */
public final class QualifiedNames {
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

  private QualifiedNames() {}

  /** Returns the problems of {@code value} as a qualified name; empty when it is one. */
  public static List<String> isQualifiedName(String value) {
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
        for (String msg : isDns1123Subdomain(prefix)) {
          errs.add("prefix part " + msg);
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

  /** Returns the problems of {@code value} as a lowercase RFC 1123 subdomain; empty if none. */
  public static List<String> isDns1123Subdomain(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > 253) {
      errs.add("must be no more than 253 characters");
    }
    if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
      errs.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
    }
    return errs;
  }

  /**
   * Returns whether {@code name} is an extended resource name (kube's {@code
   * IsExtendedResourceName}).
   */
  public static boolean isExtendedResourceName(String name) {
    boolean nativeResource = !name.contains("/") || name.contains("kubernetes.io/");
    if (nativeResource || name.startsWith("requests.")) {
      return false;
    }
    return isQualifiedName("requests." + name).isEmpty();
  }

  /**
   * Returns the errors of kube's {@code ValidateLabelName} at {@code path}: {@code name} must be a
   * qualified name (an optional DNS subdomain prefix and {@code /}, then up to 63 characters).
   */
  public static List<FieldError> validateLabelName(String name, String path) {
    List<FieldError> out = new ArrayList<>();
    for (String msg : isQualifiedName(name)) {
      out.add(FieldErrors.invalid(path, name, msg));
    }
    return out;
  }

  /**
   * Returns the errors of kube's {@code validateExtendedResourceName} (the scheduler's config
   * validation) at {@code path}.
   */
  public static List<FieldError> validateExtendedResourceName(String path, String name) {
    List<FieldError> errors = new ArrayList<>();
    for (String msg : isQualifiedName(name)) {
      errors.add(FieldErrors.invalid(path, new FieldErrors.Raw(name), msg));
    }
    if (!errors.isEmpty()) {
      return errors;
    }
    if (!isExtendedResourceName(name)) {
      errors.add(FieldErrors.invalid(path, name, "is an invalid extended resource name"));
    }
    return errors;
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
}
