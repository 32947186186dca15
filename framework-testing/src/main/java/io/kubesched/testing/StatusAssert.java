package io.kubesched.testing;

import io.kubesched.framework.Status;
import java.util.List;
import java.util.Objects;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on {@link Status}: {@code StatusAssert.assertThat(status).isRejected()
 * .hasReasons("node(s) didn't match Pod's node affinity/selector")}.
 *
 * <p>Prefer comparing whole values ({@code isEqualTo(Status.unschedulable(...).withPlugin(...))})
 * when the whole status is known; these methods state one property at a time.
 */
public final class StatusAssert extends AbstractAssert<StatusAssert, Status> {

  private StatusAssert(Status actual) {
    super(actual, StatusAssert.class);
  }

  /** Starts assertions on {@code actual}. */
  public static StatusAssert assertThat(Status actual) {
    return new StatusAssert(actual);
  }

  /** Verifies the code is {@link Status.Code#SUCCESS}. */
  public StatusAssert isSuccess() {
    return hasCode(Status.Code.SUCCESS);
  }

  /** Verifies the code is {@link Status.Code#SKIP}. */
  public StatusAssert isSkip() {
    return hasCode(Status.Code.SKIP);
  }

  /** Verifies the code is {@link Status.Code#WAIT}. */
  public StatusAssert isWait() {
    return hasCode(Status.Code.WAIT);
  }

  /** Verifies the code is {@link Status.Code#ERROR}. */
  public StatusAssert isError() {
    return hasCode(Status.Code.ERROR);
  }

  /** Verifies the status rejects the pod (Unschedulable, UnschedulableAndUnresolvable, Pending). */
  public StatusAssert isRejected() {
    isNotNull();
    if (!actual.isRejected()) {
      failWithMessage("Expected a rejecting status but was <%s>", actual);
    }
    return this;
  }

  /** Verifies the code. */
  public StatusAssert hasCode(Status.Code code) {
    isNotNull();
    if (actual.code() != code) {
      failWithMessage(
          "Expected status code <%s> but was <%s> in <%s>", code, actual.code(), actual);
    }
    return this;
  }

  /** Verifies the reasons, exactly and in order (the cause's message is not a reason here). */
  public StatusAssert hasReasons(String... reasons) {
    isNotNull();
    List<String> expected = List.of(reasons);
    if (!actual.reasons().equals(expected)) {
      failWithMessage("Expected reasons <%s> but were <%s>", expected, actual.reasons());
    }
    return this;
  }

  /** Verifies {@link Status#message()}: the cause's message and reasons joined by ", ". */
  public StatusAssert hasMessage(String message) {
    isNotNull();
    if (!actual.message().equals(message)) {
      failWithMessage("Expected message <%s> but was <%s>", message, actual.message());
    }
    return this;
  }

  /** Verifies the plugin the status is attributed to ({@code null} for none). */
  public StatusAssert fromPlugin(String plugin) {
    isNotNull();
    if (!Objects.equals(actual.plugin(), plugin)) {
      failWithMessage(
          "Expected status from plugin <%s> but was from <%s>", plugin, actual.plugin());
    }
    return this;
  }
}
