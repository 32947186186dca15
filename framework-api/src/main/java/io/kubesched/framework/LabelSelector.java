package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A compiled Kubernetes label selector (kube's {@code labels.Selector}): a conjunction of
 * requirements matched against a label map without any parsing at match time.
 *
 * <p>{@link #compile(V1LabelSelector)} follows {@code metav1.LabelSelectorAsSelector}: a {@code
 * null} selector selects nothing, an empty one selects everything.
 */
public final class LabelSelector {
  private static final LabelSelector NOTHING = new LabelSelector(List.of(), true);
  private static final LabelSelector EVERYTHING = new LabelSelector(List.of(), false);

  private final Requirement[] requirements;
  private final boolean nothing;

  private LabelSelector(List<Requirement> requirements, boolean nothing) {
    this.requirements = requirements.toArray(new Requirement[0]);
    this.nothing = nothing;
  }

  /** Returns the selector that matches no label set. */
  public static LabelSelector nothing() {
    return NOTHING;
  }

  /** Returns the selector that matches every label set. */
  public static LabelSelector everything() {
    return EVERYTHING;
  }

  /** Returns a selector requiring every entry of {@code labels} (a {@code matchLabels} map). */
  public static LabelSelector ofLabels(Map<String, String> labels) {
    if (labels == null || labels.isEmpty()) {
      return EVERYTHING;
    }
    List<Requirement> reqs = new ArrayList<>(labels.size());
    labels.forEach((k, v) -> reqs.add(new Requirement(k, Operator.IN, Set.of(v))));
    return new LabelSelector(reqs, false);
  }

  /**
   * Compiles {@code selector}.
   *
   * @throws IllegalArgumentException for an unknown operator or values that do not fit it
   */
  public static LabelSelector compile(V1LabelSelector selector) {
    if (selector == null) {
      return NOTHING;
    }
    Map<String, String> matchLabels = selector.getMatchLabels();
    List<V1LabelSelectorRequirement> exprs = selector.getMatchExpressions();
    if ((matchLabels == null || matchLabels.isEmpty()) && (exprs == null || exprs.isEmpty())) {
      return EVERYTHING;
    }
    List<Requirement> reqs = new ArrayList<>();
    if (matchLabels != null) {
      matchLabels.forEach((k, v) -> reqs.add(new Requirement(k, Operator.IN, Set.of(v))));
    }
    if (exprs != null) {
      for (V1LabelSelectorRequirement e : exprs) {
        reqs.add(requirement(e.getKey(), e.getOperator(), e.getValues()));
      }
    }
    return new LabelSelector(reqs, false);
  }

  /** Returns a selector requiring everything this one does and also {@code more}. */
  public LabelSelector and(List<Requirement> more) {
    if (nothing || more.isEmpty()) {
      return this;
    }
    List<Requirement> all = new ArrayList<>(List.of(requirements));
    all.addAll(more);
    return new LabelSelector(all, false);
  }

  static Requirement requirement(String key, String op, List<String> values) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("label selector key must not be empty");
    }
    Operator operator = Operator.parse(op);
    Set<String> vals = values == null ? Set.of() : Set.copyOf(values);
    switch (operator) {
      case IN:
      case NOT_IN:
        if (vals.isEmpty()) {
          throw new IllegalArgumentException(
              "for 'in', 'notin' operators, values set can't be empty");
        }
        break;
      case EXISTS:
      case DOES_NOT_EXIST:
        if (!vals.isEmpty()) {
          throw new IllegalArgumentException(
              "values set must be empty for exists and does not exist");
        }
        break;
      default:
        break;
    }
    return new Requirement(key, operator, vals);
  }

  /** Returns whether {@code labels} satisfy every requirement; {@code null} is an empty set. */
  public boolean matches(@Nullable Map<String, String> labels) {
    if (nothing) {
      return false;
    }
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /** Returns whether this selector matches every label set. */
  public boolean isEverything() {
    return !nothing && requirements.length == 0;
  }

  /** Returns whether this selector matches no label set. */
  public boolean isNothing() {
    return nothing;
  }

  /** Returns the requirements, in order. */
  public List<Requirement> requirements() {
    return List.of(requirements);
  }

  @Override
  public String toString() {
    if (nothing) {
      return "<nothing>";
    }
    List<String> parts = new ArrayList<>();
    for (Requirement r : requirements) {
      parts.add(r.toString());
    }
    return String.join(",", parts);
  }

  /** The operators of a label requirement. */
  public enum Operator {
    /** The label's value is in the set. */
    IN,
    /** The label is absent or its value is not in the set. */
    NOT_IN,
    /** The label is present. */
    EXISTS,
    /** The label is absent. */
    DOES_NOT_EXIST,
    /** The label's value, an integer, is greater than the single value (node selectors). */
    GT,
    /** The label's value, an integer, is less than the single value (node selectors). */
    LT;

    static Operator parse(String op) {
      if (op == null) {
        throw new IllegalArgumentException("operator must not be empty");
      }
      switch (op) {
        case "In":
          return IN;
        case "NotIn":
          return NOT_IN;
        case "Exists":
          return EXISTS;
        case "DoesNotExist":
          return DOES_NOT_EXIST;
        case "Gt":
          return GT;
        case "Lt":
          return LT;
        default:
          throw new IllegalArgumentException(
              "\"" + op + "\" is not a valid label selector operator");
      }
    }
  }

  /**
   * One requirement of a selector.
   *
   * @param key the label key
   * @param operator the operator
   * @param values the values (one integer for {@code Gt}/{@code Lt})
   */
  public record Requirement(String key, Operator operator, Set<String> values) {
    /** Copies the values. */
    public Requirement {
      values = Set.copyOf(values);
    }

    /** Returns whether {@code labels} satisfy this requirement. */
    public boolean matches(Map<String, String> labels) {
      String v = labels == null ? null : labels.get(key);
      switch (operator) {
        case IN:
          return v != null && values.contains(v);
        case NOT_IN:
          return v == null || !values.contains(v);
        case EXISTS:
          return v != null;
        case DOES_NOT_EXIST:
          return v == null;
        case GT:
        case LT:
          if (v == null || values.size() != 1) {
            return false;
          }
          try {
            long have = Long.parseLong(v);
            long want = Long.parseLong(values.iterator().next());
            return operator == Operator.GT ? have > want : have < want;
          } catch (NumberFormatException e) {
            return false;
          }
        default:
          return false;
      }
    }

    @Override
    public String toString() {
      switch (operator) {
        case IN:
          return values.size() == 1
              ? key + "=" + values.iterator().next()
              : key + " in (" + String.join(",", new java.util.TreeSet<>(values)) + ")";
        case NOT_IN:
          return key + " notin (" + String.join(",", new java.util.TreeSet<>(values)) + ")";
        case EXISTS:
          return key;
        case DOES_NOT_EXIST:
          return "!" + key;
        case GT:
          return key + ">" + values.iterator().next();
        default:
          return key + "<" + values.iterator().next();
      }
    }
  }
}
