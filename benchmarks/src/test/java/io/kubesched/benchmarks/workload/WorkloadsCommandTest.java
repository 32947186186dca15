package io.kubesched.benchmarks.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.FeatureGates;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Selecting workloads by name, and the gates a workload turns on. */
final class WorkloadsCommandTest {

  static Stream<Arguments> filters() {
    return Stream.of(
        Arguments.argumentSet(
            "one part",
            "pvs",
            List.of(
                "SchedulingInTreePVs/5000Nodes_2000Pods",
                "SchedulingMigratedInTreePVs/5000Nodes_5000Pods",
                "SchedulingCSIPVs/5000Nodes_5000Pods")),
        Arguments.argumentSet(
            "comma-separated parts, catalogue order",
            "SchedulingWithResourceClaim/,SchedulingBasic/5000Nodes_10000Pods",
            List.of(
                "SchedulingBasic/5000Nodes_10000Pods",
                "SchedulingWithResourceClaim/5000pods_500nodes")),
        Arguments.argumentSet(
            "empty parts ignored", "CSIPVs,,", List.of("SchedulingCSIPVs/5000Nodes_5000Pods")),
        Arguments.argumentSet("no match", "NoSuchWorkload", List.of()));
  }

  @ParameterizedTest
  @MethodSource("filters")
  void selectsByCommaSeparatedSubstrings(String filter, List<String> want) {
    assertThat(
            Workload.catalog().stream()
                .map(Workload::name)
                .filter(n -> WorkloadsCommand.matches(n, filter)))
        .containsExactlyElementsOf(want);
  }

  static Stream<Arguments> gates() {
    return Stream.of(
        Arguments.argumentSet(
            "a DRA workload turns DynamicResourceAllocation on, keeping the given gates",
            "SchedulingWithResourceClaimTemplate/5000pods_500nodes",
            FeatureGates.parse("OpportunisticBatching=true"),
            Map.of("OpportunisticBatching", true, "DynamicResourceAllocation", true)),
        Arguments.argumentSet(
            "even when it is turned off",
            "SchedulingWithResourceClaim/5000pods_500nodes",
            FeatureGates.parse("DynamicResourceAllocation=false"),
            Map.of("DynamicResourceAllocation", true)),
        Arguments.argumentSet(
            "other workloads keep the given gates",
            "SchedulingCSIPVs/5000Nodes_5000Pods",
            FeatureGates.defaults(),
            Map.of()));
  }

  @ParameterizedTest
  @MethodSource("gates")
  void workloadGates(String name, FeatureGates given, Map<String, Boolean> want) {
    Workload w =
        Workload.catalog().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();

    assertThat(WorkloadRunner.gates(w, given).explicit()).isEqualTo(want);
  }

  static Stream<Arguments> commandLines() {
    return Stream.of(
        Arguments.argumentSet(
            "--help prints the usage", new String[] {"--help"}, 0, WorkloadsCommand.USAGE + "\n"),
        Arguments.argumentSet(
            "a size that is not a number",
            new String[] {"--pods", "ten"},
            2,
            "--pods: not a whole number: ten\n"),
        Arguments.argumentSet(
            "an unknown option",
            new String[] {"--podz", "10"},
            2,
            "unknown option --podz (see --help)\n"),
        Arguments.argumentSet(
            "an option without its value",
            new String[] {"--workload"},
            2,
            "missing value for --workload\n"));
  }

  @ParameterizedTest
  @MethodSource("commandLines")
  void commandLineMistakesAreNamedWithoutRunningAnything(
      String[] args, int wantCode, String wantOut) throws Exception {
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
    int code =
        WorkloadsCommand.run(
            args, new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));

    assertThat(List.of(code, buf.toString(java.nio.charset.StandardCharsets.UTF_8)))
        .isEqualTo(List.of(wantCode, wantOut));
  }
}
