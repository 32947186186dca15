package io.kubesched.plugins.helper;

/**
 * Typed access to the old and new objects of a cluster event, for queueing hint functions (kube's
 * {@code util.As}). A wrong type is reported with an exception, which the queue treats as
 * "requeue".
 */
public final class EventObjects {
  private EventObjects() {}

  /**
   * Returns {@code obj} as a {@code type}, or {@code null} when it is {@code null}.
   *
   * @throws IllegalArgumentException when {@code obj} is of another type
   */
  public static <T> T as(Class<T> type, Object obj) {
    if (obj == null) {
      return null;
    }
    if (!type.isInstance(obj)) {
      throw new IllegalArgumentException(
          "expected a " + type.getSimpleName() + ", got " + obj.getClass().getName());
    }
    return type.cast(obj);
  }

  /**
   * Returns {@code newObj} as a {@code type}, requiring it to be present.
   *
   * @throws IllegalArgumentException when it is {@code null} or of another type
   */
  public static <T> T required(Class<T> type, Object newObj) {
    T t = as(type, newObj);
    if (t == null) {
      throw new IllegalArgumentException("expected a " + type.getSimpleName() + ", got nothing");
    }
    return t;
  }
}
