package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Namespaces in a simulation: a pod affinity term's {@code namespaceSelector} sees the labels of
 * the input's Namespace objects, or, in a dump without Namespace objects, the {@code
 * kubernetes.io/metadata.name} label every namespace has.
 */
final class NamespaceSimulationTest {
  private static final String CLUSTER =
      """
      apiVersion: v1
      kind: Node
      metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
      status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
      status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: db, namespace: team-a, labels: {app: db}}
      spec: {nodeName: n1, containers: [{name: c, image: postgres}]}
      ---
      """;
  private static final String NAMESPACES =
      """
      apiVersion: v1
      kind: Namespace
      metadata: {name: team-a, labels: {env: prod}}
      ---
      apiVersion: v1
      kind: Namespace
      metadata: {name: team-b, labels: {env: dev}}
      ---
      """;

  @TempDir Path dir;
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  /** A pending pod in team-b that must run next to an {@code app: db} pod of the selected ones. */
  private static String follower(String namespaceSelector) {
    return """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: team-b}
        spec:
          containers: [{name: c, image: nginx}]
          affinity:
            podAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - labelSelector: {matchLabels: {app: db}}
                namespaceSelector: %s
                topologyKey: kubernetes.io/hostname
        """
        .formatted(namespaceSelector);
  }

  static Stream<Arguments> namespaceSelectors() {
    String unschedulable =
        "0/2 nodes are available: 2 node(s) didn't match pod affinity rules. preemption: 0/2"
            + " nodes are available: 2 Preemption is not helpful for scheduling.";
    return Stream.of(
        Arguments.argumentSet(
            "a declared namespace's own label selects it",
            NAMESPACES + CLUSTER + follower("{matchLabels: {env: prod}}"),
            "n1",
            null),
        Arguments.argumentSet(
            "a label the db's namespace does not have selects nothing",
            NAMESPACES + CLUSTER + follower("{matchLabels: {env: dev}}"),
            null,
            unschedulable),
        Arguments.argumentSet(
            "the empty selector selects every namespace",
            NAMESPACES + CLUSTER + follower("{}"),
            "n1",
            null),
        Arguments.argumentSet(
            "in a dump without Namespace objects, the metadata.name label selects",
            CLUSTER + follower("{matchLabels: {kubernetes.io/metadata.name: team-a}}"),
            "n1",
            null),
        Arguments.argumentSet(
            "in a dump without Namespace objects, no other label is known",
            CLUSTER + follower("{matchLabels: {env: prod}}"),
            null,
            unschedulable));
  }

  @ParameterizedTest
  @MethodSource("namespaceSelectors")
  void podAffinityNamespaceSelectorsSeeTheNamespacesLabels(String yaml, String node, String message)
      throws Exception {
    Path f = dir.resolve("in.yaml");
    Files.writeString(f, yaml);
    int code =
        Main.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "simulate",
            f.toString(),
            "-o",
            "json");

    assertThat(code).isZero();
    JsonObject web = pods().get("team-b/web");
    Map<String, Object> got = new LinkedHashMap<>();
    got.put("node", web.get("node").isJsonNull() ? null : web.get("node").getAsString());
    got.put("message", web.get("message").isJsonNull() ? null : web.get("message").getAsString());
    Map<String, Object> want = new LinkedHashMap<>();
    want.put("node", node);
    want.put("message", message);
    assertThat(got).isEqualTo(want);
  }

  private Map<String, JsonObject> pods() {
    Map<String, JsonObject> m = new LinkedHashMap<>();
    for (JsonElement e :
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray("pods")) {
      JsonObject p = e.getAsJsonObject();
      m.put(p.get("namespace").getAsString() + "/" + p.get("name").getAsString(), p);
    }
    return m;
  }
}
