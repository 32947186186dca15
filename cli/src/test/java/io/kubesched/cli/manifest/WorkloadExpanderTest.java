package io.kubesched.cli.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.PodInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class WorkloadExpanderTest {
  private static final String NODES =
      """
      apiVersion: v1
      kind: Node
      metadata: {name: a, labels: {disk: ssd}}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: b, labels: {disk: hdd}}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: c, labels: {disk: ssd}}
      spec:
        taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
      ---
      """;

  @Test
  void deploymentMakesReplicaSetAndOwnedPods() {
    Manifests m =
        ManifestLoader.parse(
            "t",
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: shop}
            spec:
              replicas: 3
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec: {containers: [{name: c, image: nginx}]}
            """);
    WorkloadExpander.Expansion e = WorkloadExpander.expand(m);
    assertThat(e.pods())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("web-0", "web-1", "web-2");
    V1Pod first = e.pods().get(0);
    assertThat(first.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(first.getMetadata().getLabels()).isEqualTo(Map.of("app", "web"));
    assertThat(first.getMetadata().getOwnerReferences().get(0).getKind()).isEqualTo("ReplicaSet");
    assertThat(first.getMetadata().getOwnerReferences().get(0).getName()).isEqualTo("web");
    assertThat(e.replicaSets()).hasSize(1);
    assertThat(e.replicaSets().get(0).getMetadata().getOwnerReferences().get(0).getKind())
        .isEqualTo("Deployment");
  }

  @Test
  void statefulSetAndJobPods() {
    Manifests m =
        ManifestLoader.parse(
            "t",
            """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db}
            spec:
              replicas: 2
              selector: {matchLabels: {app: db}}
              template:
                metadata: {labels: {app: db}}
                spec: {containers: [{name: c, image: nginx}]}
            ---
            apiVersion: batch/v1
            kind: Job
            metadata: {name: etl}
            spec:
              parallelism: 3
              completions: 2
              template:
                spec: {containers: [{name: c, image: nginx}], restartPolicy: Never}
            """);
    List<V1Pod> pods = WorkloadExpander.expand(m).pods();
    assertThat(pods)
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("db-0", "db-1", "etl-0", "etl-1");
    assertThat(pods.get(1).getMetadata().getLabels())
        .containsEntry("statefulset.kubernetes.io/pod-name", "db-1")
        .containsEntry("apps.kubernetes.io/pod-index", "1");
    assertThat(pods.get(2).getMetadata().getLabels()).containsEntry("job-name", "etl");
  }

  @Test
  void daemonSetPodsArePinnedToEligibleNodes() {
    Manifests m =
        ManifestLoader.parse(
            "t",
            NODES
                + """
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent, namespace: kube-system}
                spec:
                  selector: {matchLabels: {app: agent}}
                  template:
                    metadata: {labels: {app: agent}}
                    spec:
                      nodeSelector: {disk: ssd}
                      containers: [{name: c, image: nginx}]
                """);
    List<V1Pod> pods = WorkloadExpander.expand(m).pods();
    // node b has the wrong label; node c has an untolerated NoSchedule taint
    assertThat(pods).extracting(p -> p.getMetadata().getName()).containsExactly("agent-0");
    PodInfo info = PodInfo.of(pods.get(0));
    assertThat(info.requiredNodeAffinity().matches("a", Map.of("disk", "ssd"))).isTrue();
    assertThat(info.requiredNodeAffinity().matches("c", Map.of("disk", "ssd"))).isFalse();
    assertThat(info.tolerations())
        .extracting(t -> t.key())
        .contains("node.kubernetes.io/unschedulable", "node.kubernetes.io/not-ready");
  }
}
