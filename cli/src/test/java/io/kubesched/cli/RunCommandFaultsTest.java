package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@code kubesched run} (and so {@code KubernetesCluster}) against a {@link FakeApiServer} that
 * injects one kind of fault while pods arrive: every schedulable pod ends bound exactly once (the
 * server refuses a second binding), no node is over-committed, and {@code /healthz} answers 200
 * throughout.
 */
final class RunCommandFaultsTest {
  private static final int NODES = 3;
  private static final int PODS = 12;

  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);
  @TempDir Path dir;

  @AfterEach
  void close() {
    server.close();
  }

  static Stream<Arguments> faults() {
    return Stream.of(
        fault("binding fails with 500", s -> s.faults().failNext("create", "pods/binding", 3, 500)),
        fault(
            "binding conflicts (409)", s -> s.faults().failNext("create", "pods/binding", 2, 409)),
        fault(
            "binding throttled (429)", s -> s.faults().failNext("create", "pods/binding", 3, 429)),
        fault(
            "binding response lost after the write",
            s -> s.faults().loseNextResponses("create", "pods/binding", 2)),
        fault("watch streams cut", FakeApiServer::cutWatches, 0),
        fault(
            "watch streams cut, re-watch expired (410)",
            s -> {
              s.faults().failNext("watch", "pods", 1, 410);
              s.cutWatches();
            }),
        fault(
            "watch streams cut, relist fails with 500",
            s -> {
              s.faults().failNext("list", "pods", 2, 500).failNext("watch", "pods", 1, 500);
              s.cutWatches();
            }),
        fault("latency 30 ms", s -> s.faults().latency(Duration.ofMillis(30)), 0),
        fault("unavailable for 2 s", s -> s.faults().unavailableFor(Duration.ofSeconds(2))));
  }

  private static Arguments fault(String name, Consumer<FakeApiServer> inject) {
    return fault(name, inject, 1);
  }

  /** A fault case; at least {@code minInjected} faults must have been served during it. */
  private static Arguments fault(String name, Consumer<FakeApiServer> inject, int minInjected) {
    return Arguments.of(name, inject, minInjected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("faults")
  void everyPodIsBoundOnceWithoutOverCommitAndHealthzAnswers(
      String name, Consumer<FakeApiServer> inject, int minInjected) throws Exception {
    for (int i = 0; i < NODES; i++) {
      core.createNode(
              MakeNode.node()
                  .name("n" + i)
                  .label("kubernetes.io/hostname", "n" + i)
                  .capacity("cpu", "2", "memory", "8Gi", "pods", "110")
                  .obj())
          .execute();
    }
    RunCommand cmd = new RunCommand();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(cmd);
    cl.setOut(new PrintWriter(new StringWriter(), true));
    cl.setErr(new PrintWriter(err, true));
    String kubeconfig = kubeconfig().toString();
    String config =
        Files.writeString(
                dir.resolve("sched.yaml"),
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n")
            .toString();
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                cl.execute(
                    "--config",
                    config,
                    "--kubeconfig",
                    kubeconfig,
                    "--metrics-port",
                    "0",
                    "--metrics-address",
                    "127.0.0.1"));
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    try {
      assertThat(cmd.awaitStarted(30, TimeUnit.SECONDS)).as("started; stderr: %s", err).isTrue();
      URI healthz = URI.create("http://127.0.0.1:" + cmd.metricsPort() + "/healthz");
      for (int i = 0; i < PODS / 2; i++) {
        createPod("p" + i);
      }
      inject.accept(server);
      for (int i = PODS / 2; i < PODS; i++) {
        createPod("p" + i);
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      List<V1Pod> pods = List.of();
      while (System.nanoTime() < deadline) {
        HttpResponse<String> health =
            http.send(
                HttpRequest.newBuilder(healthz).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).as("/healthz during %s", name).isEqualTo(200);
        pods = listPods();
        if (pods.size() == PODS && pods.stream().allMatch(p -> p.getSpec().getNodeName() != null)) {
          break;
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
      }
      assertThat(server.faults().injected())
          .as("faults served")
          .isGreaterThanOrEqualTo(minInjected);
      server.faults().clear();
      assertThat(pods).hasSize(PODS);
      assertThat(pods)
          .as("bound pods under %s; stderr: %s", name, err)
          .allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isNotNull());
      Map<String, BigDecimal> cpu = new HashMap<>();
      for (V1Pod p : pods) {
        for (var c : p.getSpec().getContainers()) {
          if (c.getResources() != null && c.getResources().getRequests() != null) {
            cpu.merge(
                p.getSpec().getNodeName(),
                c.getResources().getRequests().get("cpu").getNumber(),
                BigDecimal::add);
          }
        }
      }
      for (V1Node n : core.listNode().execute().getItems()) {
        Quantity alloc = n.getStatus().getAllocatable().get("cpu");
        assertThat(cpu.getOrDefault(n.getMetadata().getName(), BigDecimal.ZERO))
            .as("cpu requested on %s", n.getMetadata().getName())
            .isLessThanOrEqualTo(alloc.getNumber());
      }
    } finally {
      server.faults().clear();
      cmd.stop();
    }
    assertThat(exit.get(10, TimeUnit.SECONDS)).as("stderr: %s", err).isZero();
  }

  /** Creates a pod, retrying while the server fails on purpose (a 409 means it was created). */
  private void createPod(String name) throws ApiException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        core.createNamespacedPod("default", MakePod.pod().name(name).req("cpu", "500m").obj())
            .execute();
        return;
      } catch (ApiException e) {
        if (e.getCode() == 409) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw e;
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
      }
    }
  }

  private List<V1Pod> listPods() {
    try {
      return core.listNamespacedPod("default").execute().getItems();
    } catch (ApiException e) {
      return List.of(); // the server is failing on purpose; try again
    }
  }

  private Path kubeconfig() throws Exception {
    return server.writeKubeconfig(dir.resolve("kubeconfig"));
  }
}
