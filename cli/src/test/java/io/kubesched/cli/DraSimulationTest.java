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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Whole-engine DRA scenarios: the simulator with DynamicResourceAllocation on. */
final class DraSimulationTest {
  private static final String GATE = "--feature-gates=DynamicResourceAllocation=true";
  private static final String CLUSTER =
      """
      apiVersion: v1
      kind: Node
      metadata: {name: n1}
      status: {allocatable: {cpu: "8", memory: 8Gi, pods: "110"}}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: n2}
      status: {allocatable: {cpu: "8", memory: 8Gi, pods: "110"}}
      ---
      apiVersion: resource.k8s.io/v1
      kind: DeviceClass
      metadata: {name: gpu}
      spec:
        selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: n1-gpus}
      spec:
        driver: gpu.example.com
        nodeName: n1
        pool: {name: n1, generation: 1, resourceSliceCount: 1}
        devices:
        - {name: gpu-0, attributes: {model: {string: A100}}, capacity: {memory: {value: 80Gi}}}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: n2-gpus}
      spec:
        driver: gpu.example.com
        nodeName: n2
        pool: {name: n2, generation: 1, resourceSliceCount: 1}
        devices:
        - {name: gpu-0, attributes: {model: {string: L4}}, capacity: {memory: {value: 24Gi}}}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaimTemplate
      metadata: {name: one-gpu}
      spec:
        spec:
          devices:
            requests:
            - {name: gpu, exactly: {deviceClassName: gpu}}
      ---
      """;

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

  private Map<String, String> placements() {
    Map<String, String> m = new LinkedHashMap<>();
    for (JsonElement e :
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray("pods")) {
      JsonObject p = e.getAsJsonObject();
      m.put(
          p.get("name").getAsString(),
          p.get("node").isJsonNull()
              ? "pending: " + p.get("message").getAsString()
              : p.get("node").getAsString());
    }
    return m;
  }

  private static String podWithTemplate(String name) {
    return """
        apiVersion: v1
        kind: Pod
        metadata: {name: %s, namespace: default}
        spec:
          resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
          containers: [{name: c, image: nginx, resources: {claims: [{name: gpu}]}}]
        ---
        """
        .formatted(name);
  }

  private static String podWithClaim(String name, String claim) {
    return """
        apiVersion: v1
        kind: Pod
        metadata: {name: %s, namespace: default}
        spec:
          resourceClaims: [{name: gpu, resourceClaimName: %s}]
          containers: [{name: c, image: nginx, resources: {claims: [{name: gpu}]}}]
        ---
        """
        .formatted(name, claim);
  }

  @Test
  void gpuPodsFillExactlyThePublishedDevices() throws Exception {
    assertThat(
            run(CLUSTER + podWithTemplate("a") + podWithTemplate("b") + podWithTemplate("c"), GATE))
        .isZero();
    Map<String, String> p = placements();
    assertThat(p.values().stream().filter(v -> v.equals("n1")).count()).isEqualTo(1);
    assertThat(p.values().stream().filter(v -> v.equals("n2")).count()).isEqualTo(1);
    assertThat(p.get("c"))
        .isEqualTo(
            "pending: 0/2 nodes are available: 2 cannot allocate all claims. still not"
                + " schedulable, preemption: 0/2"
                + " nodes are available: 2 Preemption is not helpful for scheduling.");
  }

  @Test
  void aClaimSharedByTwoPodsUsesOneDevice() throws Exception {
    String claim =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: shared, namespace: default}
        spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
        ---
        """;
    assertThat(
            run(
                CLUSTER
                    + claim
                    + podWithClaim("s1", "shared")
                    + podWithClaim("s2", "shared")
                    + podWithTemplate("t1")
                    + podWithTemplate("t2"),
                GATE))
        .isZero();
    Map<String, String> p = placements();
    assertThat(p.get("s1")).isEqualTo(p.get("s2"));
    assertThat(p.get("t1")).isNotEqualTo(p.get("s1")).doesNotStartWith("pending");
    assertThat(p.get("t2")).startsWith("pending: ");
    JsonObject shared = null;
    for (JsonElement e :
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray("resourceClaims")) {
      if (e.getAsJsonObject().get("name").getAsString().equals("shared")) {
        shared = e.getAsJsonObject();
      }
    }
    assertThat(shared).isNotNull();
    assertThat(shared.getAsJsonArray("devices")).hasSize(1);
    assertThat(shared.getAsJsonArray("reservedFor").toString())
        .isEqualTo("[\"default/s1\",\"default/s2\"]");
  }

  @Test
  void aCelSelectorChoosesTheDeviceByAttribute() throws Exception {
    String claim =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: l4, namespace: default}
        spec:
          devices:
            requests:
            - name: gpu
              exactly:
                deviceClassName: gpu
                selectors:
                - cel: {expression: 'device.capacity["gpu.example.com"].memory.isLessThan(quantity("40Gi")) && device.attributes["gpu.example.com"].model == "L4"'}
        ---
        """;
    assertThat(run(CLUSTER + claim + podWithClaim("x", "l4"), GATE)).isZero();
    assertThat(placements()).containsEntry("x", "n2");
  }

  @Test
  void aPrioritizedListFallsBackToTheSecondChoice() throws Exception {
    String claim =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: pick, namespace: default}
        spec:
          devices:
            requests:
            - name: gpu
              firstAvailable:
              - name: h100
                deviceClassName: gpu
                selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "H100"'}}]
              - name: l4
                deviceClassName: gpu
                selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "L4"'}}]
        ---
        """;
    assertThat(run(CLUSTER + claim + podWithClaim("x", "pick"), GATE)).isZero();
    assertThat(placements()).containsEntry("x", "n2");
  }

  @Test
  void postFilterDeallocatesAClaimAllocatedForANodeThePodCannotUse() throws Exception {
    // the claim was allocated for n1 (reserved for nobody), but n1 is cordoned: kube's PostFilter
    // deallocates it, the claim's update re-queues the pod and the next attempt allocates on n2
    String cluster =
        CLUSTER.replace(
            "metadata: {name: n1}\n", "metadata: {name: n1}\nspec: {unschedulable: true}\n");
    String claim =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: stale, namespace: default}
        spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
        status:
          allocation:
            devices:
              results: [{request: gpu, driver: gpu.example.com, pool: n1, device: gpu-0}]
            nodeSelector:
              nodeSelectorTerms:
              - matchFields: [{key: metadata.name, operator: In, values: [n1]}]
        ---
        """;
    assertThat(run(cluster + claim + podWithClaim("x", "stale"), GATE)).isZero();
    assertThat(placements()).containsEntry("x", "n2");
    JsonObject stale = null;
    for (JsonElement e :
        new Gson().fromJson(out.toString(), JsonObject.class).getAsJsonArray("resourceClaims")) {
      if (e.getAsJsonObject().get("name").getAsString().equals("stale")) {
        stale = e.getAsJsonObject();
      }
    }
    assertThat(stale).isNotNull();
    assertThat(stale.toString()).contains("n2").doesNotContain("\"n1\"");
  }

  /**
   * A selector whose evaluation costs about 11·n³ counted nodes: n = 44 stays under kube's limit of
   * 1,000,000 (about 952,000), n = 45 exceeds it (1,018,987).
   */
  private static String costlyClaim(int n) {
    String xs =
        java.util.stream.IntStream.range(0, n)
            .mapToObj(Integer::toString)
            .collect(java.util.stream.Collectors.joining(","));
    return """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: costly, namespace: default}
        spec:
          devices:
            requests:
            - name: gpu
              exactly:
                deviceClassName: gpu
                selectors:
                - cel: {expression: 'cel.bind(xs, [%s], xs.all(i, xs.all(j, xs.all(k, i + j + k >= 0))))'}
        ---
        """
        .formatted(xs);
  }

  static Stream<Arguments> celCost() {
    return Stream.of(
        Arguments.of(Named.of("just under the limit", 44), "n1"),
        Arguments.of(
            Named.of("just over the limit", 45),
            "pending: running \"DynamicResources\" filter plugin: claim default/costly:"
                + " selector #0: CEL runtime error: operation cancelled: actual cost limit"
                + " exceeded"));
  }

  @ParameterizedTest
  @MethodSource
  void celCost(int n, String want) throws Exception {
    assertThat(run(CLUSTER + costlyClaim(n) + podWithClaim("x", "costly"), GATE)).isZero();
    assertThat(placements()).containsEntry("x", want);
  }

  @Test
  void anAdminAccessClaimGetsADeviceAlreadyInUse() throws Exception {
    // both GPUs are taken; an admin-access request (DRAAdminAccess, on in v1.34) in a namespace
    // labelled for it still gets one, and does not count as an allocation
    String admin =
        """
        apiVersion: v1
        kind: Namespace
        metadata: {name: ops, labels: {resource.kubernetes.io/admin-access: "true"}}
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: monitor, namespace: ops}
        spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu, adminAccess: true}}]}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: m, namespace: ops}
        spec:
          resourceClaims: [{name: gpu, resourceClaimName: monitor}]
          containers: [{name: c, image: i, resources: {claims: [{name: gpu}]}}]
        ---
        """;
    assertThat(run(CLUSTER + podWithTemplate("a") + podWithTemplate("b") + admin, GATE)).isZero();
    Map<String, String> p = placements();
    assertThat(p.get("a")).doesNotStartWith("pending");
    assertThat(p.get("b")).doesNotStartWith("pending");
    assertThat(p.get("m")).isIn("n1", "n2");
  }

  @Test
  void aMissingClaimIsReported() throws Exception {
    assertThat(run(CLUSTER + podWithClaim("x", "nosuch"), GATE)).isZero();
    assertThat(placements().get("x"))
        .contains("resourceclaim.resource.k8s.io \"nosuch\" not found");
  }

  @Test
  void aSelectorThatDoesNotCompileIsRefusedNamingClaimAndRequest() throws Exception {
    String claim =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: broken, namespace: default}
        spec:
          devices:
            requests:
            - name: gpu
              exactly:
                deviceClassName: gpu
                selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model =='}}]
        ---
        """;
    assertThat(run(CLUSTER + claim, GATE)).isEqualTo(2);
    assertThat(err.toString())
        .contains(
            "ResourceClaim default/broken: spec.devices.requests[0].exactly.selectors[0]"
                + ".cel.expression: Invalid value: ")
        .contains("compilation failed: ERROR: <input>:");
  }

  @Test
  void withoutTheGateClaimsAreIgnored() throws Exception {
    assertThat(run(CLUSTER + podWithTemplate("a") + podWithTemplate("b") + podWithTemplate("c")))
        .isZero();
    assertThat(placements().values()).noneMatch(v -> v.startsWith("pending"));
  }
}
