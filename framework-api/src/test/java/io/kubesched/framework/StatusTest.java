package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class StatusTest {
  static Stream<Arguments> messages() {
    return Stream.of(
        Arguments.argumentSet("success has no message", Status.success(), ""),
        Arguments.argumentSet(
            "reasons are joined by comma",
            Status.unschedulable("Insufficient cpu", "Insufficient memory"),
            "Insufficient cpu, Insufficient memory"),
        Arguments.argumentSet(
            "the cause comes first",
            Status.error(new IllegalStateException("boom")).withReason("more"),
            "boom, more"));
  }

  @ParameterizedTest
  @MethodSource("messages")
  void message(Status status, String want) {
    assertThat(status.message()).isEqualTo(want);
  }
}
