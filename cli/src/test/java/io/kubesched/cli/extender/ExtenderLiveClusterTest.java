package io.kubesched.cli.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.cli.ExtenderCommand;
import io.kubesched.core.config.ExtenderConfig;
import io.kubesched.core.extender.ExtenderWire;
import io.kubesched.core.extender.HttpExtender;
import io.kubesched.core.runtime.SchedulerExtender;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * End to end: {@code kubesched extender --kubeconfig} against the fake API server, called by
 * kube-scheduler's extender client configured {@code nodeCacheCapable: true}, answers every verb
 * from the live cluster state and follows its changes.
 */
final class ExtenderLiveClusterTest {
  private final FakeApiServer api = FakeApiServer.start();
  private final ApiClient client = api.client();
  private final CoreV1Api core = new CoreV1Api(client);
  @TempDir Path dir;

  @AfterEach
  void close() {
    api.close();
  }

  /** The output of the command, awaited line by line. */
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

  private Path kubeconfig() throws Exception {
    return api.writeKubeconfig(dir.resolve("kubeconfig"));
  }

  private static V1Node node(String name) {
    return MakeNode.node()
        .name(name)
        .label("kubernetes.io/hostname", name)
        .capacity("cpu", "4", "memory", "8Gi", "pods", "110")
        .obj();
  }

  private static HttpExtender extender(String url) {
    return HttpExtender.create(
        new ExtenderConfig(
            url,
            "filter",
            "preempt",
            "prioritize",
            "bind",
            1,
            false,
            Duration.ofSeconds(10),
            true,
            List.of(),
            false));
  }

  /** The nodes as kube-scheduler's snapshot has them; with node names only the names are sent. */
  private List<NodeInfo> nodes() throws Exception {
    return List.of(
        NodeInfo.of(core.readNode("n1").execute()), NodeInfo.of(core.readNode("n2").execute()));
  }

  @Test
  void everyVerbIsAnsweredFromTheLiveClusterState() throws Exception {
    core.createNode(node("n1")).execute();
    core.createNode(node("n2")).execute();
    core.createNamespacedPod(
            "default",
            MakePod.pod().name("busy").uid("busy-uid").priority(1).req("cpu", "3").node("n1").obj())
        .execute();
    Path config =
        Files.writeString(
            dir.resolve("sched.yaml"),
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
    ExtenderCommand command = new ExtenderCommand();
    CommandLine cl = new CommandLine(command);
    Output out = new Output();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    String kc = kubeconfig().toString();
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () -> cl.execute("--config", config.toString(), "--kubeconfig", kc, "--port", "0"));
    try {
      String started = out.await("cluster state synced");
      Matcher m = Pattern.compile("on (http://127\\.0\\.0\\.1:\\d+)").matcher(started);
      assertThat(m.find()).as(started).isTrue();
      String url = m.group(1);
      HttpExtender ext = extender(url);
      PodInfo pod =
          PodInfo.of(MakePod.pod().name("p").uid("p-uid").priority(100).req("cpu", "2").obj());

      // filter: n1's running pod is known from the cluster
      SchedulerExtender.FilterResult filtered = ext.filter(pod, nodes());
      assertThat(filtered.feasible()).extracting(NodeInfo::name).containsExactly("n2");
      assertThat(filtered.failed()).isEqualTo(Map.of("n1", "Insufficient cpu"));

      // prioritize: the busy node scores lower, within the extender range
      Map<String, Long> scores = ext.prioritize(pod, nodes());
      assertThat(scores.keySet()).containsExactly("n1", "n2");
      assertThat(scores.get("n1")).isLessThan(scores.get("n2"));
      assertThat(scores.values()).allSatisfy(s -> assertThat(s).isBetween(0L, 10L));

      // preempt: evicting the busy pod makes room on n1
      Map<String, ExtenderWire.MetaVictims> proposed = new LinkedHashMap<>();
      String busyUid = core.readNamespacedPod("busy", "default").execute().getMetadata().getUid();
      proposed.put("n1", new ExtenderWire.MetaVictims(List.of(busyUid), 0));
      HttpResponse<String> preempted =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(url + "/preempt"))
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              ExtenderWire.encode(
                                  new ExtenderWire.PreemptionArgs(pod.pod(), null, proposed))))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(preempted.statusCode()).isEqualTo(200);
      assertThat(ExtenderWire.decodePreemptionResult(preempted.body())).isEqualTo(proposed);

      // the cluster changes: n2 fills up, and the next filter sees it
      core.createNamespacedPod(
              "default", MakePod.pod().name("fill").req("cpu", "3").node("n2").obj())
          .execute();
      SchedulerExtender.FilterResult after = filterUntil(ext, pod, r -> r.feasible().isEmpty());
      assertThat(after.failed())
          .isEqualTo(Map.of("n1", "Insufficient cpu", "n2", "Insufficient cpu"));

      // bind: a pending pod of the cluster is bound in the API server
      V1Pod pending =
          core.createNamespacedPod("default", MakePod.pod().name("pending").req("cpu", "1").obj())
              .execute();
      bindWhenKnown(ext, PodInfo.of(pending), "n2");
      assertThat(core.readNamespacedPod("pending", "default").execute().getSpec().getNodeName())
          .isEqualTo("n2");
    } finally {
      command.stop();
    }
    assertThat(exit.get(30, TimeUnit.SECONDS)).as("stderr: %s", err).isZero();
  }

  /** Filters until {@code done} (the informers deliver changes asynchronously), 30 s at most. */
  private SchedulerExtender.FilterResult filterUntil(
      HttpExtender ext,
      PodInfo pod,
      java.util.function.Predicate<SchedulerExtender.FilterResult> done)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    SchedulerExtender.FilterResult r = ext.filter(pod, nodes());
    while (!done.test(r) && System.nanoTime() < deadline) {
      r = ext.filter(pod, nodes());
    }
    return r;
  }

  /** Binds once the server's informer has the pod (it answers an error before), 30 s at most. */
  private static void bindWhenKnown(HttpExtender ext, PodInfo pod, String node) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (; ; ) {
      try {
        ext.bind(pod, node);
        return;
      } catch (io.kubesched.framework.SchedulingException e) {
        assertThat(e.getMessage()).contains("is not in its cluster state");
        assertThat(System.nanoTime()).as(e.getMessage()).isLessThan(deadline);
      }
    }
  }
}
