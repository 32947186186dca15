package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole engine in the simulator: examples/clusters/reservation.yaml, where a Deployment pod is
 * deleted and recreated (kubesched.io/simulate-delete-after) while another pod waits for room.
 */
final class SimulationReservationTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final String CLUSTER =
      ROOT.resolve("examples/clusters/reservation.yaml").toString();
  private static final String FULL =
      "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No"
          + " preemption victims found for incoming pod.";
  private static final String DELETED =
      "pod was deleted (kubesched.io/simulate-delete-after: 30s, it ran on n1)";

  @TempDir Path dir;

  /** Runs {@code simulate -o json} and returns "status node message" of each pod. */
  private static Map<String, String> simulate(String... extra) {
    List<String> args = new ArrayList<>(List.of("simulate", CLUSTER, "-o", "json"));
    args.addAll(List.of(extra));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    assertThat(code).as(err.toString()).isZero();
    Map<String, String> m = new LinkedHashMap<>();
    for (JsonElement e :
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray("pods")) {
      JsonObject p = e.getAsJsonObject();
      m.put(
          p.get("namespace").getAsString() + "/" + p.get("name").getAsString(),
          p.get("status").getAsString()
              + " "
              + (p.has("node") && !p.get("node").isJsonNull() ? p.get("node").getAsString() : "-")
              + " "
              + (p.has("message") && !p.get("message").isJsonNull()
                  ? p.get("message").getAsString()
                  : "-"));
    }
    return m;
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "with the reservation controller the replacement gets its place back",
            List.of("--config", ROOT.resolve("examples/configs/reservation.yaml").toString()),
            Map.of(
                "batch/filler",
                "Bound n2 -",
                "shop/web-0",
                "Error - " + DELETED,
                "batch/intruder",
                "Unschedulable - " + FULL,
                "shop/web-0-recreated",
                "Scheduled n1 -")),
        Arguments.argumentSet(
            "without it the waiting pod takes the place",
            List.of(),
            Map.of(
                "batch/filler",
                "Bound n2 -",
                "shop/web-0",
                "Error - " + DELETED,
                "batch/intruder",
                "Scheduled n1 -",
                "shop/web-0-recreated",
                "Unschedulable - " + FULL)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void reservation(List<String> args, Map<String, String> want) {
    assertThat(simulate(args.toArray(String[]::new))).isEqualTo(want);
  }

  @Test
  void anInvalidScriptedDelayRefusesThePod() throws Exception {
    Path bad =
        Files.writeString(
            dir.resolve("bad.yaml"),
            """
            apiVersion: v1
            kind: Pod
            metadata:
              name: p
              annotations: {kubesched.io/simulate-delete-after: soon}
            spec:
              containers: [{name: c, image: busybox}]
            """);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "simulate",
            bad.toString(),
            "-o",
            "json");
    assertThat(code).isZero();
    assertThat(err.toString())
        .contains(
            "pod default/p was refused: Pod \"p\" is invalid:"
                + " metadata.annotations[kubesched.io/simulate-delete-after]: Invalid value:"
                + " \"soon\": must be a duration such as 10s or 1m30s");
  }
}
