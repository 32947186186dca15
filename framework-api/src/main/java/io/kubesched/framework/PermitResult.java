package io.kubesched.framework;

import java.time.Duration;
import java.util.Objects;

/**
 * What a Permit plugin returns.
 *
 * @param status Success, Wait, or a rejection
 * @param timeout how long to wait at most (only for Wait); capped at 15 minutes
 */
public record PermitResult(Status status, Duration timeout) {
  private static final PermitResult ALLOW = new PermitResult(Status.success(), Duration.ZERO);

  /** Checks the components. */
  public PermitResult {
    Objects.requireNonNull(status, "status must not be null");
    timeout = timeout == null ? Duration.ZERO : timeout;
  }

  /** Lets the pod go to binding. */
  public static PermitResult allow() {
    return ALLOW;
  }

  /** Makes the pod wait up to {@code timeout} for {@link WaitingPod#allow}. */
  public static PermitResult waitFor(Duration timeout) {
    return new PermitResult(Status.waiting(), timeout);
  }

  /** Rejects the pod with {@code status}. */
  public static PermitResult of(Status status) {
    return new PermitResult(status, Duration.ZERO);
  }
}
