package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A compiled node selector (kube's {@code nodeaffinity.NodeSelector}): terms that are ORed, each
 * term a conjunction of label requirements ({@code matchExpressions}) and field requirements
 * ({@code matchFields} on {@code metadata.name}).
 *
 * <p>An empty term matches nothing. A term that does not parse (an unknown operator, a {@code Gt}
 * value that is not an integer) matches nothing either, while the other terms still count; {@link
 * #parseErrors()} lists what failed.
 */
public final class NodeSelector {
  private final Term[] terms;
  private final List<String> parseErrors;

  private NodeSelector(List<Term> terms, List<String> parseErrors) {
    this.terms = terms.toArray(new Term[0]);
    this.parseErrors = List.copyOf(parseErrors);
  }

  /** Compiles {@code selector}; {@code null} gives a selector with no terms (matches nothing). */
  public static NodeSelector compile(@Nullable V1NodeSelector selector) {
    List<Term> terms = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    if (selector != null && selector.getNodeSelectorTerms() != null) {
      for (V1NodeSelectorTerm t : selector.getNodeSelectorTerms()) {
        Term term = Term.compile(t);
        terms.add(term);
        if (term.parseError() != null) {
          errors.add(term.parseError());
        }
      }
    }
    return new NodeSelector(terms, errors);
  }

  /** Returns whether any term matches a node with {@code nodeName} and {@code nodeLabels}. */
  public boolean matches(String nodeName, Map<String, String> nodeLabels) {
    for (Term t : terms) {
      if (t.matches(nodeName, nodeLabels)) {
        return true;
      }
    }
    return false;
  }

  /** Returns the terms, in order. */
  public List<Term> terms() {
    return List.of(terms);
  }

  /** Returns the errors of the terms that did not parse; empty when all did. */
  public List<String> parseErrors() {
    return parseErrors;
  }

  /** One compiled node selector term. */
  public static final class Term {
    private static final LabelSelector.Requirement[] NONE = new LabelSelector.Requirement[0];

    private final LabelSelector.Requirement[] labelRequirements;
    private final LabelSelector.Requirement[] fieldRequirements;
    private final String parseError;

    private Term(
        List<LabelSelector.Requirement> labels,
        List<LabelSelector.Requirement> fields,
        String parseError) {
      this.labelRequirements = labels.toArray(NONE);
      this.fieldRequirements = fields.toArray(NONE);
      this.parseError = parseError;
    }

    /** Compiles one term; a term that fails to parse matches nothing. */
    public static Term compile(V1NodeSelectorTerm term) {
      List<LabelSelector.Requirement> labels = new ArrayList<>();
      List<LabelSelector.Requirement> fields = new ArrayList<>();
      try {
        if (term.getMatchExpressions() != null) {
          for (V1NodeSelectorRequirement r : term.getMatchExpressions()) {
            labels.add(labelRequirement(r));
          }
        }
        if (term.getMatchFields() != null) {
          for (V1NodeSelectorRequirement r : term.getMatchFields()) {
            fields.add(fieldRequirement(r));
          }
        }
      } catch (IllegalArgumentException e) {
        return new Term(List.of(), List.of(), e.getMessage());
      }
      return new Term(labels, fields, null);
    }

    private static LabelSelector.Requirement labelRequirement(V1NodeSelectorRequirement r) {
      String op = r.getOperator();
      List<String> values = r.getValues() == null ? List.of() : r.getValues();
      if ("Gt".equals(op) || "Lt".equals(op)) {
        if (values.size() != 1) {
          throw new IllegalArgumentException(
              "for 'Gt', 'Lt' operators, exactly one value is required");
        }
        try {
          Long.parseLong(values.get(0));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "for 'Gt', 'Lt' operators, the value must be an integer");
        }
      }
      return LabelSelector.requirement(r.getKey(), op, values);
    }

    private static LabelSelector.Requirement fieldRequirement(V1NodeSelectorRequirement r) {
      String op = r.getOperator();
      List<String> values = r.getValues() == null ? List.of() : r.getValues();
      if (!"In".equals(op) && !"NotIn".equals(op)) {
        throw new IllegalArgumentException(
            "\"" + op + "\" is not a valid node field selector operator");
      }
      if (values.size() != 1) {
        throw new IllegalArgumentException(
            "unexpected number of value ("
                + values.size()
                + ") for node field selector operator \""
                + op
                + "\"");
      }
      return LabelSelector.requirement(r.getKey(), op, values);
    }

    /** Returns whether this term matches the node. */
    public boolean matches(String nodeName, Map<String, String> nodeLabels) {
      if (parseError != null || (labelRequirements.length == 0 && fieldRequirements.length == 0)) {
        return false;
      }
      for (LabelSelector.Requirement r : labelRequirements) {
        if (!r.matches(nodeLabels)) {
          return false;
        }
      }
      if (fieldRequirements.length > 0) {
        Map<String, String> fields = Map.of("metadata.name", nodeName == null ? "" : nodeName);
        for (LabelSelector.Requirement r : fieldRequirements) {
          if (!r.matches(fields)) {
            return false;
          }
        }
      }
      return true;
    }

    /** Returns the label requirements ({@code matchExpressions}). */
    public List<LabelSelector.Requirement> labelRequirements() {
      return List.of(labelRequirements);
    }

    /** Returns the field requirements ({@code matchFields}). */
    public List<LabelSelector.Requirement> fieldRequirements() {
      return List.of(fieldRequirements);
    }

    /** Returns why the term did not parse, or {@code null}. */
    public @Nullable String parseError() {
      return parseError;
    }
  }
}
