package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link FitErrorMessage#format}: the reason histogram counts every node once per reason, whether
 * nodes share one status object, in runs or interleaved, or carry equal copies.
 */
final class FitErrorMessageTest {
  private static final Status CPU = Status.unschedulable("Insufficient cpu");
  private static final Status CPU_MEM =
      Status.unschedulable("Insufficient cpu", "Insufficient memory");
  private static final Status TAINT = Status.unresolvable("node(s) had untolerated taint {k: v}");

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "one shared status in a run",
            List.of(CPU, CPU, CPU),
            5,
            "0/5 nodes are available: 2 node(s) were absent, 3 Insufficient cpu."),
        argumentSet(
            "shared statuses interleaved",
            List.of(CPU, TAINT, CPU, CPU_MEM, CPU, TAINT),
            6,
            "0/6 nodes are available: 1 Insufficient memory, 2 node(s) had untolerated taint {k: v},"
                + " 4 Insufficient cpu."),
        argumentSet(
            "equal copies count as the shared one",
            List.of(
                Status.unschedulable("Insufficient cpu"),
                Status.unschedulable("Insufficient cpu"),
                CPU),
            3,
            "0/3 nodes are available: 3 Insufficient cpu."));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void countsEveryNodeOncePerReason(List<Status> statuses, int numAllNodes, String want) {
    Map<String, Status> byNode = new LinkedHashMap<>();
    for (int i = 0; i < statuses.size(); i++) {
      byNode.put("n" + i, statuses.get(i));
    }
    String got =
        FitErrorMessage.format(
            numAllNodes, "", byNode, Status.unresolvable("node(s) were absent"), "");
    assertThat(got).isEqualTo(want);
  }
}
