package io.kubesched.cli.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.cli.ExtenderCommand;
import io.kubesched.cli.Main;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.extender.ExtenderWire;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeExtenderServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** {@code kubesched extender}: the command, and {@link ExtenderServer}'s answers. */
final class ExtenderCommandTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.discover();
  private static final String CONFIG =
      """
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: KubeSchedulerConfiguration
      profiles:
      - schedulerName: default-scheduler
      - schedulerName: no-scoring
        plugins:
          score:
            disabled: [{name: "*"}]
      """;

  private final HttpClient http = HttpClient.newHttpClient();

  private static V1Node node(String name, String cpu) {
    return MakeNode.node()
        .name(name)
        .label("kubernetes.io/hostname", name)
        .capacity("cpu", cpu, "memory", "8Gi", "pods", "110")
        .obj();
  }

  private static V1Pod pod(String cpu) {
    return MakePod.pod().name("p").req("cpu", cpu).obj();
  }

  private String post(String url, String body) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  private static JsonElement json(String s) {
    return JsonParser.parseString(s);
  }

  /** Counts down when a line is flushed. */
  private static final class LineLatch extends Writer {
    final StringBuilder text = new StringBuilder();
    final CountDownLatch line = new CountDownLatch(1);

    @Override
    public synchronized void write(char[] cbuf, int off, int len) {
      text.append(cbuf, off, len);
    }

    @Override
    public synchronized void flush() {
      if (text.indexOf("\n") >= 0) {
        line.countDown();
      }
    }

    @Override
    public void close() {}
  }

  @Test
  void theCommandAnswersAFilterRequestForAPodThatFitsOneOfTwoNodes(@TempDir Path dir)
      throws Exception {
    Path config = dir.resolve("sched.yaml");
    Files.writeString(config, CONFIG);
    ExtenderCommand command = new ExtenderCommand();
    CommandLine cl = new CommandLine(command);
    LineLatch out = new LineLatch();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int[] exit = {-1};
    Thread t =
        new Thread(
            () ->
                exit[0] =
                    cl.execute(
                        "--config", config.toString(), "--port", "0", "--address", "127.0.0.1"));
    t.start();
    try {
      assertThat(out.line.await(30, TimeUnit.SECONDS)).as(err.toString()).isTrue();
      Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)").matcher(out.text);
      assertThat(m.find()).as(out.text.toString()).isTrue();
      String url = "http://127.0.0.1:" + m.group(1);
      List<V1Node> nodes = List.of(node("small", "1"), node("big", "4"));

      String answer =
          post(
              url + "/filter",
              ExtenderWire.encode(new ExtenderWire.ExtenderArgs(pod("2"), nodes, null)));

      ExtenderWire.FilterResult r = ExtenderWire.decodeFilterResult(answer);
      assertThat(r.nodes()).extracting(n -> n.getMetadata().getName()).containsExactly("big");
      assertThat(r.failedNodes()).isEqualTo(Map.of("small", "Insufficient cpu"));
      assertThat(r.failedAndUnresolvableNodes()).isEmpty();
      assertThat(r.error()).isEmpty();
      assertThat(json(answer).getAsJsonObject().keySet())
          .containsExactly(
              "Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error");
    } finally {
      command.stop();
      t.join(TimeUnit.SECONDS.toMillis(30));
    }
    assertThat(exit[0]).isZero();
    assertThat(out.text.toString())
        .startsWith("serving profile \"default-scheduler\" as an extender on http://127.0.0.1:");
  }

  @Test
  void theHelpExplainsTheSetup() {
    StringWriter out = new StringWriter();
    int code =
        Main.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "extender", "-h");

    assertThat(code).isZero();
    assertThat(out.toString())
        .contains(
            "nodeCacheCapable: true",
            "--state",
            "--kubeconfig",
            "--profile",
            "--bind-address",
            "urlPrefix: https://HOST:PORT");
  }

  @Test
  void anUnknownProfileIsAUsageError(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("sched.yaml");
    Files.writeString(config, CONFIG);
    StringWriter err = new StringWriter();

    int code =
        Main.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(err),
            "extender",
            "--config",
            config.toString(),
            "--port",
            "0",
            "--profile",
            "nope");

    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .contains(
            "no profile named \"nope\"; the configuration has [default-scheduler, no-scoring]");
  }

  static Stream<Arguments> usageErrors() {
    return Stream.of(
        argumentSet(
            "a certificate without its key",
            List.of("--tls-cert-file", "cert.pem"),
            "--tls-cert-file and --tls-private-key-file: give both or neither"),
        argumentSet(
            "a client CA without TLS",
            List.of("--client-ca-file", "ca.pem"),
            "--client-ca-file: needs --tls-cert-file and --tls-private-key-file"),
        argumentSet(
            "an unreadable certificate",
            List.of("--tls-cert-file", "/nonexistent/cert.pem", "--tls-private-key-file", "k.pem"),
            "--tls-cert-file: cannot read \"/nonexistent/cert.pem\""),
        argumentSet(
            "a state with a live cluster",
            List.of("--kubeconfig", "kc", "--state", "s.yaml"),
            "--state: not allowed with --kubeconfig or --in-cluster (the state comes from the"
                + " cluster)"),
        argumentSet(
            "two live clusters",
            List.of("--kubeconfig", "kc", "--in-cluster"),
            "--kubeconfig and --in-cluster: give one of them"),
        argumentSet(
            "a zero body limit",
            List.of("--max-request-bytes", "0"),
            "--max-request-bytes: must be positive, got 0"),
        argumentSet("no workers", List.of("--workers", "0"), "--workers: must be positive, got 0"),
        argumentSet(
            "a timeout that is not a duration",
            List.of("--read-header-timeout", "soon"),
            "--read-header-timeout: invalid duration \"soon\""),
        argumentSet(
            "a zero timeout",
            List.of("--write-timeout", "0s"),
            "--write-timeout: must be positive, got \"0s\""),
        argumentSet(
            "a port out of range",
            List.of("--port", "70000"),
            "--port: must be between 0 and" + " 65535, got 70000"));
  }

  @ParameterizedTest
  @MethodSource("usageErrors")
  void badFlagsAreUsageErrors(List<String> flags, String message, @TempDir Path dir)
      throws Exception {
    Path config = dir.resolve("sched.yaml");
    Files.writeString(config, CONFIG);
    StringWriter err = new StringWriter();
    List<String> args =
        new java.util.ArrayList<>(List.of("extender", "--config", config.toString()));
    if (!flags.contains("--port")) {
      args.addAll(List.of("--port", "0"));
    }
    args.addAll(flags);

    int code =
        Main.run(
            new PrintWriter(new StringWriter()), new PrintWriter(err), args.toArray(new String[0]));

    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString()).startsWith(message);
  }

  @Test
  void simulateCallsTheExtendersOfItsConfiguration(@TempDir Path dir) throws Exception {
    try (FakeExtenderServer ext = new FakeExtenderServer()) {
      ext.on(
          "/filter",
          body -> {
            ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(body);
            List<V1Node> keep =
                args.nodes().stream()
                    .filter(n -> !n.getMetadata().getName().equals("node-a"))
                    .toList();
            return FakeExtenderServer.Answer.ok(
                ExtenderWire.encode(
                    new ExtenderWire.FilterResult(
                        keep, null, Map.of("node-a", "node-a is drained"), null, "")));
          });
      Path config = dir.resolve("sched.yaml");
      Files.writeString(
          config,
          "apiVersion: kubescheduler.config.k8s.io/v1\n"
              + "kind: KubeSchedulerConfiguration\n"
              + "extenders:\n"
              + "- urlPrefix: "
              + ext.url()
              + "\n"
              + "  filterVerb: filter\n");
      Path manifests = dir.resolve("cluster.yaml");
      Files.writeString(
          manifests,
          """
          apiVersion: v1
          kind: Node
          metadata: {name: node-a}
          status: {allocatable: {cpu: "64", memory: 128Gi, pods: "110"}}
          ---
          apiVersion: v1
          kind: Node
          metadata: {name: node-b}
          status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
          ---
          apiVersion: v1
          kind: Pod
          metadata: {name: p, namespace: default}
          spec:
            containers:
            - name: c
              image: nginx
              resources: {requests: {cpu: "1"}}
          """);
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();

      // without the extender the much larger node-a would win (LeastAllocated)
      int code =
          Main.run(
              new PrintWriter(out),
              new PrintWriter(err),
              "simulate",
              manifests.toString(),
              "--config",
              config.toString(),
              "-o",
              "json");

      assertThat(code).as(err.toString()).isZero();
      var pod = json(out.toString()).getAsJsonObject().getAsJsonArray("pods").get(0);
      assertThat(pod.getAsJsonObject().get("node").getAsString()).isEqualTo("node-b");
      assertThat(ext.requests()).isNotEmpty();
    }
  }

  // ---------------------------------------------------------------- the server's answers

  private static ExtenderServer server(String profile, InMemoryCluster cluster, boolean state)
      throws Exception {
    ExtenderServer s =
        new ExtenderServer(
            ConfigurationLoader.parse(CONFIG, REGISTRY), REGISTRY, profile, cluster, state);
    s.start(new InetSocketAddress("127.0.0.1", 0));
    return s;
  }

  private static String url(ExtenderServer s) {
    return "http://127.0.0.1:" + s.address().getPort();
  }

  static Stream<Arguments> filters() {
    return Stream.of(
        argumentSet(
            "node names without a state are refused with a clear error",
            false,
            new ExtenderWire.ExtenderArgs(pod("1"), null, List.of("a")),
            "{\"Nodes\":null,\"NodeNames\":null,\"FailedNodes\":null,"
                + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"kubesched extender has no node"
                + " cache: configure the extender with nodeCacheCapable: false, or start"
                + " kubesched extender with --kubeconfig or --state\"}"),
        argumentSet(
            "node names are resolved against the state, whose pods use the nodes",
            true,
            new ExtenderWire.ExtenderArgs(pod("2"), null, List.of("a", "b")),
            "{\"Nodes\":null,\"NodeNames\":[\"b\"],\"FailedNodes\":{\"a\":\"Insufficient cpu\"},"
                + "\"FailedAndUnresolvableNodes\":{},\"Error\":\"\"}"),
        argumentSet(
            "an unknown node name is an error",
            true,
            new ExtenderWire.ExtenderArgs(pod("2"), null, List.of("a", "zz")),
            "{\"Nodes\":null,\"NodeNames\":null,\"FailedNodes\":null,"
                + "\"FailedAndUnresolvableNodes\":null,"
                + "\"Error\":\"kubesched extender: unknown node(s) [zz]\"}"),
        argumentSet(
            "an unresolvable rejection goes to FailedAndUnresolvableNodes",
            true,
            new ExtenderWire.ExtenderArgs(
                MakePod.pod().name("p").nodeSelector(Map.of("disk", "ssd")).obj(),
                null,
                List.of("a", "b")),
            "{\"Nodes\":null,\"NodeNames\":[],\"FailedNodes\":{},"
                + "\"FailedAndUnresolvableNodes\":{\"a\":\"node(s) didn't match Pod's node"
                + " affinity/selector\",\"b\":\"node(s) didn't match Pod's node"
                + " affinity/selector\"},\"Error\":\"\"}"));
  }

  /** Two 4-CPU nodes; {@code a} runs a 3-CPU pod. */
  private static InMemoryCluster state() {
    InMemoryCluster cluster = new InMemoryCluster();
    cluster.addNode(node("a", "4"));
    cluster.addNode(node("b", "4"));
    cluster.addPod(MakePod.pod().name("running").req("cpu", "3").node("a").obj());
    return cluster;
  }

  @ParameterizedTest
  @MethodSource("filters")
  void filterAnswers(boolean withState, ExtenderWire.ExtenderArgs args, String want)
      throws Exception {
    try (ExtenderServer s = server(null, withState ? state() : new InMemoryCluster(), withState)) {
      assertThat(json(post(url(s) + "/filter", ExtenderWire.encode(args)))).isEqualTo(json(want));
    }
  }

  @Test
  void prioritizeScalesTheProfilesScoresToTheExtenderRange() throws Exception {
    try (ExtenderServer s = server(null, state(), true)) {
      String answer =
          post(
              url(s) + "/prioritize",
              ExtenderWire.encode(
                  new ExtenderWire.ExtenderArgs(pod("1"), null, List.of("a", "b"))));

      List<ExtenderWire.HostPriority> scores = ExtenderWire.decodePriorities(answer);
      assertThat(scores).extracting(ExtenderWire.HostPriority::host).containsExactly("a", "b");
      // the busy node scores lower (LeastAllocated, BalancedAllocation), within 0..10
      assertThat(scores.get(0).score()).isLessThan(scores.get(1).score());
      assertThat(scores).allSatisfy(p -> assertThat(p.score()).isBetween(0L, 10L));
    }
  }

  @Test
  void prioritizeWithoutScorePluginsGivesZeros() throws Exception {
    try (ExtenderServer s = server("no-scoring", state(), true)) {
      String answer =
          post(
              url(s) + "/prioritize",
              ExtenderWire.encode(
                  new ExtenderWire.ExtenderArgs(pod("1"), null, List.of("a", "b"))));

      assertThat(json(answer))
          .isEqualTo(json("[{\"Host\":\"a\",\"Score\":0},{\"Host\":\"b\",\"Score\":0}]"));
    }
  }

  @Test
  void bindBindsAPodOfTheStateInMemory() throws Exception {
    InMemoryCluster cluster = state();
    cluster.addPod(pod("1"));
    try (ExtenderServer s = server(null, cluster, true)) {
      String ok =
          post(
              url(s) + "/bind",
              ExtenderWire.encode(new ExtenderWire.BindingArgs("p", "default", "default/p", "b")));
      String unknown =
          post(
              url(s) + "/bind",
              ExtenderWire.encode(new ExtenderWire.BindingArgs("q", "default", "default/q", "b")));

      assertThat(ok).isEqualTo("{\"Error\":\"\"}");
      assertThat(cluster.getPod("default", "p").orElseThrow().getSpec().getNodeName())
          .isEqualTo("b");
      assertThat(ExtenderWire.decodeBindingResult(unknown))
          .isEqualTo("kubesched extender: pod default/q is not in its cluster state");
    }
  }

  @Test
  void aMalformedRequestIsABadRequest() throws Exception {
    try (ExtenderServer s = server(null, new InMemoryCluster(), false)) {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(url(s) + "/filter"))
                  .POST(HttpRequest.BodyPublishers.ofString("{\"Pod\":[]}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body())
          .isEqualTo("invalid request: cannot unmarshal array into Go value of type Pod\n");
    }
  }
}
