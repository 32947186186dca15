package io.kubesched.framework;

import java.util.Objects;

/**
 * A typed key of a {@link CycleState}. By convention the name is the extension point followed by
 * the plugin name, e.g. {@code "PreFilterNodeResourcesFit"}.
 *
 * @param name the key's name, unique within a cycle
 * @param type the type of the value stored under it
 * @param <T> the type of the value
 */
public record StateKey<T extends StateData>(String name, Class<T> type) {
  /** Checks the components. */
  public StateKey {
    Objects.requireNonNull(name, "name must not be null");
    Objects.requireNonNull(type, "type must not be null");
  }

  /** Returns a key named {@code name} for values of {@code type}. */
  public static <T extends StateData> StateKey<T> of(String name, Class<T> type) {
    return new StateKey<>(name, type);
  }
}
