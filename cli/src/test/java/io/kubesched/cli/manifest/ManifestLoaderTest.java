package io.kubesched.cli.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class ManifestLoaderTest {
  private static final String QUANTITY_GRAMMAR =
      "quantities must match the regular expression"
          + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

  @Test
  void readsMultiDocumentYamlAndLists() {
    Manifests m =
        ManifestLoader.parse(
            "in.yaml",
            """
            apiVersion: v1
            kind: List
            items:
            - apiVersion: v1
              kind: Node
              metadata: {name: n1}
              status: {allocatable: {cpu: "4", memory: 8Gi}}
            - apiVersion: v1
              kind: Pod
              metadata: {name: p1, namespace: ns, creationTimestamp: "2026-01-02T03:04:05Z"}
              spec:
                containers:
                - name: c
                  image: nginx
                  resources: {requests: {cpu: 500m}}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web}
            spec:
              replicas: 2
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec: {containers: [{name: c, image: nginx}]}
            ---
            apiVersion: scheduling.x-k8s.io/v1alpha1
            kind: PodGroup
            metadata: {name: g, namespace: ns}
            spec: {minMember: 3}
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: cm}
            """);
    assertThat(m.nodes()).extracting(n -> n.getMetadata().getName()).containsExactly("n1");
    assertThat(m.pods()).extracting(p -> p.getMetadata().getName()).containsExactly("p1");
    assertThat(m.pods().get(0).getMetadata().getCreationTimestamp()).isNotNull();
    assertThat(m.deployments()).hasSize(1);
    assertThat(m.customObjects()).hasSize(1);
    assertThat(m.warnings())
        .containsExactly(
            "in.yaml:4 (document 1, items[0]): Node n1: no kubernetes.io/hostname label: set to"
                + " \"n1\" as the kubelet would",
            "in.yaml:32 (document 4): skipping ConfigMap default/cm: kind ConfigMap is not used by the"
                + " simulator",
            "in.yaml:8 (document 1, items[1]): Pod ns/p1: namespace \"ns\" is not in the input,"
                + " which declares no Namespace: assumed to exist, labelled only"
                + " kubernetes.io/metadata.name=ns");
  }

  static Stream<Arguments> hostnameLabels() {
    return Stream.of(
        Arguments.of(
            "no labels: set to the name, with a note",
            "metadata: {name: n1}",
            java.util.Map.of("kubernetes.io/hostname", "n1"),
            List.of(
                "in.yaml:1 (document 1): Node n1: no kubernetes.io/hostname label: set to \"n1\" as the"
                    + " kubelet would")),
        Arguments.of(
            "other labels kept",
            "metadata: {name: n1, labels: {zone: a}}",
            java.util.Map.of("zone", "a", "kubernetes.io/hostname", "n1"),
            List.of(
                "in.yaml:1 (document 1): Node n1: no kubernetes.io/hostname label: set to \"n1\" as the"
                    + " kubelet would")),
        Arguments.of(
            "a hostname that differs from the name is kept",
            "metadata: {name: n1, labels: {kubernetes.io/hostname: host-1}}",
            java.util.Map.of("kubernetes.io/hostname", "host-1"),
            List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostnameLabels")
  void nodesGetTheKubeletsHostnameLabel(
      String name, String metadata, java.util.Map<String, String> labels, List<String> notes) {
    Manifests m = ManifestLoader.parse("in.yaml", "apiVersion: v1\nkind: Node\n" + metadata + "\n");

    assertThat(m.nodes().get(0).getMetadata().getLabels()).isEqualTo(labels);
    assertThat(m.warnings()).isEqualTo(notes);
  }

  static Stream<Arguments> badInput() {
    return Stream.of(
        Arguments.argumentSet(
            "invalid YAML names the file and line",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p\n",
            List.of("bad.yaml:4:1: invalid YAML: expected ',' or '}', but got <stream end>")),
        Arguments.argumentSet(
            "an invalid quantity names the object and the field",
            """
            apiVersion: v1
            kind: Pod
            metadata: {name: p, namespace: ns}
            spec:
              containers:
              - name: c
                image: nginx
                resources: {requests: {cpu: lots}}
            """,
            List.of(
                "bad.yaml:1 (document 1): Pod ns/p: spec.containers[0].resources.requests.cpu:"
                    + " Invalid value: \"lots\": "
                    + QUANTITY_GRAMMAR)),
        Arguments.argumentSet(
            "an unknown field names the object and the field",
            "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nspec: {colour: red}\n",
            List.of("bad.yaml:1 (document 1): Node n: unknown field \"spec.colour\"")),
        Arguments.argumentSet(
            "an object without kind",
            "apiVersion: v1\nmetadata: {name: n}\n",
            List.of("bad.yaml:1 (document 1): Object 'Kind' is missing")),
        Arguments.argumentSet(
            "every problem is reported",
            "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus: {allocatable: {memory: x}}\n"
                + "---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n"
                + "status: {allocatable: {cpu: y}}\n",
            List.of(
                "bad.yaml:1 (document 1): Node a: status.allocatable.memory: Invalid value: \"x\": "
                    + QUANTITY_GRAMMAR,
                "bad.yaml:6 (document 2): Node b: status.allocatable.cpu: Invalid value: \"y\": "
                    + QUANTITY_GRAMMAR)));
  }

  @ParameterizedTest
  @MethodSource("badInput")
  void badInputIsReportedClearly(String yaml, List<String> want) {
    assertThatThrownBy(() -> ManifestLoader.parse("bad.yaml", yaml))
        .isInstanceOfSatisfying(
            ManifestException.class, e -> assertThat(e.problems()).isEqualTo(want));
  }

  private static final String POD_IN = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ";
  private static final String POD_SPEC = "}\nspec: {containers: [{name: c, image: nginx}]}\n";
  private static final String DECLARE_TEAM_A =
      "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\n";
  private static final String POD_GROUP_IN_TEAM_B =
      "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\n"
          + "metadata: {name: g, namespace: team-b}\nspec: {minMember: 2}\n";

  static Stream<Arguments> namespaceLifecycle() {
    return Stream.of(
        Arguments.argumentSet(
            "without Namespace objects (a dump of pods) each namespace used is assumed, with a note",
            POD_IN
                + "team-a"
                + POD_SPEC
                + "---\n"
                + POD_IN.replace("name: p,", "name: q,")
                + "team-a"
                + POD_SPEC
                + "---\n"
                + POD_IN
                + "kube-system"
                + POD_SPEC
                + "---\n"
                + POD_GROUP_IN_TEAM_B,
            List.of(
                "ns.yaml:1 (document 1): Pod team-a/p: namespace \"team-a\" is not in the input,"
                    + " which declares no Namespace: assumed to exist, labelled only"
                    + " kubernetes.io/metadata.name=team-a",
                "ns.yaml:16 (document 4): PodGroup team-b/g: namespace \"team-b\" is not in the"
                    + " input, which declares no Namespace: assumed to exist, labelled only"
                    + " kubernetes.io/metadata.name=team-b"),
            List.of()),
        Arguments.argumentSet(
            "with Namespace objects an object in another namespace is refused, as"
                + " NamespaceLifecycle refuses it; the four system namespaces always exist",
            DECLARE_TEAM_A
                + POD_IN
                + "team-a"
                + POD_SPEC
                + "---\n"
                + POD_IN
                + "team-b"
                + POD_SPEC
                + "---\n"
                + POD_IN
                + "kube-node-lease"
                + POD_SPEC
                + "---\n"
                + "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: team-c}\n"
                + "spec:\n  selector: {matchLabels: {app: web}}\n  template:\n"
                + "    metadata: {labels: {app: web}}\n"
                + "    spec: {containers: [{name: c, image: nginx}]}\n"
                + "---\n"
                + POD_GROUP_IN_TEAM_B,
            List.of(),
            List.of(
                "ns.yaml:10 (document 3): Pod team-b/p: namespaces \"team-b\" not found",
                "ns.yaml:20 (document 5): Deployment team-c/web: namespaces \"team-c\" not found",
                "ns.yaml:29 (document 6): PodGroup team-b/g: namespaces \"team-b\" not found")));
  }

  @ParameterizedTest
  @MethodSource("namespaceLifecycle")
  void objectsInUndeclaredNamespaces(String yaml, List<String> warnings, List<String> refusals) {
    if (refusals.isEmpty()) {
      assertThat(ManifestLoader.parse("ns.yaml", yaml).warnings()).isEqualTo(warnings);
    } else {
      assertThatThrownBy(() -> ManifestLoader.parse("ns.yaml", yaml))
          .isInstanceOfSatisfying(
              ManifestException.class, e -> assertThat(e.problems()).isEqualTo(refusals));
    }
  }

  @Test
  void missingFileIsNamed(@TempDir Path dir) {
    Path missing = dir.resolve("nope.yaml");
    assertThatThrownBy(() -> ManifestLoader.load(List.of(missing)))
        .isInstanceOfSatisfying(
            ManifestException.class,
            e -> assertThat(e.problems()).containsExactly(missing + ": no such file"));
  }

  @Test
  void readsJson(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("n.json");
    Files.writeString(f, "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"j\"}}");
    assertThat(ManifestLoader.load(List.of(f)).nodes()).hasSize(1);
  }

  @Test
  void readsAManifestLargerThanSnakeYamlsDefaultLimitOfThreeMebibytes() {
    StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: List\nitems:\n");
    int nodes = 20_000; // ~4.4 MB of text, as a 15,000-node cluster
    for (int i = 0; i < nodes; i++) {
      yaml.append("- apiVersion: v1\n  kind: Node\n  metadata: {name: node-")
          .append(i)
          .append(", labels: {kubernetes.io/hostname: node-")
          .append(i)
          .append("}}\n  status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n");
    }
    assertThat(yaml.length()).isGreaterThan(3 * 1024 * 1024);

    assertThat(ManifestLoader.parse("big.yaml", yaml.toString()).nodes()).hasSize(nodes);
  }
}
