package io.kubesched.cli.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kubernetes.client.openapi.models.V1ResourceSlice;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The loader's v1.34 feature review of DRA input: fields of alpha gates (off in v1.34) are dropped
 * with a warning, as the API server drops them; admin access needs the namespace label.
 */
class DraManifestsTest {
  record Case(String name, String yaml, List<String> warnings, List<String> problems) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String CLAIM_HEAD =
      """
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: c, namespace: %s}
      spec:
        devices:
          requests:
      """;

  private static String ns(String name, boolean admin) {
    return """
        apiVersion: v1
        kind: Namespace
        metadata: {name: %s%s}
        ---
        """
        .formatted(name, admin ? ", labels: {resource.kubernetes.io/admin-access: \"true\"}" : "");
  }

  static Stream<Case> cases() {
    String ignored =
        " feature gate (alpha, off by default in kube v1.34), which kubesched does not support; a"
            + " v1.34 API server with the gate off drops the field too";
    String adminClaim =
        CLAIM_HEAD + "    - {name: gpu, exactly: {deviceClassName: gpu, adminAccess: true}}\n";
    return Stream.of(
        new Case(
            "slice with partitionable devices, taints, binding conditions, consumable capacity",
            """
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: s}
            spec:
              driver: d.example.com
              nodeName: n1
              pool: {name: p, generation: 1, resourceSliceCount: 1}
              sharedCounters: [{name: mem, counters: {memory: {value: 8Gi}}}]
              devices:
              - name: d0
                consumesCounters: [{counterSet: mem, counters: {memory: {value: 4Gi}}}]
                taints: [{key: broken, effect: NoSchedule}]
                bindingConditions: [ready]
                bindingFailureConditions: [failed]
                bindsToNode: true
                allowMultipleAllocations: true
                capacity: {bw: {value: "10", requestPolicy: {default: "1"}}}
            """,
            List.of(
                "in.yaml:1 (document 1): ResourceSlice s: spec.sharedCounters: ignored: it needs the"
                    + " DRAPartitionableDevices"
                    + ignored,
                "in.yaml:1 (document 1): ResourceSlice s: spec.devices[0].consumesCounters: ignored: it needs the"
                    + " DRAPartitionableDevices"
                    + ignored,
                "in.yaml:1 (document 1): ResourceSlice s: spec.devices[0].taints: ignored: it needs the"
                    + " DRADeviceTaints"
                    + ignored,
                "in.yaml:1 (document 1): ResourceSlice s: spec.devices[0].bindingConditions: ignored: it needs the"
                    + " DRADeviceBindingConditions"
                    + ignored,
                "in.yaml:1 (document 1): ResourceSlice s: spec.devices[0].bindingFailureConditions: ignored: it"
                    + " needs the DRADeviceBindingConditions"
                    + ignored,
                "in.yaml:1 (document 1): ResourceSlice s: spec.devices[0].bindsToNode: ignored: it needs the"
                    + " DRADeviceBindingConditions"
                    + ignored,
                "in.yaml:1 (document 1): ResourceSlice s: spec.devices[0].allowMultipleAllocations: ignored: it"
                    + " needs the DRAConsumableCapacity"
                    + ignored,
                "in.yaml:1 (document 1): ResourceSlice s: spec.devices[0].capacity[bw].requestPolicy: ignored: it"
                    + " needs the DRAConsumableCapacity"
                    + ignored),
            List.of()),
        new Case(
            "claim with tolerations and capacity requests",
            ns("team", false)
                + CLAIM_HEAD.formatted("team")
                + "    - name: a\n"
                + "      exactly:\n"
                + "        deviceClassName: gpu\n"
                + "        tolerations: [{key: broken, operator: Exists}]\n"
                + "        capacity: {requests: {bw: \"1\"}}\n"
                + "    - name: b\n"
                + "      firstAvailable:\n"
                + "      - {name: x, deviceClassName: gpu, tolerations: [{operator: Exists}]}\n",
            List.of(
                "in.yaml:5 (document 2): ResourceClaim team/c: spec.devices.requests[0].exactly.tolerations:"
                    + " ignored: it needs the DRADeviceTaints"
                    + ignored,
                "in.yaml:5 (document 2): ResourceClaim team/c: spec.devices.requests[0].exactly.capacity: ignored:"
                    + " it needs the DRAConsumableCapacity"
                    + ignored,
                "in.yaml:5 (document 2): ResourceClaim team/c:"
                    + " spec.devices.requests[1].firstAvailable[0].tolerations: ignored: it needs"
                    + " the DRADeviceTaints"
                    + ignored),
            List.of()),
        new Case(
            "device class for extended resources",
            """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: gpu}
            spec: {extendedResourceName: example.com/gpu}
            """,
            List.of(
                "in.yaml:1 (document 1): DeviceClass gpu: spec.extendedResourceName: ignored: it needs the"
                    + " DRAExtendedResource"
                    + ignored),
            List.of()),
        new Case(
            "admin access in a labelled namespace",
            ns("ops", true) + adminClaim.formatted("ops"),
            List.of(),
            List.of()),
        new Case(
            "admin access in an unlabelled namespace",
            ns("team", false) + adminClaim.formatted("team"),
            List.of(),
            List.of(
                "in.yaml:5 (document 2): ResourceClaim team/c: spec.devices.requests[0].adminAccess: Forbidden:"
                    + " admin access to devices requires the"
                    + " `resource.kubernetes.io/admin-access: true` label on the containing"
                    + " namespace")),
        new Case(
            "admin access in a template, namespace not in the input",
            """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: t, namespace: team}
            spec:
              spec:
                devices:
                  requests:
                  - {name: plain, exactly: {deviceClassName: gpu}}
                  - {name: gpu, exactly: {deviceClassName: gpu, adminAccess: true}}
            """,
            List.of(),
            List.of(
                "in.yaml:1 (document 1): ResourceClaimTemplate team/t: spec.spec.devices.requests[1].adminAccess:"
                    + " Forbidden: admin access to devices requires the"
                    + " `resource.kubernetes.io/admin-access: true` label on the containing"
                    + " namespace")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void loads(Case tc) {
    if (tc.problems().isEmpty()) {
      Manifests m = ManifestLoader.parse("in.yaml", tc.yaml());
      assertThat(m.warnings()).isEqualTo(tc.warnings());
    } else {
      ManifestException e =
          catchThrowableOfType(
              ManifestException.class, () -> ManifestLoader.parse("in.yaml", tc.yaml()));
      assertThat(e).isNotNull();
      assertThat(e.problems()).isEqualTo(tc.problems());
    }
  }

  @org.junit.jupiter.api.Test
  void droppedFieldsAreGoneFromTheLoadedSlice() {
    Manifests m =
        ManifestLoader.parse(
            "in.yaml",
            """
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: s}
            spec:
              driver: d.example.com
              nodeName: n1
              pool: {name: p, generation: 1, resourceSliceCount: 1}
              devices:
              - {name: d0, bindingConditions: [ready], taints: [{key: k, effect: NoSchedule}]}
            """);
    V1ResourceSlice s = (V1ResourceSlice) m.draObjects().get(0);
    assertThat(s.getSpec().getDevices().get(0).getBindingConditions()).isNull();
    assertThat(s.getSpec().getDevices().get(0).getTaints()).isNull();
  }
}
