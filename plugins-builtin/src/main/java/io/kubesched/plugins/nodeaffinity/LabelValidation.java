package io.kubesched.plugins.nodeaffinity;

import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubesched.framework.validation.QualifiedNames;
import java.util.regex.Pattern;

/**
 * The label key and value checks kube's label requirement parsing applies to node selector terms
 * (the API server does not check node affinity values, so a pod may carry a term kube-scheduler
 * cannot parse; such a term matches no node).
 */
final class LabelValidation {
  private static final Pattern LABEL_VALUE =
      Pattern.compile("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$");

  private LabelValidation() {}

  static boolean validTerm(V1NodeSelectorTerm term) {
    if (term.getMatchExpressions() == null) {
      return true;
    }
    for (V1NodeSelectorRequirement r : term.getMatchExpressions()) {
      String key = r.getKey() == null ? "" : r.getKey();
      if (!QualifiedNames.isQualifiedName(key).isEmpty()) {
        return false;
      }
      if (r.getValues() != null) {
        for (String v : r.getValues()) {
          if (v == null || v.length() > 63 || !LABEL_VALUE.matcher(v).matches()) {
            return false;
          }
        }
      }
    }
    return true;
  }
}
