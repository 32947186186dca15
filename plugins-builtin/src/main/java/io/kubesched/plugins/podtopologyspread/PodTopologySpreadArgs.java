package io.kubesched.plugins.podtopologyspread;

import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The arguments of {@link PodTopologySpread} (kube's {@code PodTopologySpreadArgs}).
 *
 * @param defaultConstraints the constraints given to pods that have none, with {@code
 *     defaultingType: List}; they must not have a label selector (it is deduced per pod)
 * @param defaultingType {@code System} (kube's built-in defaults, the default) or {@code List}
 */
public record PodTopologySpreadArgs(
    List<V1TopologySpreadConstraint> defaultConstraints, String defaultingType)
    implements PluginArgs {

  /** {@code defaultingType} value selecting kube's built-in default constraints. */
  public static final String SYSTEM_DEFAULTING = "System";

  /** {@code defaultingType} value selecting {@code defaultConstraints}. */
  public static final String LIST_DEFAULTING = "List";

  private static final Pattern QUALIFIED_NAME =
      Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /** Normalises {@code null}: no default constraints, {@code System} defaulting. */
  public PodTopologySpreadArgs {
    defaultConstraints = defaultConstraints == null ? List.of() : List.copyOf(defaultConstraints);
    defaultingType = defaultingType == null || defaultingType.isEmpty() ? SYSTEM_DEFAULTING
        : defaultingType;
  }

  /** Returns kube's defaults: {@code System} defaulting, no listed constraints. */
  public static PodTopologySpreadArgs defaults() {
    return new PodTopologySpreadArgs(List.of(), SYSTEM_DEFAULTING);
  }

  @Override
  public List<FieldError> validate(String path) {
    List<FieldError> errors = new ArrayList<>();
    String typePath = path + ".defaultingType";
    if (!SYSTEM_DEFAULTING.equals(defaultingType) && !LIST_DEFAULTING.equals(defaultingType)) {
      errors.add(
          new FieldError(
              typePath,
              "Unsupported value: \""
                  + defaultingType
                  + "\": supported values: \"List\", \"System\""));
    } else if (SYSTEM_DEFAULTING.equals(defaultingType) && !defaultConstraints.isEmpty()) {
      errors.add(
          new FieldError(
              typePath, "Invalid value: \"System\": when .defaultConstraints are not empty"));
    }
    String listPath = path + ".defaultConstraints";
    for (int i = 0; i < defaultConstraints.size(); i++) {
      V1TopologySpreadConstraint c = defaultConstraints.get(i);
      String p = listPath + "[" + i + "]";
      int maxSkew = c.getMaxSkew() == null ? 0 : c.getMaxSkew();
      if (maxSkew <= 0) {
        errors.add(
            new FieldError(
                p + ".maxSkew", "Invalid value: " + maxSkew + ": not in valid range (0, inf)"));
      }
      String key = c.getTopologyKey() == null ? "" : c.getTopologyKey();
      if (key.isEmpty()) {
        errors.add(new FieldError(p + ".topologyKey", "Required value: can not be empty"));
      } else {
        for (String m : labelNameErrors(key)) {
          errors.add(new FieldError(p + ".topologyKey", "Invalid value: \"" + key + "\": " + m));
        }
      }
      String when = c.getWhenUnsatisfiable() == null ? "" : c.getWhenUnsatisfiable();
      if (when.isEmpty()) {
        errors.add(new FieldError(p + ".whenUnsatisfiable", "Required value: can not be empty"));
      } else if (!SpreadConstraint.DO_NOT_SCHEDULE.equals(when)
          && !SpreadConstraint.SCHEDULE_ANYWAY.equals(when)) {
        errors.add(
            new FieldError(
                p + ".whenUnsatisfiable",
                "Unsupported value: \""
                    + when
                    + "\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""));
      }
      if (c.getLabelSelector() != null) {
        errors.add(
            new FieldError(
                p + ".labelSelector",
                "Forbidden: constraint must not define a selector, as they deduced for each pod"));
      }
      for (int k = 0; k < i; k++) {
        V1TopologySpreadConstraint other = defaultConstraints.get(k);
        if (key.equals(other.getTopologyKey() == null ? "" : other.getTopologyKey())
            && when.equals(
                other.getWhenUnsatisfiable() == null ? "" : other.getWhenUnsatisfiable())) {
          errors.add(
              new FieldError(
                  p, "Duplicate value: \"{" + key + ", " + when + "}\""));
          break;
        }
      }
    }
    return errors;
  }

  /** Validates a label key as kube's {@code ValidateLabelName} (a qualified name). */
  private static List<String> labelNameErrors(String value) {
    List<String> msgs = new ArrayList<>();
    String name = value;
    int slash = value.indexOf('/');
    if (slash >= 0) {
      if (value.indexOf('/', slash + 1) >= 0) {
        msgs.add(
            "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must"
                + " start and end with an alphanumeric character (e.g. 'MyName',  or"
                + " 'my.name',  or '123-abc', regex used for validation is"
                + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain"
                + " prefix and '/' (e.g. 'example.com/MyName')");
        return msgs;
      }
      String prefix = value.substring(0, slash);
      name = value.substring(slash + 1);
      if (prefix.isEmpty()) {
        msgs.add("prefix part must be non-empty");
      } else {
        if (prefix.length() > 253) {
          msgs.add("prefix part must be no more than 253 characters");
        }
        if (!DNS1123_SUBDOMAIN.matcher(prefix).matches()) {
          msgs.add(
              "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
                  + " characters, '-' or '.', and must start and end with an alphanumeric"
                  + " character (e.g. 'example.com', regex used for validation is"
                  + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
        }
      }
    }
    if (name.isEmpty()) {
      msgs.add("name part must be non-empty");
    } else {
      if (name.length() > 63) {
        msgs.add("name part must be no more than 63 characters");
      }
      if (!QUALIFIED_NAME.matcher(name).matches()) {
        msgs.add(
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start"
                + " and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or"
                + " '123-abc', regex used for validation is"
                + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
      }
    }
    return msgs;
  }
}
