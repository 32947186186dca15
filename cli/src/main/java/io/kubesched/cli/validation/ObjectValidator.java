package io.kubesched.cli.validation;

import io.kubesched.framework.FieldError;
import java.util.List;

/**
 * Validates one kind of object as kube-apiserver validates it on create.
 *
 * @param <T> the object's model class
 */
@FunctionalInterface
public interface ObjectValidator<T> {
  /**
   * Returns every problem of {@code object}, each with its field path from the object's root (e.g.
   * {@code spec.containers[0].resources.requests[cpu]}) and kube's message; empty when valid.
   */
  List<FieldError> validate(T object);
}
