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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole-engine simulations with the volume plugins of the default profile. */
final class VolumeSimulationTest {
  private static final String ZONAL_NODES =
      """
      apiVersion: v1
      kind: Node
      metadata: {name: a1, labels: {topology.kubernetes.io/zone: a, kubernetes.io/hostname: a1}}
      status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: b1, labels: {topology.kubernetes.io/zone: b, kubernetes.io/hostname: b1}}
      status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: c1, labels: {topology.kubernetes.io/zone: c, kubernetes.io/hostname: c1}}
      status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
      ---
      """;

  @TempDir Path dir;
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  private int run(String yaml) throws Exception {
    Path f = dir.resolve("in.yaml");
    Files.writeString(f, yaml);
    return Main.run(
        new PrintWriter(out, true),
        new PrintWriter(err, true),
        "simulate",
        f.toString(),
        "-o",
        "json");
  }

  private Map<String, JsonObject> list(String key) {
    Map<String, JsonObject> m = new LinkedHashMap<>();
    for (JsonElement e :
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray(key)) {
      m.put(e.getAsJsonObject().get("name").getAsString(), e.getAsJsonObject());
    }
    return m;
  }

  private static String zonalPv(String name, String zone, String size) {
    return """
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: %s}
        spec:
          capacity: {storage: %s}
          accessModes: [ReadWriteOnce]
          storageClassName: local
          local: {path: /mnt/%s}
          nodeAffinity:
            required:
              nodeSelectorTerms:
              - matchExpressions:
                - {key: topology.kubernetes.io/zone, operator: In, values: [%s]}
        ---
        """
        .formatted(name, size, name, zone);
  }

  private static final String LOCAL_CLASS =
      """
      apiVersion: storage.k8s.io/v1
      kind: StorageClass
      metadata: {name: local}
      provisioner: kubernetes.io/no-provisioner
      volumeBindingMode: WaitForFirstConsumer
      ---
      """;

  private static String statefulSet(int replicas, String className, String size) {
    return """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: {name: db, namespace: default}
        spec:
          replicas: %d
          selector: {matchLabels: {app: db}}
          template:
            metadata: {labels: {app: db}}
            spec:
              containers: [{name: c, image: db, resources: {requests: {cpu: 100m}}}]
          volumeClaimTemplates:
          - metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: %s
              resources: {requests: {storage: %s}}
        ---
        """
        .formatted(replicas, className, size);
  }

  @Test
  void statefulSetPodsFollowTheirZonalVolumes() throws Exception {
    String yaml =
        ZONAL_NODES
            + LOCAL_CLASS
            + zonalPv("pv-a", "a", "10Gi")
            + zonalPv("pv-b", "b", "10Gi")
            + zonalPv("pv-c", "c", "10Gi")
            + statefulSet(3, "local", "5Gi");
    assertThat(run(yaml)).as(err.toString()).isZero();
    Map<String, JsonObject> pods = list("pods");
    Map<String, JsonObject> claims = list("claims");
    assertThat(pods.values())
        .allSatisfy(p -> assertThat(p.get("status").getAsString()).isEqualTo("Scheduled"));
    for (int i = 0; i < 3; i++) {
      String node = pods.get("db-" + i).get("node").getAsString();
      JsonObject claim = claims.get("data-db-" + i);
      assertThat(claim.get("phase").getAsString()).isEqualTo("Bound");
      assertThat(claim.get("volume").getAsString()).isEqualTo("pv-" + node.charAt(0));
    }
  }

  @Test
  void aClaimWhoseOnlyVolumeIsTooSmallStaysPending() throws Exception {
    String yaml =
        ZONAL_NODES + LOCAL_CLASS + zonalPv("pv-a", "a", "1Gi") + statefulSet(1, "local", "5Gi");
    assertThat(run(yaml)).as(err.toString()).isZero();
    JsonObject pod = list("pods").get("db-0");
    assertThat(pod.get("status").getAsString()).isEqualTo("Unschedulable");
    assertThat(pod.get("message").getAsString())
        .isEqualTo(
            "0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind."
                + " preemption: 0/3 nodes are available: 3 Preemption is not helpful for"
                + " scheduling.");
    assertThat(list("claims").get("data-db-0").get("phase").getAsString()).isEqualTo("Pending");
  }

  @Test
  void provisioningHonoursAllowedTopologies() throws Exception {
    String yaml =
        ZONAL_NODES
            + """
            apiVersion: storage.k8s.io/v1
            kind: StorageClass
            metadata: {name: zonal}
            provisioner: ebs.csi.aws.com
            volumeBindingMode: WaitForFirstConsumer
            allowedTopologies:
            - matchLabelExpressions:
              - {key: topology.kubernetes.io/zone, values: [b]}
            ---
            """
            + statefulSet(2, "zonal", "5Gi");
    assertThat(run(yaml)).as(err.toString()).isZero();
    Map<String, JsonObject> pods = list("pods");
    assertThat(pods.get("db-0").get("node").getAsString()).isEqualTo("b1");
    assertThat(pods.get("db-1").get("node").getAsString()).isEqualTo("b1");
    assertThat(list("claims").get("data-db-0").get("volume").getAsString()).startsWith("pvc-");
  }

  @Test
  void missingClaimAndUnboundImmediateClaimGetKubesReasons() throws Exception {
    String yaml =
        ZONAL_NODES
            + """
            apiVersion: v1
            kind: Pod
            metadata: {name: no-claim, namespace: default}
            spec:
              containers: [{name: c, image: x}]
              volumes: [{name: d, persistentVolumeClaim: {claimName: missing}}]
            ---
            apiVersion: storage.k8s.io/v1
            kind: StorageClass
            metadata: {name: manual}
            provisioner: kubernetes.io/no-provisioner
            ---
            apiVersion: v1
            kind: PersistentVolumeClaim
            metadata: {name: waiting, namespace: default}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: manual
              resources: {requests: {storage: 1Gi}}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: immediate, namespace: default}
            spec:
              containers: [{name: c, image: x}]
              volumes: [{name: d, persistentVolumeClaim: {claimName: waiting}}]
            ---
            apiVersion: v1
            kind: PersistentVolumeClaim
            metadata: {name: classless, namespace: default}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: no-such-class
              resources: {requests: {storage: 1Gi}}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: missing-class, namespace: default}
            spec:
              containers: [{name: c, image: x}]
              volumes: [{name: d, persistentVolumeClaim: {claimName: classless}}]
            """;
    assertThat(run(yaml)).as(err.toString()).isZero();
    // kube's IsDelayBindingMode treats a StorageClass that does not exist as immediate binding.
    assertThat(list("pods").get("missing-class").get("message").getAsString())
        .isEqualTo(
            "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."
                + " preemption: 0/3 nodes are available: 3 Preemption is not helpful for"
                + " scheduling.");
    Map<String, JsonObject> pods = list("pods");
    assertThat(pods.get("no-claim").get("message").getAsString())
        .isEqualTo(
            "0/3 nodes are available: persistentvolumeclaim \"missing\" not found."
                + " preemption: 0/3 nodes are available: 3 Preemption is not helpful for"
                + " scheduling.");
    assertThat(pods.get("immediate").get("message").getAsString())
        .isEqualTo(
            "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."
                + " preemption: 0/3 nodes are available: 3 Preemption is not helpful for"
                + " scheduling.");
  }

  @Test
  void configNamingTheVolumePluginsLoads() throws Exception {
    Path cfg = dir.resolve("cfg.yaml");
    Files.writeString(
        cfg,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - schedulerName: default-scheduler
          plugins:
            filter:
              enabled: [{name: VolumeBinding}, {name: VolumeZone}, {name: NodeVolumeLimits}, {name: VolumeRestrictions}]
          pluginConfig:
          - name: VolumeBinding
            args: {bindTimeoutSeconds: 300}
        """);
    Path f = dir.resolve("in.yaml");
    Files.writeString(f, ZONAL_NODES);
    assertThat(
            Main.run(
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                "simulate",
                f.toString(),
                "--config",
                cfg.toString()))
        .as(err.toString())
        .isZero();
  }

  @Test
  void pluginsCommandListsTheVolumePlugins() throws Exception {
    assertThat(Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "plugins"))
        .isZero();
    assertThat(out.toString())
        .contains("VolumeBinding", "VolumeZone", "NodeVolumeLimits", "VolumeRestrictions");
  }
}
