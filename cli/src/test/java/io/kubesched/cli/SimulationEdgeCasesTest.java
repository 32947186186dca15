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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs a real cluster dump contains that the simulator must handle as kube-scheduler does. */
final class SimulationEdgeCasesTest {
  private static final String NODE =
      """
      apiVersion: v1
      kind: Node
      metadata: {name: n1}
      status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
      ---
      """;

  @TempDir Path dir;
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  private int run(String yaml, String... extra) throws Exception {
    Path f = dir.resolve("in.yaml");
    Files.writeString(f, yaml);
    List<String> args = new java.util.ArrayList<>(List.of("simulate", f.toString(), "-o", "json"));
    args.addAll(List.of(extra));
    return Main.run(
        new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
  }

  private Map<String, JsonObject> pods() {
    Map<String, JsonObject> m = new LinkedHashMap<>();
    for (JsonElement e :
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray("pods")) {
      m.put(e.getAsJsonObject().get("name").getAsString(), e.getAsJsonObject());
    }
    return m;
  }

  private JsonObject node() {
    return new Gson()
        .fromJson(out.toString(), JsonObject.class)
        .getAsJsonArray("nodes")
        .get(0)
        .getAsJsonObject();
  }

  @Test
  void finishedPodsAreNeitherLoadNorPending() throws Exception {
    assertThat(
            run(
                NODE
                    + """
        apiVersion: v1
        kind: Pod
        metadata: {name: done, namespace: default}
        spec: {nodeName: n1, containers: [{name: c, image: nginx, resources: {requests: {cpu: "3"}}}]}
        status: {phase: Succeeded}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: failed-pending, namespace: default}
        spec: {containers: [{name: c, image: nginx}]}
        status: {phase: Failed}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: new, namespace: default}
        spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: "3"}}}]}
        """))
        .isZero();
    assertThat(pods().keySet()).containsExactly("new");
    assertThat(pods().get("new").get("status").getAsString()).isEqualTo("Scheduled");
    assertThat(node().getAsJsonArray("pods").toString()).isEqualTo("[\"default/new\"]");
  }

  @Test
  void podsOfAnotherSchedulerAreReportedAsNotHandled() throws Exception {
    assertThat(
            run(
                NODE
                    + """
        apiVersion: v1
        kind: Pod
        metadata: {name: other, namespace: default}
        spec: {schedulerName: volcano, containers: [{name: c, image: nginx}]}
        """))
        .isZero();
    JsonObject p = pods().get("other");
    assertThat(p.get("status").getAsString()).isEqualTo("Unschedulable");
    assertThat(p.get("message").getAsString())
        .isEqualTo("not scheduled: no profile of the configuration has schedulerName \"volcano\"");
  }

  @Test
  void aPodTheApiServerWouldRefuseIsRefusedWithExitCodeTwo() throws Exception {
    assertThat(
            run(
                NODE
                    + """
        apiVersion: v1
        kind: Pod
        metadata: {name: bad-class, namespace: default}
        spec: {priorityClassName: nope, containers: [{name: c, image: nginx}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: fine, namespace: default}
        spec: {containers: [{name: c, image: nginx}]}
        """))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains(
            "Pod default/bad-class: pods \"bad-class\" is forbidden: no PriorityClass with name"
                + " nope was found")
        .doesNotContain("fine");
  }

  @Test
  void anInvalidProfileIsABadConfigurationNotACrash() throws Exception {
    Path cfg = dir.resolve("cfg.yaml");
    Files.writeString(
        cfg,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - plugins:
            filter:
              enabled: [{name: PrioritySort}]
        """);
    assertThat(run(NODE, "--config", cfg.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains("invalid configuration")
        .contains("PrioritySort")
        .doesNotContain("\tat ");
  }

  @Test
  void workloadsWhosePodsAreInTheInputAreNotExpandedAgain() throws Exception {
    assertThat(
            run(
                NODE
                    + """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: default}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec: {containers: [{name: c, image: nginx}]}
        ---
        apiVersion: apps/v1
        kind: ReplicaSet
        metadata:
          name: web-5d4f7
          namespace: default
          ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d1, controller: true}]
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec: {containers: [{name: c, image: nginx}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: web-5d4f7-abcde
          namespace: default
          labels: {app: web}
          ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4f7, uid: r1, controller: true}]
        spec: {nodeName: n1, containers: [{name: c, image: nginx}]}
        """))
        .isZero();
    // the ReplicaSet has one of its two pods: one more is created, none for the Deployment
    // (-o json lists the bound pod too, after the pending ones)
    assertThat(pods().keySet()).containsExactly("web-5d4f7-0", "web-5d4f7-abcde");
    assertThat(pods().get("web-5d4f7-abcde").get("status").getAsString()).isEqualTo("Bound");
    assertThat(node().getAsJsonArray("pods")).hasSize(2);
  }
}
