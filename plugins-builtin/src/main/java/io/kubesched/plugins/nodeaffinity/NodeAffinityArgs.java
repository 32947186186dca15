package io.kubesched.plugins.nodeaffinity;

import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1PreferredSchedulingTerm;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.validation.FieldErrors;
import io.kubesched.framework.validation.QualifiedNames;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of {@link NodeAffinity} ({@code NodeAffinityArgs}).
 *
 * @param addedAffinity node affinity applied to every pod of the profile on top of the pod's own
 *     (ANDed for the required part, added for the preferred part); {@code null} for none
 */
public record NodeAffinityArgs(V1NodeAffinity addedAffinity) implements PluginArgs {
  private static final List<String> SELECTOR_OPERATORS =
      List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");
  private static final List<String> FIELD_OPERATORS = List.of("In", "NotIn");

  /** Returns the default arguments: no added affinity. */
  public static NodeAffinityArgs defaults() {
    return new NodeAffinityArgs(null);
  }

  /**
   * Checks that the added affinity parses as kube's {@code ValidateNodeAffinityArgs} does, with
   * paths such as {@code
   * <path>.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator}.
   */
  @Override
  public List<FieldError> validate(String path) {
    List<FieldError> errs = new ArrayList<>();
    if (addedAffinity == null) {
      return errs;
    }
    String base = path + ".addedAffinity";
    var required = addedAffinity.getRequiredDuringSchedulingIgnoredDuringExecution();
    if (required != null && required.getNodeSelectorTerms() != null) {
      String p = base + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
      List<V1NodeSelectorTerm> terms = required.getNodeSelectorTerms();
      for (int i = 0; i < terms.size(); i++) {
        validateTerm(terms.get(i), p + "[" + i + "]", errs);
      }
    }
    List<V1PreferredSchedulingTerm> preferred =
        addedAffinity.getPreferredDuringSchedulingIgnoredDuringExecution();
    if (preferred != null) {
      String p = base + ".preferredDuringSchedulingIgnoredDuringExecution";
      for (int i = 0; i < preferred.size(); i++) {
        V1PreferredSchedulingTerm t = preferred.get(i);
        if (t.getWeight() == null || t.getWeight() == 0 || t.getPreference() == null) {
          continue;
        }
        validateTerm(t.getPreference(), p + "[" + i + "]", errs);
      }
    }
    return errs;
  }

  private static void validateTerm(V1NodeSelectorTerm term, String path, List<FieldError> errs) {
    List<V1NodeSelectorRequirement> exprs = term.getMatchExpressions();
    if (exprs != null) {
      for (int j = 0; j < exprs.size(); j++) {
        validateExpression(exprs.get(j), path + ".matchExpressions[" + j + "]", errs);
      }
    }
    List<V1NodeSelectorRequirement> fields = term.getMatchFields();
    if (fields != null) {
      for (int j = 0; j < fields.size(); j++) {
        V1NodeSelectorRequirement r = fields.get(j);
        String p = path + ".matchFields[" + j + "]";
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        if (FIELD_OPERATORS.contains(r.getOperator())) {
          if (values.size() != 1) {
            errs.add(
                FieldErrors.invalid(
                    p + ".values", FieldErrors.stringSlice(values), "must have one element"));
          }
        } else {
          errs.add(FieldErrors.notSupported(p + ".operator", r.getOperator(), FIELD_OPERATORS));
        }
      }
    }
  }

  private static void validateExpression(
      V1NodeSelectorRequirement r, String path, List<FieldError> errs) {
    String op = r.getOperator();
    if (!SELECTOR_OPERATORS.contains(op)) {
      errs.add(FieldErrors.notSupported(path + ".operator", op, SELECTOR_OPERATORS));
      return;
    }
    String key = r.getKey() == null ? "" : r.getKey();
    List<String> keyErrs = QualifiedNames.isQualifiedName(key);
    if (!keyErrs.isEmpty()) {
      errs.add(FieldErrors.invalid(path + ".key", key, String.join("; ", keyErrs)));
    }
    List<String> values = r.getValues() == null ? List.of() : r.getValues();
    String valuesPath = path + ".values";
    switch (op) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          errs.add(
              FieldErrors.invalid(
                  valuesPath,
                  FieldErrors.stringSlice(values),
                  "for 'in', 'notin' operators, values set can't be empty"));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          errs.add(
              FieldErrors.invalid(
                  valuesPath,
                  FieldErrors.stringSlice(values),
                  "values set must be empty for exists and does not exist"));
        }
      }
      default -> {
        if (values.size() != 1) {
          errs.add(
              FieldErrors.invalid(
                  valuesPath,
                  FieldErrors.stringSlice(values),
                  "for 'Gt', 'Lt' operators, exactly one value is required"));
        }
        for (int i = 0; i < values.size(); i++) {
          try {
            Long.parseLong(values.get(i));
          } catch (NumberFormatException e) {
            errs.add(
                FieldErrors.invalid(
                    valuesPath + "[" + i + "]",
                    values.get(i),
                    "for 'Gt', 'Lt' operators, the value must be an integer"));
          }
        }
      }
    }
  }
}
