package io.kubesched.benchmarks.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The comparison mode: medians, reading a child's JSON, and a real run of two child JVMs. */
final class BaselineComparisonTest {

  static Stream<Arguments> medians() {
    return Stream.of(
        Arguments.argumentSet("odd count", List.of(3.0, 1.0, 2.0), 2.0),
        Arguments.argumentSet(
            "even count: mean of the middle two", List.of(4.0, 1.0, 2.0, 3.0), 2.5),
        Arguments.argumentSet("failed rounds left out", List.of(5.0, Double.NaN, 1.0, 3.0), 3.0),
        Arguments.argumentSet("every round failed", List.of(Double.NaN, Double.NaN), Double.NaN));
  }

  @ParameterizedTest
  @MethodSource("medians")
  void median(List<Double> values, double want) {
    assertThat(Double.valueOf(BaselineComparison.median(values))).isEqualTo(Double.valueOf(want));
  }

  static Stream<Arguments> jsons() {
    String two =
        "[{\"workload\":\"TopologySpreading/5000Nodes_5000Pods\",\"podsPerSecAvg\":5095.0,"
            + "\"verified\":true},"
            + "{\"workload\":\"PreferredTopologySpreading/5000Nodes_5000Pods\",\"podsPerSecAvg\":"
            + "4854.5,\"verified\":false}]";
    return Stream.of(
        Arguments.argumentSet(
            "exact name among several",
            two,
            "TopologySpreading/5000Nodes_5000Pods",
            Optional.of(Optional.of(5095.0))),
        Arguments.argumentSet(
            "failed verification",
            two,
            "PreferredTopologySpreading/5000Nodes_5000Pods",
            Optional.of(Optional.empty())),
        Arguments.argumentSet(
            "not written yet", two, "SchedulingBasic/5000Nodes_10000Pods", Optional.empty()),
        Arguments.argumentSet(
            "half-written file", "[{\"workload\":\"Topo", "TopologySpreading", Optional.empty()));
  }

  @ParameterizedTest
  @MethodSource("jsons")
  void result(String json, String workload, Optional<Optional<Double>> want) {
    assertThat(BaselineComparison.result(json, workload)).isEqualTo(want);
  }

  static Stream<Arguments> childLogs() {
    String name = "SchedulingCSIPVs/5000Nodes_5000Pods";
    return Stream.of(
        Arguments.argumentSet(
            "an older build without the workload", List.of("no workload matches " + name), true),
        Arguments.argumentSet(
            "another workload missing",
            List.of("no workload matches SchedulingBasic/5000Nodes_10000Pods"),
            false),
        Arguments.argumentSet(
            "a run that failed otherwise", List.of("workload nodes", "FAILURE: x"), false));
  }

  @ParameterizedTest
  @MethodSource("childLogs")
  void unknownWorkloadIsRecognisedFromTheChildsLog(
      List<String> lines, boolean want, @TempDir Path dir) throws Exception {
    Path log = dir.resolve("run.log");
    Files.write(log, lines);

    assertThat(BaselineComparison.unknownWorkload(log, "SchedulingCSIPVs/5000Nodes_5000Pods"))
        .isEqualTo(want);
  }

  static Stream<Arguments> comparisons() {
    return Stream.of(
        Arguments.argumentSet(
            "not in the baseline: this build's rounds only, not a failure",
            new BaselineComparison.Comparison(
                "SchedulingCSIPVs/5000Nodes_5000Pods",
                List.of(900.0, 1000.0, 1100.0),
                List.of(),
                List.of(2000.0, 2000.0, 2000.0),
                List.of(),
                true),
            true,
            "SchedulingCSIPVs/5000Nodes_5000Pods                        1000  not in base       -"
                + "       2000          -       -  900 1000 1100 | "),
        Arguments.argumentSet(
            "not in the baseline and a round of this build failed",
            new BaselineComparison.Comparison(
                "SchedulingCSIPVs/5000Nodes_5000Pods",
                List.of(900.0, Double.NaN),
                List.of(),
                List.of(2000.0, Double.NaN),
                List.of(),
                true),
            false,
            "SchedulingCSIPVs/5000Nodes_5000Pods                         900  not in base       -"
                + "       2000          -       -  900 - | "));
  }

  @ParameterizedTest
  @MethodSource("comparisons")
  void workloadNotInTheBaseline(BaselineComparison.Comparison c, boolean ok, String row) {
    assertThat(c.ok()).isEqualTo(ok);
    assertThat(BaselineComparison.summaryRow(c)).isEqualTo(row);
  }

  @Test
  void commandRunsTheWorkloadsSubCommandOfTheOtherClasspath() {
    BaselineComparison.Launch launch =
        new BaselineComparison.Launch(
            "/jdk/bin/java", List.of("-Xmx2g"), "own.jar", "base.jar", 3, Duration.ofMinutes(1));

    assertThat(
            BaselineComparison.command(
                launch,
                "base.jar",
                "SchedulingBasic/5000Nodes_10000Pods",
                List.of("--nodes", "50", "--no-warmup"),
                Path.of("/tmp/x.json")))
        .containsExactly(
            "/jdk/bin/java",
            "-Xmx2g",
            "-cp",
            "base.jar",
            "io.kubesched.benchmarks.Main",
            "workloads",
            "--workload",
            "SchedulingBasic/5000Nodes_10000Pods",
            "--nodes",
            "50",
            "--no-warmup",
            "--json",
            "/tmp/x.json");
  }

  @Test
  void comparesTwoBuildsInAlternatingChildJvms() throws Exception {
    // Both sides are this build here; what is checked is the alternation and the summary.
    String cp = System.getProperty("java.class.path");
    BaselineComparison.Launch launch =
        new BaselineComparison.Launch(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            List.of("-Xmx256m"),
            cp,
            cp,
            2,
            Duration.ofMinutes(2));
    ByteArrayOutputStream buf = new ByteArrayOutputStream();

    List<BaselineComparison.Comparison> results =
        BaselineComparison.run(
            List.of("TopologySpreading/5000Nodes_5000Pods"),
            List.of("--nodes", "5", "--init-pods", "5", "--pods", "10", "--no-warmup"),
            List.of("--nodes", "5", "--init-pods", "5", "--pods", "10", "--no-warmup"),
            launch,
            new PrintStream(buf, true, StandardCharsets.UTF_8));

    String out = buf.toString(StandardCharsets.UTF_8);
    assertThat(results).hasSize(1);
    assertThat(results.get(0).ok()).as(out).isTrue();
    assertThat(results.get(0).workload()).isEqualTo("TopologySpreading/5000Nodes_5000Pods");
    assertThat(results.get(0).ratio()).isPositive();
    assertThat(
            Arrays.stream(out.split("\n"))
                .filter(l -> l.startsWith("round"))
                .map(l -> l.substring(0, 20).trim()))
        .containsExactly(
            "round 1  this build", "round 1  baseline", "round 2  this build", "round 2  baseline");
  }
}
