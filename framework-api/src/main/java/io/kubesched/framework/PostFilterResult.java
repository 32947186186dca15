package io.kubesched.framework;

import java.util.Objects;

/**
 * What a PostFilter plugin returns.
 *
 * @param status the status, never {@code null}
 * @param nominatingInfo the nomination to apply, never {@code null}
 */
public record PostFilterResult(Status status, NominatingInfo nominatingInfo) {
  /** Checks the components. */
  public PostFilterResult {
    Objects.requireNonNull(status, "status must not be null");
    nominatingInfo = nominatingInfo == null ? NominatingInfo.noop() : nominatingInfo;
  }

  /** Returns a result with {@code status} and no change of nomination. */
  public static PostFilterResult of(Status status) {
    return new PostFilterResult(status, NominatingInfo.noop());
  }

  /** Returns success nominating {@code nodeName}. */
  public static PostFilterResult nominate(String nodeName) {
    return new PostFilterResult(Status.success(), NominatingInfo.override(nodeName));
  }
}
