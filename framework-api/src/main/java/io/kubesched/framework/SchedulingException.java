package io.kubesched.framework;

/** An error raised while scheduling a pod; carried by {@link Status#error(Throwable)}. */
public class SchedulingException extends RuntimeException {
  /** Creates an exception with a message. */
  public SchedulingException(String message) {
    super(message);
  }

  /** Creates an exception with a message and a cause. */
  public SchedulingException(String message, Throwable cause) {
    super(message, cause);
  }
}
