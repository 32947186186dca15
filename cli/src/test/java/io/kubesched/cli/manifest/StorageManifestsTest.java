package io.kubesched.cli.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Volume;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StorageManifestsTest {
  @Test
  void readsStorageKindsFromAKubectlListDump() {
    String yaml =
        """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: PersistentVolume
          metadata: {name: pv1}
          spec:
            capacity: {storage: 10Gi}
            accessModes: [ReadWriteOnce]
            storageClassName: local
            local: {path: /mnt/disk}
            nodeAffinity:
              required:
                nodeSelectorTerms:
                - matchExpressions:
                  - {key: kubernetes.io/hostname, operator: In, values: [n1]}
        - apiVersion: v1
          kind: PersistentVolumeClaim
          metadata: {name: c1, namespace: default}
          spec:
            accessModes: [ReadWriteOnce]
            resources: {requests: {storage: 1Gi}}
            storageClassName: local
        - apiVersion: storage.k8s.io/v1
          kind: StorageClass
          metadata: {name: local}
          provisioner: kubernetes.io/no-provisioner
          volumeBindingMode: WaitForFirstConsumer
        - apiVersion: storage.k8s.io/v1
          kind: CSINode
          metadata: {name: n1}
          spec:
            drivers:
            - {name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: 25}}
        - apiVersion: storage.k8s.io/v1
          kind: CSIDriver
          metadata: {name: ebs.csi.aws.com}
          spec: {storageCapacity: true}
        - apiVersion: storage.k8s.io/v1
          kind: CSIStorageCapacity
          metadata: {name: cap1, namespace: kube-system}
          storageClassName: local
          capacity: 100Gi
        """;
    Manifests m = ManifestLoader.parse("dump.yaml", yaml);
    assertThat(m.persistentVolumes())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("pv1");
    assertThat(m.persistentVolumeClaims())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("c1");
    assertThat(m.storageClasses())
        .extracting(p -> p.getVolumeBindingMode())
        .containsExactly("WaitForFirstConsumer");
    assertThat(m.csiNodes().get(0).getSpec().getDrivers().get(0).getAllocatable().getCount())
        .isEqualTo(25);
    assertThat(m.csiDrivers()).hasSize(1);
    assertThat(m.csiStorageCapacities()).hasSize(1);
    assertThat(m.warnings()).isEmpty();
  }

  static Stream<Arguments> invalidObjects() {
    return Stream.of(
        Arguments.of(
            "PV with a negative capacity",
            """
            apiVersion: v1
            kind: PersistentVolume
            metadata: {name: pv1}
            spec:
              capacity: {storage: -1Gi}
              accessModes: [ReadWriteOnce]
              hostPath: {path: /x}
            """,
            List.of(
                "in.yaml:1 (document 1): PersistentVolume pv1: spec.capacity[storage]: Invalid value: \"-1Gi\": must be greater than or equal to 0")),
        Arguments.of(
            "PV with an invalid quantity",
            """
            apiVersion: v1
            kind: PersistentVolume
            metadata: {name: pv1}
            spec:
              capacity: {storage: lots}
              accessModes: [ReadWriteOnce]
              hostPath: {path: /x}
            """,
            List.of(
                "in.yaml:1 (document 1): PersistentVolume pv1: spec.capacity.storage: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")),
        Arguments.of(
            "PV with a bad node affinity",
            """
            apiVersion: v1
            kind: PersistentVolume
            metadata: {name: pv1}
            spec:
              capacity: {storage: 1Gi}
              accessModes: [ReadWriteOnce]
              hostPath: {path: /x}
              nodeAffinity:
                required:
                  nodeSelectorTerms:
                  - matchExpressions:
                    - {key: zone, operator: Near, values: [a]}
            """,
            List.of(
                "in.yaml:1 (document 1): PersistentVolume pv1: spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: \"Near\": not a valid selector operator")),
        Arguments.of(
            "PV without a volume source",
            """
            apiVersion: v1
            kind: PersistentVolume
            metadata: {name: pv1}
            spec:
              capacity: {storage: 1Gi}
              accessModes: [ReadWriteOnce]
            """,
            List.of(
                "in.yaml:1 (document 1): PersistentVolume pv1: spec: Required value: must specify a volume type")),
        Arguments.of(
            "PVC with an unknown access mode and a negative request",
            """
            apiVersion: v1
            kind: PersistentVolumeClaim
            metadata: {name: c1}
            spec:
              accessModes: [ReadWriteSometimes]
              resources: {requests: {storage: -5}}
            """,
            List.of(
                "in.yaml:1 (document 1): PersistentVolumeClaim default/c1: spec.accessModes: Unsupported value: \"ReadWriteSometimes\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"",
                "in.yaml:1 (document 1): PersistentVolumeClaim default/c1: spec.resources[storage]: Invalid value: \"-5\": must be greater than or equal to 0")),
        Arguments.of(
            "StorageClass with an unknown binding mode",
            """
            apiVersion: storage.k8s.io/v1
            kind: StorageClass
            metadata: {name: sc}
            provisioner: p
            volumeBindingMode: Later
            """,
            List.of(
                "in.yaml:1 (document 1): StorageClass sc: volumeBindingMode: Unsupported value: \"Later\": supported values: \"Immediate\", \"WaitForFirstConsumer\"")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidObjects")
  void refusesWhatTheApiServerRefuses(String name, String yaml, List<String> want) {
    assertThatThrownBy(() -> ManifestLoader.parse("in.yaml", yaml))
        .isInstanceOfSatisfying(
            ManifestException.class, e -> assertThat(e.problems()).isEqualTo(want));
  }

  @Test
  void statefulSetClaimTemplatesBecomeClaimsAndPodVolumes() {
    String yaml =
        """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: {name: web, namespace: ns}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: c, image: nginx}]
          volumeClaimTemplates:
          - metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              resources: {requests: {storage: 1Gi}}
        """;
    WorkloadExpander.Expansion e = WorkloadExpander.expand(ManifestLoader.parse("s.yaml", yaml));
    assertThat(e.persistentVolumeClaims())
        .extracting(c -> c.getMetadata().getNamespace() + "/" + c.getMetadata().getName())
        .containsExactly("ns/data-web-0", "ns/data-web-1");
    V1PersistentVolumeClaim c0 = e.persistentVolumeClaims().get(0);
    assertThat(c0.getMetadata().getLabels()).containsEntry("app", "web");
    V1Pod p1 = e.pods().get(1);
    assertThat(p1.getMetadata().getName()).isEqualTo("web-1");
    V1Volume v = p1.getSpec().getVolumes().get(0);
    assertThat(v.getName()).isEqualTo("data");
    assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("data-web-1");
  }
}
