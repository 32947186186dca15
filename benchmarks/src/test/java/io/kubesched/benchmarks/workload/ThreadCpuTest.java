package io.kubesched.benchmarks.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class ThreadCpuTest {
  static Stream<Arguments> lines() {
    return Stream.of(
        Arguments.of(
            "a GC worker: the number goes, 12 + 3 ticks",
            "4711 (GC Thread#0) S 1 4711 4711 0 -1 4194368 0 0 0 0 12 3 0 0 20 0 1 0 9 0 0",
            Map.entry("GC Thread", 150L)),
        Arguments.of(
            "a name with a space, a parenthesis and a dash-number",
            "12 (a (b) c-2) R 1 1 1 0 -1 0 0 0 0 0 100 0 0 0 20 0 1 0 9 0 0",
            Map.entry("a (b) c", 1000L)),
        Arguments.of(
            "the scheduling loop, shortened by Linux",
            "9 (kubesched-sche) R 1 1 1 0 -1 0 0 0 0 0 7 1 0 0 20 0 1 0 9 0 0",
            Map.entry("kubesched-sche", 80L)),
        Arguments.of("no parentheses", "9 java R 1 1 1", null),
        Arguments.of("too few fields", "9 (java) R 1 1 1", null),
        Arguments.of("not numbers", "9 (java) R 1 1 1 0 -1 0 0 0 0 0 x y 0 0 20", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lines")
  void parsesAStatLine(String name, String line, Map.Entry<String, Long> expected) {
    assertThat(ThreadCpu.parse(line)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("differences")
  void differenceKeepsTheThreadsThatUsedTime(
      String name, Map<String, Long> before, Map<String, Long> after, Map<String, Long> expected) {
    assertThat(ThreadCpu.difference(before, after)).isEqualTo(expected);
  }

  static Stream<Arguments> differences() {
    return Stream.of(
        Arguments.of(
            "grown, unchanged and new threads",
            Map.of("loop", 100L, "GC Thread", 40L),
            Map.of("loop", 350L, "GC Thread", 40L, "C2 CompilerThre", 90L),
            Map.of("loop", 250L, "C2 CompilerThre", 90L)),
        Arguments.of("nothing read", Map.of(), Map.of(), Map.of()));
  }
}
