package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bundled example clusters simulate as their comments say. */
final class ExamplesSimulationTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static Map<String, String> statuses(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    assertThat(code).as(err.toString()).isZero();
    Map<String, String> m = new LinkedHashMap<>();
    for (JsonElement e :
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray("pods")) {
      JsonObject p = e.getAsJsonObject();
      m.put(
          p.get("namespace").getAsString() + "/" + p.get("name").getAsString(),
          p.get("status").getAsString());
    }
    return m;
  }

  @Test
  void quickstart() {
    Path file = ROOT.resolve("examples/clusters/quickstart.yaml");
    assertThat(Files.exists(file)).isTrue();
    Map<String, String> s = statuses("simulate", file.toString(), "-o", "json");
    assertThat(s)
        .containsEntry("shop/checkout", "Scheduled")
        .containsEntry("batch/reindex", "Unschedulable");
    assertThat(s.values().stream().filter("Scheduled"::equals).count()).isEqualTo(18);
  }

  @Test
  void gangsAreAllOrNothing() {
    Map<String, String> s =
        statuses(
            "simulate",
            ROOT.resolve("examples/clusters/gangs.yaml").toString(),
            "--config",
            ROOT.resolve("examples/configs/coscheduling.yaml").toString(),
            "-o",
            "json");
    assertThat(s)
        .containsEntry("ml/resnet-0", "Scheduled")
        .containsEntry("ml/resnet-3", "Scheduled")
        .containsEntry("ml/llm-0", "Unschedulable")
        .containsEntry("ml/llm-3", "Unschedulable");
  }

  @Test
  void kubectlOutputIsReadAsItIs() throws Exception {
    Path dump =
        Path.of(ExamplesSimulationTest.class.getResource("/kubectl-get-nodes-pods.yaml").toURI());
    // a `kubectl get nodes,pods -A -o yaml` List: managedFields, status, runtimeHandlers, ...
    Map<String, String> s = statuses("simulate", dump.toString(), "-o", "json");
    assertThat(s)
        .containsExactly(
            Map.entry("default/pending-one", "Scheduled"),
            Map.entry("kube-system/coredns-674b8bbfcf-x2x9q", "Bound"));
  }
}
