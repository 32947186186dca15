package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the simulator must do as a cluster does: RuntimeClass overhead counted in a pod's requests,
 * every pod of the input in {@code -o json} (bound existing load too, and its evictions), pods
 * bound to unknown nodes warned about, and inputs beyond {@code --max-pods} refused.
 */
final class FidelityTest {
  @TempDir Path dir;
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  private int run(String yaml, String... extra) throws Exception {
    Path f = dir.resolve("in.yaml");
    Files.writeString(f, yaml);
    List<String> args = new ArrayList<>(List.of("simulate", f.toString(), "-o", "json"));
    args.addAll(List.of(extra));
    return Main.run(
        new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
  }

  /** Returns {@code namespace/name node status message} per pod of the JSON report. */
  private List<String> pods() {
    List<String> rows = new ArrayList<>();
    for (JsonElement e :
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray("pods")) {
      JsonObject p = e.getAsJsonObject();
      rows.add(
          p.get("namespace").getAsString()
              + "/"
              + p.get("name").getAsString()
              + " "
              + (p.get("node").isJsonNull() ? "-" : p.get("node").getAsString())
              + " "
              + p.get("status").getAsString()
              + (p.get("message").isJsonNull() ? "" : " " + p.get("message").getAsString()));
    }
    return rows;
  }

  private JsonObject firstNode() {
    return new Gson()
        .fromJson(out.toString(), JsonObject.class)
        .getAsJsonArray("nodes")
        .get(0)
        .getAsJsonObject();
  }

  @Test
  void runtimeClassOverheadCountsInThePodsRequests() throws Exception {
    // two pods of 800m on a 2-CPU node: they fit without overhead, only one fits with 250m each
    assertThat(
            run(
                """
                apiVersion: v1
                kind: Node
                metadata: {name: n1, labels: {sandbox: "true"}}
                status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
                ---
                apiVersion: node.k8s.io/v1
                kind: RuntimeClass
                metadata: {name: kata}
                handler: kata
                overhead: {podFixed: {cpu: 250m, memory: 120Mi}}
                scheduling: {nodeSelector: {sandbox: "true"}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: a}
                spec: {runtimeClassName: kata, containers: [{name: c, image: nginx, resources: {requests: {cpu: 800m}}}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: b}
                spec: {runtimeClassName: kata, containers: [{name: c, image: nginx, resources: {requests: {cpu: 800m}}}]}
                """))
        .isZero();
    assertThat(pods())
        .containsExactly(
            "default/a n1 Scheduled",
            "default/b - Unschedulable 0/1 nodes are available: 1 Insufficient cpu. preemption:"
                + " 0/1 nodes are available: 1 No preemption victims found for incoming pod.");
    assertThat(firstNode().getAsJsonObject("requested").toString())
        .isEqualTo("{\"cpu\":\"1050m\",\"memory\":\"120Mi\"}");
  }

  @Test
  void jsonListsEveryPodIncludingBoundAndEvictedOnes() throws Exception {
    assertThat(
            run(
                """
                apiVersion: v1
                kind: Node
                metadata: {name: n1}
                status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: n2}
                status: {allocatable: {cpu: "1", memory: 8Gi, pods: "110"}}
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: 1000
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: victim}
                spec: {nodeName: n1, containers: [{name: c, image: nginx, resources: {requests: {cpu: "2"}}}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: survivor}
                spec: {nodeName: n2, containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: important}
                spec: {priorityClassName: high, containers: [{name: c, image: nginx, resources: {requests: {cpu: "2"}}}]}
                """))
        .isZero();
    assertThat(pods())
        .containsExactly(
            "default/important n1 Scheduled",
            "default/victim - Evicted Preempted by pod default/important on node n1",
            "default/survivor n2 Bound");
  }

  @Test
  void aPodBoundToANodeNotInTheInputIsWarnedAboutAndListed() throws Exception {
    assertThat(
            run(
                """
                apiVersion: v1
                kind: Node
                metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
                status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: orphan}
                spec: {nodeName: gone, containers: [{name: c, image: nginx}]}
                """))
        .isZero();
    assertThat(pods()).containsExactly("default/orphan gone Bound");
    assertThat(err.toString())
        .isEqualTo(
            "warning: pod default/orphan is bound to node \"gone\", which is not in the input: it"
                + " takes no room on any node of the simulation\n");
  }

  @Test
  void inputsBeyondMaxPodsAreRefusedBeforeExpansion() throws Exception {
    String deployment =
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          replicas: %d
          selector: {matchLabels: {app: web}}
          template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}
        """;
    assertThat(run(deployment.formatted(11), "--max-pods", "10")).isEqualTo(2);
    assertThat(err.toString())
        .startsWith(
            "input: the manifests would create 11 pods, more than --max-pods=10 (the default is"
                + " sized for the JVM's maximum heap of ");
    assertThat(out.toString()).isEmpty();
    // two billion replicas: refused at once by the default limit, no expansion, no OOM
    assertThat(run(deployment.formatted(2_000_000_000))).isEqualTo(2);
    assertThat(err.toString()).contains("would create 2000000000 pods, more than --max-pods=");
  }
}
