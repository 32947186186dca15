package io.kubesched.cli.validation;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.validation.FieldErrors;
import io.kubesched.framework.validation.QualifiedNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * apimachinery's name and label checks ({@code IsDNS1123Label}, {@code IsDNS1035Label}, {@code
 * IsValidLabelValue}, {@code ValidateLabels}) with their messages.
 */
public final class Names {
  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern DNS1123_LABEL = Pattern.compile("^" + DNS1123_LABEL_FMT + "$");
  private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern DNS1035_LABEL = Pattern.compile("^" + DNS1035_LABEL_FMT + "$");
  private static final String LABEL_VALUE_FMT = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
  private static final Pattern LABEL_VALUE = Pattern.compile("^" + LABEL_VALUE_FMT + "$");

  private Names() {}

  /** {@code IsDNS1123Label}: the problems of {@code value}, empty when it is a label. */
  public static List<String> dns1123Label(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > 63) {
      errs.add("must be no more than 63 characters");
    }
    if (!DNS1123_LABEL.matcher(value).matches()) {
      errs.add(
          regexError(
              "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or"
                  + " '-', and must start and end with an alphanumeric character",
              DNS1123_LABEL_FMT,
              "my-name",
              "123-abc"));
    }
    return errs;
  }

  /** {@code IsDNS1035Label}: the problems of {@code value}, empty when it is one. */
  public static List<String> dns1035Label(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > 63) {
      errs.add("must be no more than 63 characters");
    }
    if (!DNS1035_LABEL.matcher(value).matches()) {
      errs.add(
          regexError(
              "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start"
                  + " with an alphabetic character, and end with an alphanumeric character",
              DNS1035_LABEL_FMT,
              "my-name",
              "abc-123"));
    }
    return errs;
  }

  /** {@code IsDNS1123Subdomain}. */
  public static List<String> dns1123Subdomain(String value) {
    return QualifiedNames.isDns1123Subdomain(value);
  }

  /** {@code IsValidLabelValue}: the problems of {@code value}, empty when it is valid. */
  public static List<String> labelValue(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > 63) {
      errs.add("must be no more than 63 characters");
    }
    if (!LABEL_VALUE.matcher(value).matches()) {
      errs.add(
          regexError(
              "a valid label must be an empty string or consist of alphanumeric characters, '-',"
                  + " '_' or '.', and must start and end with an alphanumeric character",
              LABEL_VALUE_FMT,
              "MyValue",
              "my_value",
              "12345"));
    }
    return errs;
  }

  /** {@code ValidateLabelName} at {@code path}. */
  public static void labelName(String key, String path, List<FieldError> out) {
    out.addAll(QualifiedNames.validateLabelName(key, path));
  }

  /** {@code ValidateLabels}: every key a qualified name, every value a label value. */
  public static void labels(Map<String, String> labels, String path, List<FieldError> out) {
    if (labels == null) {
      return;
    }
    labels.forEach(
        (k, v) -> {
          labelName(k, path, out);
          for (String msg : labelValue(v == null ? "" : v)) {
            out.add(FieldErrors.invalid(path, v, msg));
          }
        });
  }

  /** Adds one {@code Invalid value} error per message. */
  static void invalid(String path, Object value, List<String> messages, List<FieldError> out) {
    for (String msg : messages) {
      out.add(FieldErrors.invalid(path, value, msg));
    }
  }

  /** apimachinery's {@code RegexError}. */
  static String regexError(String msg, String fmt, String... examples) {
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
