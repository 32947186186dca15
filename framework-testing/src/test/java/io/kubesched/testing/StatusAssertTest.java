package io.kubesched.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubesched.framework.Status;
import org.junit.jupiter.api.Test;

final class StatusAssertTest {
  @Test
  void passesOnMatchingProperties() {
    StatusAssert.assertThat(Status.unschedulable("a", "b").withPlugin("P"))
        .isRejected()
        .hasCode(Status.Code.UNSCHEDULABLE)
        .hasReasons("a", "b")
        .hasMessage("a, b")
        .fromPlugin("P");
    StatusAssert.assertThat(Status.success()).isSuccess().fromPlugin(null);
    StatusAssert.assertThat(Status.skip()).isSkip();
  }

  @Test
  void failsWithAReadableMessage() {
    assertThatThrownBy(() -> StatusAssert.assertThat(Status.success()).isRejected())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected a rejecting status");
    assertThatThrownBy(() -> StatusAssert.assertThat(Status.unschedulable("x")).hasReasons("y"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("[y]");
    assertThatThrownBy(() -> StatusAssert.assertThat(Status.success()).fromPlugin("P"))
        .isInstanceOf(AssertionError.class);
  }
}
