package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * Runs the plugin in kubesched's simulator, as {@code kubesched simulate cluster.yaml --config
 * config.yaml} does: the plugin is found on the class path through its services file.
 */
class SimulationTest {
  @Test
  void podsGoToTheLabelledNode() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int code =
        Main.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "simulate",
            "cluster.yaml",
            "--config",
            "config.yaml");

    assertThat(err.toString()).isEmpty();
    assertThat(code).isZero();
    assertThat(out.toString())
        .containsPattern("default/web-0 +preferred +Scheduled")
        .containsPattern("default/web-1 +preferred +Scheduled");
  }
}
