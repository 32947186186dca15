package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders the HTML report in headless Chromium (Debian's {@code chromium} package) and checks that
 * a page was produced; skipped where Chromium is not installed.
 */
final class HtmlReportRenderTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  @Test
  void rendersInHeadlessChromium(@TempDir Path dir) throws Exception {
    assumeTrue(Files.isExecutable(CHROMIUM), "Chromium is not installed; skipping the render");
    Path cluster = dir.resolve("cluster.yaml");
    Files.writeString(cluster, SimulateCommandTest.CLUSTER);
    Path html = dir.resolve("report.html");
    int code =
        Main.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()),
            "simulate",
            cluster.toString(),
            "-o",
            "html",
            "--output-file",
            html.toString());
    assertThat(code).isZero();
    Path png = dir.resolve("report.png");
    Path dom = dir.resolve("dom.html");
    Process p =
        new ProcessBuilder(
                List.of(
                    CHROMIUM.toString(),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--user-data-dir=" + dir.resolve("profile"),
                    "--window-size=1200,900",
                    "--screenshot=" + png,
                    "--dump-dom",
                    html.toUri().toString()))
            .redirectOutput(dom.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("chromium finished").isTrue();
    assertThat(Files.readString(dom)).contains("kubesched simulation", "node-a", "default/big");
    assertThat(Files.exists(png) && Files.size(png) > 1000).as("screenshot written").isTrue();
  }
}
