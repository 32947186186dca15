package io.kubesched.cli.validation;

import io.kubesched.framework.FieldError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The validation layer of the simulator's loader: one {@link ObjectValidator} per kind, registered
 * here, run on every object read. {@link #core()} holds kube-apiserver's rules for the core, apps,
 * batch, policy, scheduling and node kinds; a feature adding a kind registers its validator with
 * {@link #register} (several validators of one type all run).
 */
public final class Validators {
  private final Map<Class<?>, List<ObjectValidator<?>>> byType = new LinkedHashMap<>();

  /** Returns a registry with no validators. */
  public static Validators empty() {
    return new Validators();
  }

  /** Returns a registry with the validators of the core kinds ({@link CoreValidators}). */
  public static Validators core() {
    Validators v = new Validators();
    CoreValidators.registerAll(v);
    return v;
  }

  /** Adds {@code validator} for objects of exactly {@code type}; returns this registry. */
  public <T> Validators register(Class<T> type, ObjectValidator<T> validator) {
    byType.computeIfAbsent(type, t -> new ArrayList<>()).add(validator);
    return this;
  }

  /** Returns every problem of {@code object} found by the validators of its class. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public List<FieldError> validate(Object object) {
    List<FieldError> out = new ArrayList<>();
    for (ObjectValidator v : byType.getOrDefault(object.getClass(), List.of())) {
      out.addAll(v.validate(object));
    }
    return out;
  }
}
