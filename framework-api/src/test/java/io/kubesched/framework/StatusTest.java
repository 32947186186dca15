package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
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
            "boom, more"),
        Arguments.argumentSet(
            "an error from a message has it as its only reason",
            Status.error("failed to list"),
            "failed to list"),
        Arguments.argumentSet(
            "the plugin name is not part of the message",
            Status.unresolvable("node(s) had untolerated taint(s)").withPlugin("TaintToleration"),
            "node(s) had untolerated taint(s)"));
  }

  @ParameterizedTest
  @MethodSource("messages")
  void message(Status status, String want) {
    assertThat(status.message()).isEqualTo(want);
  }

  static Stream<Arguments> codeNames() {
    return Stream.of(
        Arguments.argumentSet("success", Status.Code.SUCCESS, "Success"),
        Arguments.argumentSet("error", Status.Code.ERROR, "Error"),
        Arguments.argumentSet("unschedulable", Status.Code.UNSCHEDULABLE, "Unschedulable"),
        Arguments.argumentSet(
            "unschedulable and unresolvable",
            Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
            "UnschedulableAndUnresolvable"),
        Arguments.argumentSet("wait", Status.Code.WAIT, "Wait"),
        Arguments.argumentSet("skip", Status.Code.SKIP, "Skip"),
        Arguments.argumentSet("pending", Status.Code.PENDING, "Pending"));
  }

  @ParameterizedTest
  @MethodSource("codeNames")
  void codesPrintKubesNames(Status.Code code, String want) {
    assertThat(code.toString()).isEqualTo(want);
  }

  @Test
  void theSevenCodesInKubesOrder() {
    assertThat(Status.Code.values())
        .extracting(Status.Code::toString)
        .containsExactly(
            "Success",
            "Error",
            "Unschedulable",
            "UnschedulableAndUnresolvable",
            "Wait",
            "Skip",
            "Pending");
  }

  static Stream<Arguments> predicates() {
    return Stream.of(
        Arguments.argumentSet("success", Status.success(), true, false, false, false),
        Arguments.argumentSet("error", Status.error("x"), false, false, false, false),
        Arguments.argumentSet(
            "unschedulable rejects", Status.unschedulable("x"), false, true, false, false),
        Arguments.argumentSet(
            "unresolvable rejects", Status.unresolvable("x"), false, true, false, false),
        Arguments.argumentSet("pending rejects", Status.pending("x"), false, true, false, false),
        Arguments.argumentSet("wait", Status.waiting(), false, false, true, false),
        Arguments.argumentSet("skip", Status.skip(), false, false, false, true));
  }

  @ParameterizedTest
  @MethodSource("predicates")
  void predicates(Status s, boolean success, boolean rejected, boolean wait, boolean skip) {
    assertThat(List.of(s.isSuccess(), s.isRejected(), s.isWait(), s.isSkip()))
        .isEqualTo(List.of(success, rejected, wait, skip));
  }

  static Stream<Arguments> asException() {
    return Stream.of(
        Arguments.argumentSet("success", Status.success(), null),
        Arguments.argumentSet("wait", Status.waiting("w"), null),
        Arguments.argumentSet("skip", Status.skip(), null),
        Arguments.argumentSet("unschedulable", Status.unschedulable("a", "b"), "a, b"),
        Arguments.argumentSet("error", Status.error("boom"), "boom"),
        Arguments.argumentSet("pending", Status.pending("later"), "later"));
  }

  @ParameterizedTest
  @MethodSource("asException")
  void asException(Status s, String wantMessage) {
    SchedulingException e = s.asException();
    if (wantMessage == null) {
      assertThat(e).isNull();
    } else {
      assertThat(e).hasMessage(wantMessage);
    }
  }

  @Test
  void asExceptionKeepsASchedulingExceptionCause() {
    SchedulingException cause = new SchedulingException("original");

    assertThat(Status.error(cause).asException()).isSameAs(cause);
  }

  @Test
  void withPluginReturnsACopyWithTheName() {
    Status plain = Status.unschedulable("r");
    Status stamped = plain.withPlugin("NodeAffinity");

    assertThat(stamped)
        .isEqualTo(new Status(Status.Code.UNSCHEDULABLE, List.of("r"), null, "NodeAffinity"));
    assertThat(plain.plugin()).isNull();
    assertThat(stamped.withPlugin("NodeAffinity")).isSameAs(stamped);
    assertThat(stamped).isNotEqualTo(plain);
  }

  @Test
  void withReasonAppends() {
    assertThat(Status.unschedulable("a").withReason("b")).isEqualTo(Status.unschedulable("a", "b"));
  }

  @Test
  void equalityIgnoresTheIdentityOfTheCause() {
    Status a = Status.error(new IllegalStateException("boom"));
    Status b = Status.error(new RuntimeException("boom"));

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(Status.error(new RuntimeException("other")));
    assertThat(Status.unschedulable("x")).isNotEqualTo(Status.unresolvable("x"));
  }

  @Test
  void reasonsAreImmutableCopies() {
    List<String> reasons = new java.util.ArrayList<>(List.of("a"));
    Status s = new Status(Status.Code.UNSCHEDULABLE, reasons, null, null);
    reasons.add("b");

    assertThat(s.reasons()).containsExactly("a");
    assertThat(new Status(Status.Code.ERROR, null, null, null).reasons()).isEmpty();
  }

  @Test
  void successIsASingleton() {
    assertThat(Status.of(Status.Code.SUCCESS)).isSameAs(Status.success());
  }

  @Test
  void toStringShowsCodePluginAndMessage() {
    assertThat(Status.unschedulable("too many pods").withPlugin("NodeResourcesFit"))
        .hasToString("Unschedulable [NodeResourcesFit]: too many pods");
    assertThat(Status.success()).hasToString("Success");
  }
}
