package io.kubesched.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1CELDeviceSelector;
import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1DeviceAttribute;
import io.kubernetes.client.openapi.models.V1DeviceCapacity;
import io.kubernetes.client.openapi.models.V1DeviceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClaimConfiguration;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1DeviceClassSpec;
import io.kubernetes.client.openapi.models.V1DeviceConstraint;
import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceSelector;
import io.kubernetes.client.openapi.models.V1DeviceSubRequest;
import io.kubernetes.client.openapi.models.V1ExactDeviceRequest;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OpaqueDeviceConfiguration;
import io.kubernetes.client.openapi.models.V1ResourceClaimSpec;
import io.kubernetes.client.openapi.models.V1ResourcePool;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1ResourceSliceSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases of kube's shared allocator tests ({@code allocatortesting/allocator_testing.go}) that apply
 * to the features kubesched supports, with their names; each result is compared as "claim: request
 * driver/pool/device ..." lines plus the node selector.
 */
class AllocatorTest {
  static final String DRIVER_A = "driver-a";
  static final String DRIVER_B = "driver-b";
  static final String CLASS_A = "class-a";
  static final String CLASS_B = "class-b";
  static final String NODE_1 = "node-1";
  static final String NODE_2 = "node-2";
  static final String REGION_1 = "region-1";
  static final String REGION_LABEL = "region";

  record Case(
      String name,
      List<ResourceV1ResourceClaim> claims,
      List<V1DeviceClass> classes,
      List<V1ResourceSlice> slices,
      V1Node node,
      Set<DeviceId> allocated,
      List<String> want,
      String wantError) {
    @Override
    public String toString() {
      return name;
    }
  }

  static V1Node node(String name, String region) {
    return new V1Node()
        .metadata(new V1ObjectMeta().name(name).labels(Map.of(REGION_LABEL, region)));
  }

  static V1DeviceClass deviceClass(String name, String driver) {
    return new V1DeviceClass()
        .metadata(new V1ObjectMeta().name(name))
        .spec(new V1DeviceClassSpec().addSelectorsItem(sel("device.driver == \"" + driver + "\"")));
  }

  static V1DeviceSelector sel(String expr) {
    return new V1DeviceSelector().cel(new V1CELDeviceSelector().expression(expr));
  }

  static V1DeviceRequest request(String name, String cls, long count, V1DeviceSelector... sels) {
    return new V1DeviceRequest()
        .name(name)
        .exactly(
            new V1ExactDeviceRequest()
                .deviceClassName(cls)
                .allocationMode("ExactCount")
                .count(count)
                .selectors(sels.length == 0 ? null : new ArrayList<>(Arrays.asList(sels))));
  }

  static V1DeviceRequest all(String name, String cls) {
    return new V1DeviceRequest()
        .name(name)
        .exactly(new V1ExactDeviceRequest().deviceClassName(cls).allocationMode("All"));
  }

  static ResourceV1ResourceClaim claim(String name, V1DeviceRequest... requests) {
    return claim(name, null, requests);
  }

  static ResourceV1ResourceClaim claim(
      String name, List<V1DeviceConstraint> constraints, V1DeviceRequest... requests) {
    return new ResourceV1ResourceClaim()
        .metadata(new V1ObjectMeta().name(name).uid(name))
        .spec(
            new V1ResourceClaimSpec()
                .devices(
                    new V1DeviceClaim()
                        .requests(new ArrayList<>(Arrays.asList(requests)))
                        .constraints(constraints)));
  }

  static V1Device device(String name, String memory, Map<String, V1DeviceAttribute> attrs) {
    return new V1Device()
        .name(name)
        .attributes(attrs)
        .capacity(
            memory == null
                ? null
                : Map.of("memory", new V1DeviceCapacity().value(Quantity.fromString(memory))));
  }

  static V1ResourceSlice slice(
      String name, String node, String pool, String driver, V1Device... devices) {
    return slice(name, node, pool, 1, 1, driver, devices);
  }

  static V1ResourceSlice slice(
      String name,
      String node,
      String pool,
      long generation,
      long count,
      String driver,
      V1Device... devices) {
    return new V1ResourceSlice()
        .metadata(new V1ObjectMeta().name(name))
        .spec(
            new V1ResourceSliceSpec()
                .driver(driver)
                .nodeName(node)
                .pool(
                    new V1ResourcePool()
                        .name(pool)
                        .generation(generation)
                        .resourceSliceCount(count))
                .devices(new ArrayList<>(Arrays.asList(devices))));
  }

  static V1ResourceSlice networkSlice(String name, String pool, String driver, V1Device... d) {
    V1ResourceSlice s = slice(name, null, pool, driver, d);
    s.getSpec()
        .nodeSelector(
            new V1NodeSelector()
                .addNodeSelectorTermsItem(
                    new V1NodeSelectorTerm()
                        .addMatchExpressionsItem(
                            new V1NodeSelectorRequirement()
                                .key(REGION_LABEL)
                                .operator("In")
                                .values(List.of(REGION_1)))));
    return s;
  }

  static V1Device dev(String name) {
    return device(name, null, null);
  }

  static Map<String, V1DeviceAttribute> attr(String name, String value) {
    return Map.of(name, new V1DeviceAttribute().string(value));
  }

  static Case c(
      String name,
      List<ResourceV1ResourceClaim> claims,
      List<V1DeviceClass> classes,
      List<V1ResourceSlice> slices,
      V1Node node,
      List<String> want) {
    return new Case(name, claims, classes, slices, node, Set.of(), want, null);
  }

  static Case err(
      String name,
      List<ResourceV1ResourceClaim> claims,
      List<V1DeviceClass> classes,
      List<V1ResourceSlice> slices,
      V1Node node,
      String wantError) {
    return new Case(name, claims, classes, slices, node, Set.of(), null, wantError);
  }

  static String local(String node) {
    return " @metadata.name In [" + node + "]";
  }

  static Stream<Case> cases() {
    V1Node n1 = node(NODE_1, REGION_1);
    V1Node n2 = node(NODE_2, "region-2");
    List<V1DeviceClass> classA = List.of(deviceClass(CLASS_A, DRIVER_A));
    String big = "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"2Gi\")) >= 0";
    String small = "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"1Gi\")) >= 0";
    return Stream.of(
        c("empty", List.of(), classA, List.of(), n1, List.of()),
        c(
            "simple",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1))),
            classA,
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            List.of("claim-0: req-0 driver-a/pool-1/device-1" + local(NODE_1))),
        c(
            "other-node",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1))),
            classA,
            List.of(
                slice("slice-1", NODE_1, "pool-1", DRIVER_B, dev("device-1")),
                slice("slice-2", NODE_2, "pool-2", DRIVER_A, dev("device-1"))),
            n2,
            List.of("claim-0: req-0 driver-a/pool-2/device-1" + local(NODE_2))),
        c(
            "small-and-large",
            List.of(
                claim(
                    "claim-0",
                    request("req-0", CLASS_A, 1, sel(small)),
                    request("req-1", CLASS_A, 1, sel(big)))),
            classA,
            List.of(
                slice(
                    "slice-1",
                    NODE_1,
                    "pool-1",
                    DRIVER_A,
                    device("device-1", "1Gi", null),
                    device("device-2", "2Gi", null))),
            n1,
            List.of(
                "claim-0: req-0 driver-a/pool-1/device-1, req-1 driver-a/pool-1/device-2"
                    + local(NODE_1))),
        c(
            "small-and-large-backtrack-requests",
            List.of(
                claim(
                    "claim-0",
                    request("req-0", CLASS_A, 1, sel(small)),
                    request("req-1", CLASS_A, 1, sel(big)))),
            classA,
            List.of(
                slice(
                    "slice-1",
                    NODE_1,
                    "pool-1",
                    DRIVER_A,
                    device("device-2", "2Gi", null),
                    device("device-1", "1Gi", null))),
            n1,
            List.of(
                "claim-0: req-0 driver-a/pool-1/device-1, req-1 driver-a/pool-1/device-2"
                    + local(NODE_1))),
        c(
            "small-and-large-backtrack-claims",
            List.of(
                claim("claim-0", request("req-0", CLASS_A, 1, sel(small))),
                claim("claim-1", request("req-1", CLASS_A, 1, sel(big)))),
            classA,
            List.of(
                slice(
                    "slice-1",
                    NODE_1,
                    "pool-1",
                    DRIVER_A,
                    device("device-2", "2Gi", null),
                    device("device-1", "1Gi", null))),
            n1,
            List.of(
                "claim-0: req-0 driver-a/pool-1/device-1" + local(NODE_1),
                "claim-1: req-1 driver-a/pool-1/device-2" + local(NODE_1))),
        c(
            "devices-split-across-different-slices",
            List.of(claim("claim-0", request("req-0", CLASS_A, 2))),
            classA,
            List.of(
                slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1")),
                slice("slice-2", NODE_1, "pool-2", DRIVER_A, dev("device-1"))),
            n1,
            List.of(
                "claim-0: req-0 driver-a/pool-1/device-1, req-0 driver-a/pool-2/device-1"
                    + local(NODE_1))),
        c(
            "obsolete-slice",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1))),
            classA,
            List.of(
                slice("slice-1-obsolete", NODE_1, "pool-1", 1, 2, DRIVER_A, dev("device-1")),
                slice("slice-1-obsolete", NODE_1, "pool-1", 2, 2, DRIVER_A, dev("device-2"))),
            n1,
            null),
        err(
            "duplicate-slice",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1))),
            classA,
            List.of(
                slice("slice-1", NODE_1, "pool-1", 1, 2, DRIVER_A, dev("device-1")),
                slice("slice-1-2", NODE_1, "pool-1", 1, 2, DRIVER_A, dev("device-1"))),
            n1,
            "invalid resource pools were encountered"),
        c(
            "no-slices",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1))),
            classA,
            List.of(),
            n1,
            null),
        c(
            "not-enough-suitable-devices",
            List.of(
                claim("claim-0", request("req-0", CLASS_A, 1)),
                claim("claim-0b", request("req-1", CLASS_A, 1))),
            classA,
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            null),
        err(
            "no-classes",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1))),
            List.of(),
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            "could not retrieve device class class-a"),
        err(
            "unknown-class",
            List.of(claim("claim-0", request("req-0", "unknown-class", 1))),
            classA,
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            "could not retrieve device class unknown-class"),
        err(
            "empty-class",
            List.of(claim("claim-0", request("req-0", "", 1))),
            classA,
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            "claim claim-0, request req-0: missing device class name (unsupported request type?)"),
        c(
            "all-devices-single",
            List.of(claim("claim-0", all("req-0", CLASS_A))),
            classA,
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            List.of("claim-0: req-0 driver-a/pool-1/device-1" + local(NODE_1))),
        c(
            "all-devices-many",
            List.of(claim("claim-0", all("req-0", CLASS_A))),
            classA,
            List.of(
                slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1")),
                slice("slice-1", NODE_1, "pool-2", DRIVER_A, dev("device-1"))),
            n1,
            List.of(
                "claim-0: req-0 driver-a/pool-1/device-1, req-0 driver-a/pool-2/device-1"
                    + local(NODE_1))),
        err(
            "all-devices-of-the-incomplete-pool",
            List.of(claim("claim-0", all("req-0", CLASS_A))),
            classA,
            List.of(slice("slice-1", NODE_1, "pool-1", 1, 2, DRIVER_A, dev("device-1"))),
            n1,
            "claim claim-0, request req-0: asks for all devices, but resource pool"
                + " driver-a/pool-1 is currently being updated"),
        c(
            "all-devices-plus-another",
            List.of(
                claim("claim-0", all("req-0", CLASS_A)),
                claim("claim-1", request("req-0", CLASS_B, 1))),
            List.of(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B)),
            List.of(
                slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1")),
                slice("slice-1", NODE_1, "pool-1", DRIVER_B, dev("device-1"))),
            n1,
            List.of(
                "claim-0: req-0 driver-a/pool-1/device-1" + local(NODE_1),
                "claim-1: req-0 driver-b/pool-1/device-1" + local(NODE_1))),
        c(
            "with-constraint",
            List.of(
                claim(
                    "claim-0",
                    List.of(new V1DeviceConstraint().matchAttribute("driver-a/stringAttribute")),
                    request("req-0", CLASS_A, 1),
                    request("req-1", CLASS_A, 1))),
            classA,
            List.of(
                slice(
                    "slice-1",
                    NODE_1,
                    "pool-1",
                    DRIVER_A,
                    device("device-1", null, attr("stringAttribute", "stringAttributeValue")),
                    device("device-2", null, attr("stringAttribute", "stringAttributeValue2")),
                    device("device-3", null, attr("stringAttribute", "stringAttributeValue2")))),
            n1,
            List.of(
                "claim-0: req-0 driver-a/pool-1/device-2, req-1 driver-a/pool-1/device-3"
                    + local(NODE_1))),
        c(
            "with-constraint-non-existent-attribute",
            List.of(
                claim(
                    "claim-0",
                    List.of(
                        new V1DeviceConstraint().matchAttribute("driver-a/NonExistentAttribute")),
                    request("req-0", CLASS_A, 1))),
            classA,
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            null),
        new Case(
            "already-allocated-devices",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1))),
            classA,
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            Set.of(new DeviceId(DRIVER_A, "pool-1", "device-1")),
            null,
            null),
        c(
            "network-attached-device",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1))),
            classA,
            List.of(networkSlice("slice-1", "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            List.of("claim-0: req-0 driver-a/pool-1/device-1 @region In [region-1]")),
        c(
            "unsuccessful-allocation-network-attached-device",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1))),
            classA,
            List.of(networkSlice("slice-1", "pool-1", DRIVER_A, dev("device-1"))),
            n2,
            null),
        c(
            "prioritized-list-first-unavailable",
            List.of(
                claim(
                    "claim-0",
                    new V1DeviceRequest()
                        .name("req-0")
                        .firstAvailable(
                            List.of(
                                new V1DeviceSubRequest()
                                    .name("subreq-0")
                                    .deviceClassName(CLASS_B)
                                    .allocationMode("ExactCount")
                                    .count(1L),
                                new V1DeviceSubRequest()
                                    .name("subreq-1")
                                    .deviceClassName(CLASS_A)
                                    .allocationMode("ExactCount")
                                    .count(1L))))),
            List.of(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B)),
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            List.of("claim-0: req-0/subreq-1 driver-a/pool-1/device-1" + local(NODE_1))),
        err(
            "invalid-CEL-one-device",
            List.of(claim("claim-0", request("req-0", CLASS_A, 1, sel("noSuchVar")))),
            classA,
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"))),
            n1,
            "claim claim-0: selector #0: CEL compile error: compilation failed: ERROR: <input>:1:1:"
                + " undeclared reference to 'noSuchVar'"));
  }

  private static Allocator allocator(Case tc) {
    return new Allocator(
        new Allocator.Features(true, false),
        tc.claims(),
        tc.allocated(),
        name ->
            tc.classes().stream().filter(x -> x.getMetadata().getName().equals(name)).findFirst(),
        tc.slices(),
        new CelSelectors());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void allocates(Case tc) throws Exception {
    Allocator a = allocator(tc);
    if (tc.wantError() != null) {
      assertThatThrownBy(() -> a.allocate(tc.node()))
          .isInstanceOf(Allocator.AllocationException.class)
          .hasMessageContaining(tc.wantError());
      return;
    }
    Optional<List<V1AllocationResult>> got = a.allocate(tc.node());
    if (tc.want() == null) {
      assertThat(got).isEmpty();
      return;
    }
    assertThat(got).isPresent();
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < got.get().size(); i++) {
      lines.add(format(tc.claims().get(i).getMetadata().getName(), got.get().get(i)));
    }
    assertThat(lines).isEqualTo(tc.want());
  }

  /**
   * A second node's search of the same pod may be skipped when the node has no free device, and
   * takes the short path for a claim of one device (the first search having shown the claims
   * sound): every case answers the same the second time.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void allocatesTheSameOnTheNextNode(Case tc) throws Exception {
    Allocator a = allocator(tc);
    for (int round = 0; round < 2; round++) {
      if (tc.wantError() != null) {
        assertThatThrownBy(() -> a.allocate(tc.node()))
            .isInstanceOf(Allocator.AllocationException.class)
            .hasMessageContaining(tc.wantError());
        continue;
      }
      Optional<List<V1AllocationResult>> got = a.allocate(tc.node());
      assertThat(got.isPresent()).as("round %d", round).isEqualTo(tc.want() != null);
      if (got.isPresent()) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < got.get().size(); i++) {
          lines.add(format(tc.claims().get(i).getMetadata().getName(), got.get().get(i)));
        }
        assertThat(lines).as("round %d", round).isEqualTo(tc.want());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configCases")
  void passesConfigurationThrough(String name, ResourceV1ResourceClaim claim, List<String> want)
      throws Exception {
    V1DeviceClass cls = deviceClass(CLASS_A, DRIVER_A);
    cls.getSpec()
        .addConfigItem(
            new io.kubernetes.client.openapi.models.V1DeviceClassConfiguration()
                .opaque(new V1OpaqueDeviceConfiguration().driver(DRIVER_A).parameters("class")));
    Allocator a =
        new Allocator(
            new Allocator.Features(true, false),
            List.of(claim),
            Set.of(),
            n -> Optional.of(cls),
            List.of(slice("slice-1", NODE_1, "pool-1", DRIVER_A, dev("device-1"), dev("device-2"))),
            new CelSelectors());
    List<String> got = new ArrayList<>();
    for (var c : a.allocate(node(NODE_1, REGION_1)).orElseThrow().get(0).getDevices().getConfig()) {
      got.add(c.getSource() + " " + c.getRequests() + " " + c.getOpaque().getParameters());
    }
    assertThat(got).isEqualTo(want);
  }

  static Stream<Arguments> configCases() {
    ResourceV1ResourceClaim one = claim("claim-0", request("req-0", CLASS_A, 1));
    one.getSpec()
        .getDevices()
        .addConfigItem(
            new V1DeviceClaimConfiguration()
                .opaque(new V1OpaqueDeviceConfiguration().driver(DRIVER_A).parameters("claim")));
    ResourceV1ResourceClaim two =
        claim("claim-0", request("req-0", CLASS_A, 1), request("req-1", CLASS_A, 1));
    two.getSpec()
        .getDevices()
        .addConfigItem(
            new V1DeviceClaimConfiguration()
                .requests(List.of("req-1"))
                .opaque(new V1OpaqueDeviceConfiguration().driver(DRIVER_A).parameters("claim")));
    return Stream.of(
        Arguments.of(
            "with-class-device-config",
            one,
            List.of("FromClass null class", "FromClaim null claim")),
        Arguments.of(
            "claim-with-device-config-for-one-request",
            two,
            List.of("FromClass null class", "FromClaim [req-1] claim")));
  }

  private static String format(String claim, V1AllocationResult r) {
    StringBuilder sb = new StringBuilder(claim + ": ");
    List<String> devices = new ArrayList<>();
    for (var d : r.getDevices().getResults()) {
      devices.add(d.getRequest() + " " + d.getDriver() + "/" + d.getPool() + "/" + d.getDevice());
    }
    sb.append(String.join(", ", devices));
    if (r.getNodeSelector() != null) {
      V1NodeSelectorTerm t = r.getNodeSelector().getNodeSelectorTerms().get(0);
      List<V1NodeSelectorRequirement> reqs = new ArrayList<>();
      if (t.getMatchFields() != null) {
        reqs.addAll(t.getMatchFields());
      }
      if (t.getMatchExpressions() != null) {
        reqs.addAll(t.getMatchExpressions());
      }
      for (V1NodeSelectorRequirement q : reqs) {
        sb.append(" @")
            .append(q.getKey())
            .append(' ')
            .append(q.getOperator())
            .append(' ')
            .append(q.getValues());
      }
    }
    return sb.toString();
  }
}
