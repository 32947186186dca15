package io.kubesched.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Human-scale quantities in the table and HTML reports; the HTML explain table. */
final class HumanReportsTest {
  static Stream<Arguments> quantities() {
    return Stream.of(
        Arguments.of("kubectl's Ki memory", "memory", "32806484Ki", "31.3Gi"),
        Arguments.of("exact Gi stays", "memory", "16Gi", "16Gi"),
        Arguments.of("exact Mi stays", "memory", "128Mi", "128Mi"),
        Arguments.of("plain bytes", "memory", "1073741824", "1Gi"),
        Arguments.of("under 1Ki", "memory", "512", "512"),
        Arguments.of("decimal suffix", "memory", "1G", "953.7Mi"),
        Arguments.of("rounds up to the next unit", "memory", "1048575Ki", "1Gi"),
        Arguments.of("zero", "memory", "0", "0"),
        Arguments.of("ephemeral storage", "ephemeral-storage", "20971520Ki", "20Gi"),
        Arguments.of("cpu as kube writes it", "cpu", "3500m", "3500m"),
        Arguments.of("not a quantity", "memory", "lots", "lots"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("quantities")
  void humanScale(String name, String resource, String quantity, String want) {
    assertThat(HumanQuantity.of(resource, quantity)).isEqualTo(want);
  }

  private static final SimulationReport REPORT =
      new SimulationReport(
          List.of(new SimulationReport.PodResult("default", "p", "n2", "Scheduled", null, null)),
          List.of(
              new SimulationReport.NodeResult(
                  "n1",
                  List.of(),
                  Map.of("cpu", "4", "memory", "32806484Ki", "pods", "110"),
                  Map.of("cpu", "0", "memory", "0"),
                  0,
                  0),
              new SimulationReport.NodeResult(
                  "n2",
                  List.of("default/p"),
                  Map.of("cpu", "4", "memory", "32806484Ki", "pods", "110"),
                  Map.of("cpu", "250m", "memory", "524288Ki"),
                  6.25,
                  1.6)),
          List.of(),
          new SimulationReport.Explain(
              "default/p",
              "n2",
              List.of(
                  new SimulationReport.ExplainNode(
                      "n1",
                      new SimulationReport.FilterOutcome(
                          "Unschedulable", "NodeResourcesFit", List.of("Insufficient cpu")),
                      null,
                      null),
                  new SimulationReport.ExplainNode(
                      "n2",
                      new SimulationReport.FilterOutcome("Success", null, List.of()),
                      scores(),
                      230L)),
              null),
          List.of());

  private static Map<String, Long> scores() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("NodeResourcesFit", 97L);
    m.put("TaintToleration", 100L);
    return m;
  }

  @Test
  void tableShowsMemoryAtHumanScale() {
    assertThat(TableReport.render(REPORT))
        .contains("n1    0/110  0/4 (0%)       0/31.3Gi (0%)")
        .contains("n2    1/110  250m/4 (6%)    512Mi/31.3Gi (2%)");
  }

  @Test
  void htmlShowsPodCountsHumanMemoryAndTheTraceAsATable() {
    String html = HtmlReport.render(REPORT);

    assertThat(html)
        .contains("<tr><td>n2</td><td>1 / 110</td><td>250m / 4</td>")
        .contains("512Mi / 31.3Gi")
        .contains("<h2>Scheduling trace of default/p</h2>\n<p>Selected n2.</p>")
        .contains(
            "<tr><th>Node</th><th>Filter</th><th>NodeResourcesFit</th><th>TaintToleration</th>"
                + "<th>Total</th></tr>")
        .contains(
            "<tr><td>n1</td><td class=\"Unschedulable\">rejected by NodeResourcesFit"
                + " (Unschedulable): Insufficient cpu</td><td></td><td></td><td></td></tr>")
        .contains(
            "<tr><td>n2</td><td class=\"Scheduled\">feasible</td><td>97</td><td>100</td>"
                + "<td>230</td></tr>")
        .doesNotContain("<pre>");
  }

  @Test
  void jsonKeepsKubesCanonicalForm() {
    assertThat(JsonReport.render(REPORT)).contains("\"memory\": \"32806484Ki\"");
  }
}
