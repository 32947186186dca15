package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1Toleration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A pod toleration.
 *
 * @param key the key, {@code ""} (with {@code Exists}) to tolerate every key
 * @param operator {@code Exists} or {@code Equal} ({@code ""} means {@code Equal})
 * @param value the value compared by {@code Equal}
 * @param effect the effect tolerated, {@code ""} for all
 * @param tolerationSeconds how long a {@code NoExecute} taint is tolerated, or {@code null}
 */
public record Toleration(
    String key, String operator, String value, String effect, @Nullable Long tolerationSeconds) {

  /** Normalises {@code null} strings to {@code ""}. */
  public Toleration {
    key = key == null ? "" : key;
    operator = operator == null ? "" : operator;
    value = value == null ? "" : value;
    effect = effect == null ? "" : effect;
  }

  // Written out rather than generated: a record's generated equals goes through method handles,
  // slow until the JIT has compiled its caller, and batching compares tolerations for every pod.
  @Override
  public boolean equals(Object o) {
    return o instanceof Toleration t
        && key.equals(t.key)
        && operator.equals(t.operator)
        && value.equals(t.value)
        && effect.equals(t.effect)
        && java.util.Objects.equals(tolerationSeconds, t.tolerationSeconds);
  }

  @Override
  public int hashCode() {
    int h = key.hashCode();
    h = 31 * h + operator.hashCode();
    h = 31 * h + value.hashCode();
    h = 31 * h + effect.hashCode();
    return 31 * h + java.util.Objects.hashCode(tolerationSeconds);
  }

  /** Converts a client-java toleration. */
  public static Toleration of(V1Toleration t) {
    return new Toleration(
        t.getKey(), t.getOperator(), t.getValue(), t.getEffect(), t.getTolerationSeconds());
  }

  /**
   * Returns whether this toleration tolerates {@code taint} (kube's {@code
   * Toleration.ToleratesTaint}).
   */
  public boolean tolerates(Taint taint) {
    if (!effect.isEmpty() && !effect.equals(taint.effect())) {
      return false;
    }
    if (!key.isEmpty() && !key.equals(taint.key())) {
      return false;
    }
    switch (operator) {
      case "":
      case "Equal":
        return value.equals(taint.value());
      case "Exists":
        return true;
      default:
        return false;
    }
  }

  /** Returns whether any of {@code tolerations} tolerates {@code taint}. */
  public static boolean anyTolerates(List<Toleration> tolerations, Taint taint) {
    for (Toleration t : tolerations) {
      if (t.tolerates(taint)) {
        return true;
      }
    }
    return false;
  }
}
