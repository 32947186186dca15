package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.Watch;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class RunCommandTest {
  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);
  @TempDir Path dir;

  @AfterEach
  void close() {
    server.close();
  }

  private Path kubeconfig() throws Exception {
    return server.writeKubeconfig(dir.resolve("kubeconfig"));
  }

  private Path config() throws Exception {
    return Files.writeString(
        dir.resolve("sched.yaml"),
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
  }

  @Test
  void runSchedulesPendingPodsAndServesHealthAndMetrics() throws Exception {
    core.createNode(
            MakeNode.node()
                .name("n1")
                .label("kubernetes.io/hostname", "n1")
                .capacity("cpu", "4", "memory", "8Gi", "pods", "110")
                .obj())
        .execute();
    core.createNamespacedPod(
            "default", MakePod.pod().name("p1").container("pause").req("cpu", "1").obj())
        .execute();
    RunCommand cmd = new RunCommand();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(cmd);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    String configFile = config().toString();
    String kubeconfigFile = kubeconfig().toString();
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                cl.execute(
                    "--config",
                    configFile,
                    "--kubeconfig",
                    kubeconfigFile,
                    "--metrics-port",
                    "0",
                    "--metrics-address",
                    "127.0.0.1"));
    try {
      assertThat(cmd.awaitStarted(5, TimeUnit.SECONDS)).as("started; stderr: %s", err).isTrue();
      try (Watch<V1Pod> w =
          Watch.createWatch(
              client,
              core.listPodForAllNamespaces()
                  .watch(true)
                  .fieldSelector("spec.nodeName!=")
                  .timeoutSeconds(5)
                  .buildCall(null),
              new TypeToken<Watch.Response<V1Pod>>() {}.getType())) {
        V1Pod bound = w.next().object;
        assertThat(bound.getMetadata().getName()).isEqualTo("p1");
        assertThat(bound.getSpec().getNodeName()).isEqualTo("n1");
      }
      HttpClient http = HttpClient.newHttpClient();
      String base = "http://127.0.0.1:" + cmd.metricsPort();
      HttpResponse<String> health =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).isEqualTo("ok");
      HttpResponse<String> metrics =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body())
          .contains("# TYPE scheduler_schedule_attempts_total counter")
          .contains(
              "scheduler_schedule_attempts_total{profile=\"default-scheduler\","
                  + "result=\"scheduled\"} 1")
          // kube-scheduler's histograms with its bucket bounds (ExponentialBuckets(0.001, 2, 15))
          .contains("# TYPE scheduler_scheduling_attempt_duration_seconds histogram")
          .contains(
              "scheduler_scheduling_attempt_duration_seconds_bucket{profile=\"default-scheduler\","
                  + "result=\"scheduled\",le=\"0.001\"} ",
              "scheduler_scheduling_attempt_duration_seconds_bucket{profile=\"default-scheduler\","
                  + "result=\"scheduled\",le=\"16.384\"} 1\n",
              "scheduler_scheduling_attempt_duration_seconds_bucket{profile=\"default-scheduler\","
                  + "result=\"scheduled\",le=\"+Inf\"} 1\n")
          .contains("# TYPE scheduler_framework_extension_point_duration_seconds histogram")
          .contains("scheduler_framework_extension_point_duration_seconds_bucket{")
          .doesNotContainPattern("# TYPE scheduler_\\S+ summary")
          // the JVM's metrics on the same endpoint
          .contains("# TYPE jvm_memory_used_bytes gauge");
    } finally {
      cmd.stop();
    }
    assertThat(exit.get(5, TimeUnit.SECONDS)).as("stderr: %s", err).isZero();
    assertThat(out.toString())
        .startsWith("scheduling the pods of [default-scheduler] on " + server.url())
        .endsWith("stopped\n");
  }

  @Test
  void withLeaderElectionTheLeaseHolderSchedulesAndReleasesTheLeaseOnStop() throws Exception {
    core.createNode(
            MakeNode.node()
                .name("n1")
                .label("kubernetes.io/hostname", "n1")
                .capacity("cpu", "4", "memory", "8Gi", "pods", "110")
                .obj())
        .execute();
    core.createNamespacedPod(
            "default", MakePod.pod().name("p1").container("pause").req("cpu", "1").obj())
        .execute();
    RunCommand cmd = new RunCommand();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(cmd);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    String configFile = config().toString();
    String kubeconfigFile = kubeconfig().toString();
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                cl.execute(
                    "--config",
                    configFile,
                    "--kubeconfig",
                    kubeconfigFile,
                    "--leader-elect",
                    "--metrics-port",
                    "0",
                    "--metrics-address",
                    "127.0.0.1"));
    try {
      assertThat(cmd.awaitStarted(5, TimeUnit.SECONDS)).as("started; stderr: %s", err).isTrue();
      try (Watch<V1Pod> w =
          Watch.createWatch(
              client,
              core.listPodForAllNamespaces()
                  .watch(true)
                  .fieldSelector("spec.nodeName!=")
                  .timeoutSeconds(5)
                  .buildCall(null),
              new TypeToken<Watch.Response<V1Pod>>() {}.getType())) {
        assertThat(w.next().object.getSpec().getNodeName()).isEqualTo("n1");
      }
      V1LeaseSpec lease = lease();
      assertThat(lease.getHolderIdentity()).contains("_");
      assertThat(lease.getLeaseDurationSeconds()).isEqualTo(15);
      assertThat(out.toString())
          .contains(
              "waiting for the lease kube-system/kube-scheduler as " + lease.getHolderIdentity())
          .contains("became the leader: scheduling");
    } finally {
      cmd.stop();
    }
    assertThat(exit.get(5, TimeUnit.SECONDS)).as("stderr: %s", err).isZero();
    assertThat(lease().getHolderIdentity()).as("released").isNull();
  }

  @Test
  void aLeaseHeldByAnotherReplicaKeepsTheCommandWaiting() throws Exception {
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
    new CoordinationV1Api(client)
        .createNamespacedLease(
            "kube-system",
            new V1Lease()
                .metadata(new V1ObjectMeta().name("kube-scheduler"))
                .spec(
                    new V1LeaseSpec()
                        .holderIdentity("other")
                        .leaseDurationSeconds(15)
                        .acquireTime(now)
                        .renewTime(now)))
        .execute();
    core.createNode(MakeNode.node().name("n1").capacity("cpu", "4", "pods", "110").obj()).execute();
    core.createNamespacedPod(
            "default", MakePod.pod().name("p1").container("pause").req("cpu", "1").obj())
        .execute();
    RunCommand cmd = new RunCommand();
    StringWriter out = new StringWriter();
    CommandLine cl = new CommandLine(cmd);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(new StringWriter(), true));
    String configFile = config().toString();
    String kubeconfigFile = kubeconfig().toString();
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                cl.execute(
                    "--config",
                    configFile,
                    "--kubeconfig",
                    kubeconfigFile,
                    "--leader-elect",
                    "--metrics-port",
                    "0",
                    "--metrics-address",
                    "127.0.0.1"));
    try {
      assertThat(cmd.awaitStarted(5, TimeUnit.SECONDS)).isTrue();
      assertThat(out.toString()).contains("the lease is held by other: standing by");
      assertThat(core.readNamespacedPod("p1", "default").execute().getSpec().getNodeName())
          .isNull();
      assertThat(lease().getHolderIdentity()).isEqualTo("other");
    } finally {
      cmd.stop();
    }
    assertThat(exit.get(5, TimeUnit.SECONDS)).isZero();
    assertThat(out.toString()).doesNotContain("became the leader");
    assertThat(lease().getHolderIdentity()).isEqualTo("other");
  }

  @Test
  void runIsASubcommandOfKubesched() {
    StringWriter out = new StringWriter();
    int code =
        Main.run(
            new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), "run", "--help");
    assertThat(code).isZero();
    assertThat(out.toString()).startsWith("Usage: kubesched run ").contains("--leader-elect");
  }

  @Test
  void aMissingKubeconfigIsAUsageError() throws Exception {
    StringWriter err = new StringWriter();
    Path missing = dir.resolve("missing");
    int code =
        Main.run(
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            "run",
            "--config",
            config().toString(),
            "--kubeconfig",
            missing.toString());
    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString()).startsWith("cannot configure the API client: " + missing);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theExampleDeploymentCarriesAValidConfiguration() throws Exception {
    String text = Files.readString(Path.of("../examples/kubernetes/kubesched.yaml"));
    String sched = null;
    for (Object doc : new org.yaml.snakeyaml.Yaml().loadAll(text)) {
      java.util.Map<String, Object> m = (java.util.Map<String, Object>) doc;
      if ("ConfigMap".equals(m.get("kind"))) {
        sched = ((java.util.Map<String, String>) m.get("data")).get("sched.yaml");
      }
    }
    io.kubesched.core.config.KubeSchedulerConfiguration cfg =
        io.kubesched.core.config.ConfigurationLoader.parse(
            sched, io.kubesched.core.runtime.PluginRegistry.discover());
    assertThat(cfg.profiles()).extracting(p -> p.schedulerName()).containsExactly("kubesched");
    assertThat(cfg.leaderElection().resourceName()).isEqualTo("kubesched");
    assertThat(cfg.leaderElection().resourceNamespace()).isEqualTo("kube-system");
  }

  private V1LeaseSpec lease() throws Exception {
    return new CoordinationV1Api(client)
        .readNamespacedLease("kube-scheduler", "kube-system")
        .execute()
        .getSpec();
  }
}
