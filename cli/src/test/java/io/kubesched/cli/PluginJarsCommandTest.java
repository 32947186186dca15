package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code --plugins} and {@code KUBESCHED_PLUGINS}: a plugin jar built here, run by the command. */
final class PluginJarsCommandTest {
  static final String CLUSTER =
      """
      apiVersion: v1
      kind: Node
      metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
      status: {allocatable: {cpu: "8", memory: 8Gi, pods: "110"}}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b}}
      status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: p1, namespace: default}
      spec:
        containers:
        - name: c
          image: nginx
          resources: {requests: {cpu: "1"}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: p2, namespace: default}
      spec:
        containers:
        - name: c
          image: nginx
          resources: {requests: {cpu: "1"}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: p3, namespace: default}
      spec:
        containers:
        - name: c
          image: nginx
          resources: {requests: {cpu: "1"}}
      """;

  static final String CONFIG =
      """
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: KubeSchedulerConfiguration
      profiles:
      - plugins:
          filter:
            enabled: [{name: OnlyNode}]
      """;

  @TempDir static Path dir;
  static Path jar;
  static Path cluster;
  static Path config;

  @BeforeAll
  static void buildThePluginJar() throws Exception {
    jar =
        TestPluginJar.build(
            dir.resolve("work"),
            dir.resolve("plugins/only-node-1.0.jar"),
            TestPluginJar.ONLY_NODE_B,
            List.of("acme.OnlyNodeProvider"));
    Files.writeString(dir.resolve("plugins/README.txt"), "not a jar: skipped");
    cluster = Files.writeString(dir.resolve("cluster.yaml"), CLUSTER);
    config = Files.writeString(dir.resolve("config.yaml"), CONFIG);
  }

  private record Result(int code, String out, String err) {}

  private static Result run(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
    return new Result(code, out.toString(), err.toString());
  }

  static Stream<Arguments> waysToGiveThePlugins() {
    String j = dir.resolve("plugins/only-node-1.0.jar").toString();
    String d = dir.resolve("plugins").toString();
    return Stream.of(
        Arguments.of("jar before the subcommand", Map.of(), List.of("--plugins", j, "plugins")),
        Arguments.of("jar after the subcommand", Map.of(), List.of("plugins", "--plugins", j)),
        Arguments.of("directory of jars", Map.of(), List.of("--plugins", d, "plugins")),
        Arguments.of(
            "list with an empty entry", Map.of(), List.of("--plugins", j + ",," + d, "plugins")),
        Arguments.of("KUBESCHED_PLUGINS", Map.of("KUBESCHED_PLUGINS", d), List.of("plugins")),
        Arguments.of(
            "--plugins wins over KUBESCHED_PLUGINS",
            Map.of("KUBESCHED_PLUGINS", "/nonexistent"),
            List.of("--plugins", j, "plugins")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("waysToGiveThePlugins")
  void pluginsListsThePluginWithItsJar(String name, Map<String, String> env, List<String> args)
      throws Exception {
    Result r = run(env, args.toArray(String[]::new));

    assertThat(r.code()).isZero();
    assertThat(r.err()).isEmpty();
    String row =
        r.out().lines().filter(l -> l.startsWith("OnlyNode ")).findFirst().orElseThrow().trim();
    assertThat(row.split(" {2,}"))
        .containsExactly("OnlyNode", "Filter", "-", "acme.OnlyNode", jar.toRealPath().toString());
  }

  @Test
  void builtInPluginsNameTheirJarOrDirectory() {
    Result r = run(Map.of(), "plugins");

    assertThat(r.code()).isZero();
    assertThat(r.out().lines().findFirst().orElseThrow())
        .matches("NAME +EXTENSION POINTS +ARGS +CLASS +SOURCE");
    assertThat(r.out()).doesNotContain("OnlyNode");
    String fit =
        r.out().lines().filter(l -> l.startsWith("NodeResourcesFit ")).findFirst().orElseThrow();
    assertThat(fit).containsPattern("plugins-builtin\\S*$");
  }

  @Test
  void simulateRunsThePluginFromTheJar() {
    Result r =
        run(
            Map.of(),
            "--plugins",
            jar.toString(),
            "simulate",
            cluster.toString(),
            "--config",
            config.toString(),
            "-o",
            "json");

    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    // node-a has the room, but the plugin from the jar only lets node-b in: two pods fit there.
    JsonArray pods = new Gson().fromJson(r.out(), JsonObject.class).getAsJsonArray("pods");
    assertThat(pods.asList().stream().map(p -> summary(p.getAsJsonObject())).toList())
        .containsExactly(
            "p1 node-b Scheduled",
            "p2 node-b Scheduled",
            "p3 null Unschedulable 0/2 nodes are available: 1 Insufficient cpu, 1 node is not"
                + " node-b. preemption: 0/2 nodes are available: 1 No preemption victims found for"
                + " incoming pod, 1 Preemption is not helpful for scheduling.");
  }

  private static String summary(JsonObject pod) {
    String s =
        pod.get("name").getAsString()
            + " "
            + (pod.get("node").isJsonNull() ? "null" : pod.get("node").getAsString())
            + " "
            + pod.get("status").getAsString();
    return pod.get("message").isJsonNull() ? s : s + " " + pod.get("message").getAsString();
  }

  @Test
  void withoutTheJarTheConfigurationNamesAnUnknownPlugin() {
    Result r = run(Map.of(), "simulate", cluster.toString(), "--config", config.toString());

    assertThat(r.code()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.err()).contains("OnlyNode");
  }

  static Stream<Arguments> badPluginArguments() {
    return Stream.of(
        Arguments.of(
            "missing path",
            "/nonexistent/x.jar",
            "kubesched: --plugins: /nonexistent/x.jar: no such file or directory\n"),
        Arguments.of(
            "not a jar",
            dir.resolve("cluster.yaml").toString(),
            "kubesched: --plugins: "
                + dir.resolve("cluster.yaml")
                + ": not a .jar file or a directory\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badPluginArguments")
  void badPluginPathsAreUsageErrors(String name, String spec, String message) {
    Result r = run(Map.of(), "--plugins", spec, "plugins");

    assertThat(r.code()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(message);
  }

  @Test
  void aProviderThatCannotBeLoadedIsAUsageError() throws Exception {
    Path broken =
        TestPluginJar.build(
            dir.resolve("work-broken"),
            dir.resolve("broken/broken.jar"),
            TestPluginJar.ONLY_NODE_B,
            List.of("acme.NoSuchProvider"));

    Result r = run(Map.of(), "--plugins", broken.toString(), "plugins");

    assertThat(r.code()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.err())
        .startsWith("kubesched: --plugins: ")
        .contains("acme.NoSuchProvider not found");
  }

  @Test
  void aPluginNamedLikeABuiltInIsAUsageError() throws Exception {
    Map<String, String> sources = new java.util.HashMap<>(TestPluginJar.ONLY_NODE_B);
    sources.put(
        "acme/OnlyNodeProvider.java",
        sources.get("acme/OnlyNodeProvider.java").replace("\"OnlyNode\"", "\"NodeResourcesFit\""));
    Path clash =
        TestPluginJar.build(
            dir.resolve("work-clash"),
            dir.resolve("clash/clash.jar"),
            sources,
            List.of("acme.OnlyNodeProvider"));

    Result r = run(Map.of(), "--plugins", clash.toString(), "plugins");

    assertThat(r.code()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.err())
        .isEqualTo(
            "kubesched: a plugin named NodeResourcesFit already exists:"
                + " io.kubesched.plugins.noderesources.FitProvider and"
                + " acme.OnlyNodeProvider\n");
  }

  @Test
  void theContextClassLoaderIsRestored() {
    ClassLoader before = Thread.currentThread().getContextClassLoader();

    run(Map.of(), "--plugins", jar.toString(), "plugins");

    assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
  }
}
