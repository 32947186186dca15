package io.kubesched.cli.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubesched.cli.ExtenderCommand;
import io.kubesched.cli.Main;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/**
 * {@code examples/extender}: the simulator, configured as the stock kube-scheduler with the
 * extender, drives {@code kubesched extender} end to end; the manifests' configurations load.
 */
final class ExtenderExampleTest {
  private static final Path DIR =
      Path.of("..").toAbsolutePath().normalize().resolve("examples/extender");

  /** Collects the command's output; {@link #await} waits for a fragment. */
  private static final class Output extends Writer {
    private final StringBuilder text = new StringBuilder();

    @Override
    public synchronized void write(char[] cbuf, int off, int len) {
      text.append(cbuf, off, len);
      notifyAll();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    synchronized String await(String fragment) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (text.indexOf(fragment) < 0) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        assertThat(left).as("waiting for %s in %s", fragment, text).isPositive();
        wait(left);
      }
      return text.toString();
    }
  }

  @Test
  void theSimulatedKubeSchedulerFollowsTheExtendersPoolPolicy(@TempDir Path tmp) throws Exception {
    ExtenderCommand command = new ExtenderCommand();
    CommandLine cl = new CommandLine(command);
    Output out = new Output();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                cl.execute(
                    "--config", DIR.resolve("extender-profile.yaml").toString(), "--port", "0"));
    Map<String, String> placed = new LinkedHashMap<>();
    String batchMessage;
    try {
      Matcher m = Pattern.compile("on (http://127\\.0\\.0\\.1:\\d+)").matcher(out.await("serving"));
      assertThat(m.find()).isTrue();
      Path config =
          Files.writeString(
              tmp.resolve("kube-scheduler.yaml"),
              Files.readString(DIR.resolve("kube-scheduler-simulated.yaml"))
                  .replace("http://127.0.0.1:8888", m.group(1)));
      StringWriter sim = new StringWriter();
      StringWriter simErr = new StringWriter();

      int code =
          Main.run(
              new PrintWriter(sim, true),
              new PrintWriter(simErr, true),
              "simulate",
              DIR.resolve("cluster.yaml").toString(),
              "--config",
              config.toString(),
              "-o",
              "json");

      assertThat(code).as(simErr.toString()).isZero();
      String message = null;
      for (JsonElement e :
          new Gson().fromJson(sim.toString(), JsonObject.class).getAsJsonArray("pods")) {
        JsonObject p = e.getAsJsonObject();
        String name = p.get("name").getAsString();
        placed.put(name, p.get("node").isJsonNull() ? null : p.get("node").getAsString());
        if (name.equals("batch")) {
          message = p.get("message").getAsString();
        }
      }
      batchMessage = message;
    } finally {
      command.stop();
    }
    assertThat(exit.get(30, TimeUnit.SECONDS)).as(err.toString()).isZero();
    // spot first while it has room, then on-demand; never the GPU pool
    assertThat(placed.values().stream().filter("spot-1"::equals).count()).isEqualTo(2);
    assertThat(placed.values().stream().filter("ondemand-1"::equals).count()).isEqualTo(1);
    assertThat(placed).containsEntry("batch", null);
    // the extender's reason joins kube-scheduler's own
    assertThat(batchMessage)
        .isEqualTo(
            "0/3 nodes are available: 1 node(s) didn't match scheduler-enforced node affinity, 2"
                + " Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not"
                + " helpful for scheduling, 2 No preemption victims found for incoming pod.");
  }

  @Test
  void theSidecarManifestsConfigurationsLoadAndAgree() throws Exception {
    PluginRegistry registry = PluginRegistry.discover();
    Map<String, String> data = null;
    String extenderArgs = null;
    for (Object doc :
        new Yaml().loadAll(Files.readString(DIR.resolve("kube-scheduler-with-extender.yaml")))) {
      @SuppressWarnings("unchecked")
      Map<String, Object> o = (Map<String, Object>) doc;
      if (o.get("kind").equals("ConfigMap")) {
        @SuppressWarnings("unchecked")
        Map<String, String> d = (Map<String, String>) o.get("data");
        data = d;
      }
      if (o.get("kind").equals("Deployment")) {
        extenderArgs = o.toString();
      }
    }
    assertThat(data).isNotNull();

    KubeSchedulerConfiguration stock =
        ConfigurationLoader.parse(data.get("kube-scheduler.yaml"), registry);
    KubeSchedulerConfiguration served =
        ConfigurationLoader.parse(data.get("extender.yaml"), registry);

    assertThat(stock.extenders()).hasSize(1);
    assertThat(stock.extenders().get(0).urlPrefix()).isEqualTo("http://127.0.0.1:8888");
    assertThat(stock.extenders().get(0).nodeCacheCapable()).isTrue();
    assertThat(served.profiles())
        .extracting(p -> p.schedulerName())
        .isEqualTo(List.of("pool-policy"));
    assertThat(extenderArgs).contains("--port=8888", "--in-cluster");
    Object fromFile = new Yaml().load(Files.readString(DIR.resolve("extender-profile.yaml")));
    assertThat(new Yaml().<Object>load(data.get("extender.yaml"))).isEqualTo(fromFile);
  }
}
