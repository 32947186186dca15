package io.kubesched.cli.validation;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.validation.FieldErrors;
import java.util.List;

/**
 * Label selectors ({@code ValidateLabelSelector}) and node selectors ({@code ValidateNodeSelector},
 * {@code ValidateNodeSelectorTerm}) with kube-apiserver's messages.
 */
final class Selectors {
  private Selectors() {}

  /** {@code ValidateLabelSelector}. */
  static void labelSelector(V1LabelSelector s, String path, List<FieldError> out) {
    if (s == null) {
      return;
    }
    List<V1LabelSelectorRequirement> reqs = s.getMatchExpressions();
    if (reqs != null) {
      for (int i = 0; i < reqs.size(); i++) {
        V1LabelSelectorRequirement r = reqs.get(i);
        String p = FieldErrors.index(FieldErrors.child(path, "matchExpressions"), i);
        String op = r.getOperator() == null ? "" : r.getOperator();
        int values = r.getValues() == null ? 0 : r.getValues().size();
        switch (op) {
          case "In", "NotIn" -> {
            if (values == 0) {
              out.add(
                  FieldErrors.required(
                      FieldErrors.child(p, "values"),
                      "must be specified when `operator` is 'In' or 'NotIn'"));
            }
          }
          case "Exists", "DoesNotExist" -> {
            if (values > 0) {
              out.add(
                  FieldErrors.forbidden(
                      FieldErrors.child(p, "values"),
                      "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
            }
          }
          default ->
              out.add(
                  FieldErrors.invalid(
                      FieldErrors.child(p, "operator"), op, "not a valid selector operator"));
        }
        Names.labelName(nullToEmpty(r.getKey()), FieldErrors.child(p, "key"), out);
      }
    }
    Names.labels(s.getMatchLabels(), FieldErrors.child(path, "matchLabels"), out);
  }

  /** {@code ValidateNodeSelector}: at least one term, each term valid. */
  static void nodeSelector(V1NodeSelector s, String path, List<FieldError> out) {
    List<V1NodeSelectorTerm> terms = s.getNodeSelectorTerms();
    String termsPath = FieldErrors.child(path, "nodeSelectorTerms");
    if (terms == null || terms.isEmpty()) {
      out.add(FieldErrors.required(termsPath, "must have at least one node selector term"));
      return;
    }
    for (int i = 0; i < terms.size(); i++) {
      nodeSelectorTerm(terms.get(i), FieldErrors.index(termsPath, i), out);
    }
  }

  /** {@code ValidateNodeSelectorTerm}. */
  static void nodeSelectorTerm(V1NodeSelectorTerm t, String path, List<FieldError> out) {
    if (t == null) {
      return;
    }
    List<V1NodeSelectorRequirement> exprs = t.getMatchExpressions();
    if (exprs != null) {
      for (int i = 0; i < exprs.size(); i++) {
        String p = FieldErrors.index(FieldErrors.child(path, "matchExpressions"), i);
        V1NodeSelectorRequirement r = exprs.get(i);
        nodeSelectorRequirement(r, p, out);
        Names.labelName(nullToEmpty(r.getKey()), FieldErrors.child(p, "key"), out);
      }
    }
    List<V1NodeSelectorRequirement> fields = t.getMatchFields();
    if (fields != null) {
      for (int i = 0; i < fields.size(); i++) {
        String p = FieldErrors.index(FieldErrors.child(path, "matchFields"), i);
        V1NodeSelectorRequirement r = fields.get(i);
        String op = nullToEmpty(r.getOperator());
        int values = r.getValues() == null ? 0 : r.getValues().size();
        if (!"metadata.name".equals(r.getKey())) {
          out.add(
              FieldErrors.invalid(
                  FieldErrors.child(p, "key"),
                  nullToEmpty(r.getKey()),
                  "not a valid field selector key"));
        }
        if (!op.equals("In") && !op.equals("NotIn")) {
          out.add(
              FieldErrors.invalid(
                  FieldErrors.child(p, "operator"), op, "not a valid selector operator"));
        } else if (values != 1) {
          out.add(
              FieldErrors.required(
                  FieldErrors.child(p, "values"),
                  "must be only one value when `operator` is 'In' or 'NotIn' for node field"
                      + " selector"));
        }
      }
    }
  }

  private static void nodeSelectorRequirement(
      V1NodeSelectorRequirement r, String p, List<FieldError> out) {
    String op = nullToEmpty(r.getOperator());
    int values = r.getValues() == null ? 0 : r.getValues().size();
    String valuesPath = FieldErrors.child(p, "values");
    switch (op) {
      case "In", "NotIn" -> {
        if (values == 0) {
          out.add(
              FieldErrors.required(
                  valuesPath, "must be specified when `operator` is 'In' or 'NotIn'"));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (values > 0) {
          out.add(
              FieldErrors.forbidden(
                  valuesPath,
                  "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
      }
      case "Gt", "Lt" -> {
        if (values != 1) {
          out.add(
              FieldErrors.required(
                  valuesPath, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        }
      }
      default ->
          out.add(
              FieldErrors.invalid(
                  FieldErrors.child(p, "operator"), op, "not a valid selector operator"));
    }
  }

  static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
