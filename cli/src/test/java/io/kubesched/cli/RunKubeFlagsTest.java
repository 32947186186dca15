package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.Watch;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** kube-scheduler's command line on {@code kubesched run}, end to end against the fake server. */
final class RunKubeFlagsTest {
  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);
  @TempDir Path dir;

  @AfterEach
  void close() {
    server.close();
  }

  static Path kubeconfig(Path dir, String url) throws Exception {
    return Files.writeString(dir.resolve("kubeconfig"), FakeApiServer.kubeconfig(url));
  }

  /** A running {@code kubesched run}. */
  record Running(
      RunCommand cmd, CompletableFuture<Integer> exit, StringWriter out, StringWriter err) {
    static Running start(String... args) throws Exception {
      RunCommand cmd = new RunCommand();
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CommandLine cl = new CommandLine(cmd);
      cl.setOut(new PrintWriter(out, true));
      cl.setErr(new PrintWriter(err, true));
      CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute(args));
      Running r = new Running(cmd, exit, out, err);
      assertThat(cmd.awaitStarted(10, TimeUnit.SECONDS) || exit.isDone())
          .as("started; stderr: %s", err)
          .isTrue();
      return r;
    }

    int stop() throws Exception {
      cmd.stop();
      return exit.get(10, TimeUnit.SECONDS);
    }
  }

  private V1Pod awaitBound() throws Exception {
    try (Watch<V1Pod> w =
        Watch.createWatch(
            client,
            core.listPodForAllNamespaces()
                .watch(true)
                .fieldSelector("spec.nodeName!=")
                .timeoutSeconds(10)
                .buildCall(null),
            new TypeToken<Watch.Response<V1Pod>>() {}.getType())) {
      return w.next().object;
    }
  }

  private void nodeAndPod(String schedulerName) throws Exception {
    core.createNode(
            MakeNode.node()
                .name("n1")
                .label("kubernetes.io/hostname", "n1")
                .capacity("cpu", "4", "memory", "8Gi", "pods", "110")
                .obj())
        .execute();
    V1Pod pod = MakePod.pod().name("p1").container("pause").req("cpu", "1").obj();
    pod.getSpec().schedulerName(schedulerName);
    core.createNamespacedPod("default", pod).execute();
  }

  @Test
  void theFieldsCommandLineIsAcceptedWithANoticePerIgnoredFlag() throws Exception {
    nodeAndPod("default-scheduler");
    String kc = kubeconfig(dir, "http://127.0.0.1:1").toString();
    Running r =
        Running.start(
            "--kubeconfig=" + kc,
            "--master=" + server.url(),
            "--kube-api-qps=200",
            "--kube-api-burst=300",
            "--kube-api-content-type=application/vnd.kubernetes.protobuf",
            "--leader-elect=false",
            "--profiling=false",
            "--v=2",
            "--authentication-kubeconfig=" + kc,
            "--authorization-kubeconfig=" + kc,
            "--secure-port=10259",
            "--bind-address=0.0.0.0",
            "--metrics-port=0");
    try {
      assertThat(awaitBound().getSpec().getNodeName()).isEqualTo("n1");
    } finally {
      assertThat(r.stop()).as("stderr: %s", r.err).isZero();
    }
    assertThat(r.err.toString().lines().filter(l -> l.startsWith("--")).toList())
        .containsExactly(
            "--secure-port: kubesched serves /healthz and /metrics over plain HTTP on"
                + " 127.0.0.1:0 (--metrics-address, --metrics-port), not HTTPS",
            "--bind-address: kubesched serves /healthz and /metrics over plain HTTP on"
                + " 127.0.0.1:0 (set --metrics-address instead)",
            "--profiling: kubesched serves no pprof endpoints",
            "--authentication-kubeconfig: not read; /healthz and /metrics are served without"
                + " authentication over plain HTTP on 127.0.0.1:0",
            "--authorization-kubeconfig: not read; /healthz and /metrics are served without"
                + " authorization over plain HTTP on 127.0.0.1:0",
            "--kube-api-content-type: kubesched's client sends application/json, not"
                + " application/vnd.kubernetes.protobuf");
    // --leader-elect=false: no lease taken, scheduling at once
    assertThat(r.out.toString()).doesNotContain("waiting for the lease");
  }

  @Test
  void leaderElectionIsOnByDefaultAsInKubeAndTheFlagsNameTheLease() throws Exception {
    nodeAndPod("default-scheduler");
    Running r =
        Running.start(
            "--kubeconfig",
            kubeconfig(dir, server.url()).toString(),
            "--leader-elect-resource-name=kubesched",
            "--leader-elect-resource-namespace=default",
            "--leader-elect-lease-duration=30s",
            "--metrics-port=0");
    try {
      assertThat(awaitBound().getSpec().getNodeName()).isEqualTo("n1");
      assertThat(r.out.toString()).contains("waiting for the lease default/kubesched as ");
      assertThat(
              new io.kubernetes.client.openapi.apis.CoordinationV1Api(client)
                  .readNamespacedLease("kubesched", "default")
                  .execute()
                  .getSpec()
                  .getLeaseDurationSeconds())
          .isEqualTo(30);
    } finally {
      assertThat(r.stop()).as("stderr: %s", r.err).isZero();
    }
  }

  @Test
  void eventsNameTheProfileAsTheirSource() throws Exception {
    nodeAndPod("my-scheduler");
    Path cfg =
        Files.writeString(
            dir.resolve("sched.yaml"),
            String.join(
                "\n",
                "apiVersion: kubescheduler.config.k8s.io/v1",
                "kind: KubeSchedulerConfiguration",
                "leaderElection:",
                "  leaderElect: false",
                "profiles:",
                "- schedulerName: default-scheduler",
                "- schedulerName: my-scheduler",
                ""));
    Running r =
        Running.start(
            "--config",
            cfg.toString(),
            "--kubeconfig",
            kubeconfig(dir, server.url()).toString(),
            "--metrics-port=0");
    List<CoreV1Event> events = new ArrayList<>();
    try {
      awaitBound();
      for (int i = 0; i < 200 && events.isEmpty(); i++) {
        events.addAll(core.listNamespacedEvent("default").execute().getItems());
        if (events.isEmpty()) {
          TimeUnit.MILLISECONDS.sleep(25);
        }
      }
    } finally {
      assertThat(r.stop()).as("stderr: %s", r.err).isZero();
    }
    assertThat(events)
        .extracting(
            e -> e.getReason(),
            e -> e.getSource().getComponent(),
            e -> e.getReportingComponent(),
            e -> e.getMessage())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "Scheduled",
                "my-scheduler",
                "my-scheduler",
                "Successfully assigned default/p1 to n1"));
  }

  @Test
  void writeConfigToWritesTheDefaultedConfigurationWithTheFlagsAndExits() throws Exception {
    Path to = dir.resolve("written.yaml");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "run",
            "--write-config-to",
            to.toString(),
            "--leader-elect=false",
            "--kube-api-qps=200",
            "--kube-api-burst=300");
    assertThat(code).as("stderr: %s", err).isZero();
    assertThat(out.toString()).isEqualTo("wrote the configuration to " + to + "\n");
    KubeSchedulerConfiguration written = ConfigurationLoader.load(to, PluginRegistry.discover());
    assertThat(written.leaderElection().leaderElect()).isFalse();
    assertThat(written.clientConnection())
        .isEqualTo(
            new KubeSchedulerConfiguration.ClientConnection(
                "", "", "application/vnd.kubernetes.protobuf", 200f, 300));
    assertThat(written.profiles())
        .isEqualTo(ConfigurationLoader.defaults(PluginRegistry.discover()).profiles());
  }

  @Test
  void aBadLeaderElectionDurationIsAUsageErrorInPflagsWords() {
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            "run",
            "--leader-elect-renew-deadline=ten");
    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "invalid argument \"ten\" for \"--leader-elect-renew-deadline\" flag: time: invalid"
                + " duration \"ten\"\n");
  }

  @Test
  void sigtermDrainsAndExitsZero() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "run",
                "--kubeconfig",
                kubeconfig(dir, server.url()).toString(),
                "--leader-elect=false",
                "--metrics-port=0")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.txt").toFile())
            .start();
    try {
      for (int i = 0;
          i < 400 && !Files.readString(dir.resolve("out.txt")).contains("scheduling the pods");
          i++) {
        TimeUnit.MILLISECONDS.sleep(50);
      }
      assertThat(Files.readString(dir.resolve("out.txt"))).contains("scheduling the pods");
      p.destroy(); // SIGTERM
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(dir.resolve("out.txt"))).isZero();
      assertThat(Files.readString(dir.resolve("out.txt"))).endsWith("stopped\n");
    } finally {
      p.destroyForcibly();
    }
  }

  @SuppressWarnings("unchecked")
  static List<String> containerArgs(String file) throws Exception {
    for (Object doc :
        new org.yaml.snakeyaml.Yaml()
            .loadAll(Files.readString(Path.of("../examples/kubernetes", file)))) {
      java.util.Map<String, Object> m = (java.util.Map<String, Object>) doc;
      java.util.Map<String, Object> spec = (java.util.Map<String, Object>) m.get("spec");
      if ("Deployment".equals(m.get("kind"))) {
        spec =
            (java.util.Map<String, Object>)
                ((java.util.Map<String, Object>) spec.get("template")).get("spec");
      } else if (!"Pod".equals(m.get("kind"))) {
        continue;
      }
      List<java.util.Map<String, Object>> containers =
          (List<java.util.Map<String, Object>>) spec.get("containers");
      return (List<String>) containers.get(0).get("args");
    }
    throw new AssertionError("no pod in " + file);
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"kubesched.yaml", "kube-scheduler-static-pod.yaml"})
  void theManifestsCommandLinesAreAcceptedAndOpenTheirProbes(String file) throws Exception {
    List<String> args = containerArgs(file);
    assertThat(args.get(0)).isEqualTo("run");
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs(args.subList(1, args.size()).toArray(String[]::new));
    assertThat(cmd.kube.leaderElect).isTrue();
    assertThat(cmd.metricsAddress).isEqualTo(file.startsWith("kube-") ? "127.0.0.1" : "0.0.0.0");
  }
}
