package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class SimulateCommandTest {
  /** Two 2-CPU nodes; a Deployment of 3 pods (1 CPU each), one pod that fits nowhere. */
  static final String CLUSTER =
      """
      apiVersion: v1
      kind: Node
      metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
      status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b}}
      status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 3
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers:
            - name: c
              image: nginx
              resources: {requests: {cpu: "1", memory: 256Mi}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: big, namespace: default}
      spec:
        containers:
        - name: c
          image: nginx
          resources: {requests: {cpu: "3"}}
      """;

  @TempDir Path dir;
  Path cluster;
  StringWriter out;
  StringWriter err;

  @BeforeEach
  void setUp() throws Exception {
    cluster = dir.resolve("cluster.yaml");
    Files.writeString(cluster, CLUSTER);
    out = new StringWriter();
    err = new StringWriter();
  }

  private int run(String... args) {
    return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  @Test
  void jsonHasTheDocumentedShape() {
    assertThat(run("simulate", cluster.toString(), "-o", "json")).isZero();
    JsonObject root = new Gson().fromJson(out.toString(), JsonObject.class);
    assertThat(new TreeSet<>(root.keySet()))
        .containsExactlyInAnyOrder("pods", "nodes", "evicted", "explain", "warnings", "claims");
    JsonArray pods = root.getAsJsonArray("pods");
    List<String> keys = new ArrayList<>(pods.get(0).getAsJsonObject().keySet());
    assertThat(keys)
        .containsExactly("namespace", "name", "node", "status", "message", "nominatedNode");
    JsonObject big = find(pods, "big");
    assertThat(big.get("status").getAsString()).isEqualTo("Unschedulable");
    assertThat(big.get("node").isJsonNull()).isTrue();
    assertThat(big.get("message").getAsString())
        .isEqualTo(
            "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are"
                + " available: 2 No preemption victims found for incoming pod.");
    long scheduled =
        pods.asList().stream()
            .filter(p -> p.getAsJsonObject().get("status").getAsString().equals("Scheduled"))
            .count();
    assertThat(scheduled).isEqualTo(3);
    JsonObject nodeA = root.getAsJsonArray("nodes").get(0).getAsJsonObject();
    assertThat(new ArrayList<>(nodeA.keySet()))
        .containsExactly("name", "pods", "allocatable", "requested");
    assertThat(nodeA.getAsJsonObject("allocatable").toString())
        .isEqualTo("{\"cpu\":\"2\",\"memory\":\"4Gi\",\"pods\":\"110\"}");
    assertThat(root.getAsJsonArray("evicted")).isEmpty();
    assertThat(root.get("explain").isJsonNull()).isTrue();
  }

  private static JsonObject find(JsonArray pods, String name) {
    return pods.asList().stream()
        .map(e -> e.getAsJsonObject())
        .filter(p -> p.get("name").getAsString().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void explainTracesFilterAndScoresPerNode() {
    assertThat(run("simulate", cluster.toString(), "-o", "json", "--explain", "default/web-0"))
        .isZero();
    JsonObject explain =
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonObject("explain");
    assertThat(explain.get("pod").getAsString()).isEqualTo("default/web-0");
    assertThat(explain.get("selectedNode").getAsString()).startsWith("node-");
    JsonArray nodes = explain.getAsJsonArray("nodes");
    assertThat(nodes).hasSize(2);
    JsonObject n = nodes.get(0).getAsJsonObject();
    assertThat(n.getAsJsonObject("filter").get("code").getAsString()).isEqualTo("Success");
    JsonObject scores = n.getAsJsonObject("scores");
    assertThat(scores.keySet()).contains("NodeResourcesFit", "NodeResourcesBalancedAllocation");
    long weighted = 0;
    for (String plugin : scores.keySet()) {
      weighted += scores.get(plugin).getAsLong() * WEIGHTS.getOrDefault(plugin, 1);
    }
    assertThat(n.get("total").getAsLong()).isEqualTo(weighted);
  }

  private static final Map<String, Integer> WEIGHTS =
      Map.of(
          "TaintToleration", 3, "NodeAffinity", 2, "PodTopologySpread", 2, "InterPodAffinity", 2);

  @Test
  void explainOfAnUnschedulablePodShowsWhyEachNodeFailed() {
    assertThat(run("simulate", cluster.toString(), "--explain", "default/big")).isZero();
    assertThat(out.toString())
        .contains("Scheduling trace of default/big: no node selected")
        .contains("node-a: rejected by NodeResourcesFit (Unschedulable): Insufficient cpu")
        .contains("node-b: rejected by NodeResourcesFit (Unschedulable): Insufficient cpu");
  }

  @Test
  void tableShowsPlacementsNodesAndSummary() {
    assertThat(run("simulate", cluster.toString())).isZero();
    String text = out.toString();
    assertThat(text).contains("POD", "NODE", "STATUS", "REASON");
    assertThat(text).containsPattern("default/big\\s+<pending>\\s+Unschedulable\\s+0/2 nodes");
    assertThat(text).containsPattern("node-a\\s+\\d+/110\\s+\\d+m?/2 \\(\\d+%\\)");
    assertThat(text).contains("4 pods: 3 scheduled, 1 unschedulable; 0 evicted; 2 nodes");
  }

  @Test
  void htmlIsSelfContainedAndWrittenToTheOutputFile() throws Exception {
    Path report = dir.resolve("report.html");
    assertThat(
            run("simulate", cluster.toString(), "-o", "html", "--output-file", report.toString()))
        .isZero();
    assertThat(out.toString()).isEmpty();
    String html = Files.readString(report);
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("node-a", "default/big", "Node utilisation");
    assertThat(html).doesNotContain("http://", "https://", "<script", "<link");
  }

  @Test
  void sameSeedGivesTheSameResult() {
    run("simulate", cluster.toString(), "-o", "json", "--seed", "7");
    String first = out.toString();
    out.getBuffer().setLength(0);
    run("simulate", cluster.toString(), "-o", "json", "--seed", "7");
    assertThat(out.toString()).isEqualTo(first);
  }

  @Test
  void configurationChangesTheScoring() throws Exception {
    Path cfg = dir.resolve("mostallocated.yaml");
    Files.writeString(
        cfg,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - pluginConfig:
          - name: NodeResourcesFit
            args:
              scoringStrategy:
                type: MostAllocated
        """);
    Path two = dir.resolve("two.yaml");
    Files.writeString(
        two,
        """
        apiVersion: v1
        kind: Node
        metadata: {name: node-a}
        status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: node-b}
        status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p1}
        spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p2}
        spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]}
        """);
    assertThat(run("simulate", two.toString(), "--config", cfg.toString(), "-o", "json")).isZero();
    JsonArray pods = new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray("pods");
    // bin packing: both pods on the same node
    assertThat(find(pods, "p2").get("node").getAsString())
        .isEqualTo(find(pods, "p1").get("node").getAsString());
  }

  static Stream<Arguments> badInput() {
    return Stream.of(
        Arguments.argumentSet(
            "unparsable YAML names file and line",
            "kind: Node\nmetadata: {name: x\n",
            List.of(),
            ".yaml:3:1: invalid YAML"),
        Arguments.argumentSet(
            "invalid quantity names object and field",
            "kind: Node\napiVersion: v1\nmetadata: {name: x}\nstatus: {allocatable: {cpu: four}}\n",
            List.of(),
            "Node x: status.allocatable.cpu: Invalid value: \"four\": quantities must match"),
        Arguments.argumentSet(
            "invalid configuration names the path",
            "kind: Node\napiVersion: v1\nmetadata: {name: x}\n",
            List.of("--config", "CONFIG"),
            "parallelism"),
        Arguments.argumentSet("missing file is named", null, List.of(), "nope.yaml: no such file"),
        Arguments.argumentSet(
            "bad --explain",
            "kind: Node\napiVersion: v1\nmetadata: {name: x}\n",
            List.of("--explain", "x"),
            "--explain: expected NAMESPACE/NAME"),
        Arguments.argumentSet(
            "unknown output format",
            "kind: Node\napiVersion: v1\nmetadata: {name: x}\n",
            List.of("-o", "xml"),
            "Invalid value for option '--output'"));
  }

  @ParameterizedTest
  @MethodSource("badInput")
  void badInputExitsTwoWithAClearMessage(String yaml, List<String> extra, String want)
      throws Exception {
    Path f = dir.resolve(yaml == null ? "nope.yaml" : "in.yaml");
    if (yaml != null) {
      Files.writeString(f, yaml);
    }
    Path cfg = dir.resolve("bad-config.yaml");
    Files.writeString(
        cfg,
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
            + "parallelism: 0\n");
    List<String> args = new ArrayList<>(List.of("simulate", f.toString()));
    for (String e : extra) {
      args.add(e.equals("CONFIG") ? cfg.toString() : e);
    }
    assertThat(run(args.toArray(String[]::new))).isEqualTo(2);
    assertThat(err.toString()).contains(want).doesNotContain("Exception", "\tat ");
  }

  @Test
  void unknownKindIsWarnedAboutAndSkipped() throws Exception {
    Path f = dir.resolve("cm.yaml");
    Files.writeString(f, CLUSTER + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
    assertThat(run("simulate", f.toString())).isZero();
    assertThat(err.toString()).contains("warning:", "skipping ConfigMap default/c:");
  }

  @Test
  void pluginsListsBuiltinAndSamplePlugins() {
    assertThat(run("plugins")).isZero();
    assertThat(out.toString())
        .containsPattern(
            "NodeResourcesFit\\s+PreFilter,Filter,PreScore,Score\\s+NodeResourcesFitArgs")
        .contains("Coscheduling", "DefaultBinder");
  }
}
