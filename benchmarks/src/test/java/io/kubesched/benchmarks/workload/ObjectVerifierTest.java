package io.kubesched.benchmarks.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceAllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceRequestAllocationResult;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1ResourceClaimConsumerReference;
import io.kubernetes.client.openapi.models.V1ResourceClaimStatus;
import io.kubesched.core.cluster.InMemoryCluster;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checks of the volume and DRA workloads' end state, on states built with the workloads' own
 * objects: pods bound by hand (pod {@code i} on node {@code i mod nodes}), DRA claims allocated by
 * hand (pod {@code i}'s claim gets {@code instance-<i / nodes>} of its node), then broken.
 */
final class ObjectVerifierTest {
  private static final String NODE0 = "scheduler-perf-00000";
  private static final String DRA0 = "scheduler-perf-dra-0";

  static Stream<Arguments> states() {
    return Stream.of(
        Arguments.argumentSet(
            "CSI volumes, each pod with its own bound PV, within the limit",
            "SchedulingCSIPVs",
            1,
            39,
            none(),
            List.of()),
        Arguments.argumentSet(
            "CSI volumes, 40 on a node whose CSINode allows 39",
            "SchedulingCSIPVs",
            1,
            40,
            none(),
            List.of("node " + NODE0 + " has 40 ebs.csi.aws.com volumes, limit 39")),
        Arguments.argumentSet(
            "migrated in-tree AWS volumes count against the CSI limit",
            "SchedulingMigratedInTreePVs",
            1,
            40,
            none(),
            List.of("node " + NODE0 + " has 40 ebs.csi.aws.com volumes, limit 39")),
        Arguments.argumentSet(
            "in-tree AWS volumes without CSINodes have no limit here",
            "SchedulingInTreePVs",
            1,
            40,
            none(),
            List.of()),
        Arguments.argumentSet(
            "a bound pod whose PVC is unbound",
            "SchedulingInTreePVs",
            1,
            2,
            (Consumer<InMemoryCluster>) c -> unbindPvc(c, "namespace-2", "pvc-1"),
            List.of("pod namespace-2/measured-1 on " + NODE0 + ": PVC pvc-1 missing or unbound")),
        Arguments.argumentSet(
            "DRA claims from the template, each allocated on its pod's node",
            "SchedulingWithResourceClaimTemplate",
            2,
            20,
            none(),
            List.of()),
        Arguments.argumentSet(
            "a DRA claim left unallocated",
            "SchedulingWithResourceClaimTemplate",
            1,
            2,
            (Consumer<InMemoryCluster>)
                c -> setStatus(c, "measured-0-resource", new V1ResourceClaimStatus()),
            List.of(
                "pod test/measured-0 on " + DRA0 + ": claim measured-0-resource is not allocated")),
        Arguments.argumentSet(
            "a DRA claim allocated another node's device",
            "SchedulingWithResourceClaimTemplate",
            2,
            2,
            (Consumer<InMemoryCluster>)
                c ->
                    allocate(
                        c,
                        "measured-0-resource",
                        "measured-0",
                        "scheduler-perf-dra-1",
                        "instance-5"),
            List.of(
                "pod test/measured-0 on "
                    + DRA0
                    + ": claim measured-0-resource got device"
                    + " test-driver.cdi.k8s.io/scheduler-perf-dra-1/instance-5")),
        Arguments.argumentSet(
            "two DRA claims allocated the same device",
            "SchedulingWithResourceClaimTemplate",
            1,
            2,
            (Consumer<InMemoryCluster>)
                c -> allocate(c, "measured-1-resource", "measured-1", DRA0, "instance-0"),
            List.of(
                "device test-driver.cdi.k8s.io/"
                    + DRA0
                    + "/instance-0 allocated to test/measured-0-resource and"
                    + " test/measured-1-resource")),
        Arguments.argumentSet(
            "a device beyond the devices the node publishes",
            "SchedulingWithResourceClaimTemplate",
            1,
            1,
            (Consumer<InMemoryCluster>)
                c -> allocate(c, "measured-0-resource", "measured-0", DRA0, "instance-10"),
            List.of(
                "pod test/measured-0 on "
                    + DRA0
                    + ": claim measured-0-resource got device test-driver.cdi.k8s.io/"
                    + DRA0
                    + "/instance-10")),
        Arguments.argumentSet(
            "shared claims: five pods on the node of their claim",
            "SchedulingWithResourceClaim/",
            1,
            10,
            none(),
            List.of()),
        Arguments.argumentSet(
            "a shared claim not reserved for one of its pods",
            "SchedulingWithResourceClaim/",
            1,
            2,
            (Consumer<InMemoryCluster>)
                c -> allocate(c, "test-claim-0", "measured-0", DRA0, "instance-0"),
            List.of("claim test/test-claim-0 is not reserved for pod test/measured-1")),
        Arguments.argumentSet(
            "DRA: claims of no pod (allocated at random, seed 1) on the pods' devices",
            "SteadyStateClusterResourceClaimTemplate/half",
            2,
            4,
            (Consumer<InMemoryCluster>)
                c ->
                    WorkloadObjects.createAllocatedClaims(
                        c,
                        Workload.catalog().stream()
                            .filter(x -> x.name().endsWith("half_500nodes"))
                            .findFirst()
                            .orElseThrow()
                            .withSizes(2, 0, 4),
                        "init",
                        16,
                        new java.util.Random(1)),
            List.of(
                "device test-driver.cdi.k8s.io/scheduler-perf-dra-1/instance-0 allocated to"
                    + " test/measured-1-resource and init/test-claim-0",
                "device test-driver.cdi.k8s.io/scheduler-perf-dra-0/instance-0 allocated to"
                    + " test/measured-0-resource and init/test-claim-1",
                "device test-driver.cdi.k8s.io/scheduler-perf-dra-0/instance-1 allocated to"
                    + " test/measured-2-resource and init/test-claim-2",
                "device test-driver.cdi.k8s.io/scheduler-perf-dra-1/instance-1 allocated to"
                    + " test/measured-3-resource and init/test-claim-7")));
  }

  @ParameterizedTest
  @MethodSource("states")
  void verify(
      String workload, int nodes, int pods, Consumer<InMemoryCluster> breakIt, List<String> want) {
    Workload w =
        Workload.catalog().stream()
            .filter(x -> x.name().startsWith(workload))
            .findFirst()
            .orElseThrow()
            .withSizes(nodes, 0, pods);
    InMemoryCluster c = new InMemoryCluster();
    WorkloadObjects.createNodes(c, w);
    WorkloadObjects.prepareNamespace(c, w, w.measuredNamespace(), pods);
    for (int i = 0; i < pods; i++) {
      V1Pod p = Templates.pod(w.measuredKind(), w.measuredNamespace(), BindCounter.MEASURED + i);
      WorkloadObjects.addPod(c, w, p, i);
      String node =
          WorkloadObjects.nodeName(
              w, w.setup() == Workload.Setup.DRA_SHARED_CLAIMS ? 0 : i % nodes);
      c.bind(p, node);
    }
    if (w.setup() == Workload.Setup.DRA_CLAIM_TEMPLATE) {
      for (int i = 0; i < pods; i++) {
        allocate(
            c,
            BindCounter.MEASURED + i + "-resource",
            BindCounter.MEASURED + i,
            WorkloadObjects.nodeName(w, i % nodes),
            "instance-" + i / nodes);
      }
    } else if (w.setup() == Workload.Setup.DRA_SHARED_CLAIMS) {
      for (int k = 0; k * 5 < pods; k++) {
        List<String> users = new java.util.ArrayList<>();
        for (int i = k * 5; i < Math.min(pods, k * 5 + 5); i++) {
          users.add(BindCounter.MEASURED + i);
        }
        allocate(c, "test-claim-" + k, users, DRA0, "instance-" + k);
      }
    }
    breakIt.accept(c);

    assertThat(ObjectVerifier.verify(w, c)).isEqualTo(want);
  }

  private static Consumer<InMemoryCluster> none() {
    return c -> {};
  }

  private static void unbindPvc(InMemoryCluster c, String ns, String name) {
    V1PersistentVolumeClaim pvc = c.get(V1PersistentVolumeClaim.class, ns, name).orElseThrow();
    V1PersistentVolumeClaimSpec spec =
        new V1PersistentVolumeClaimSpec()
            .accessModes(pvc.getSpec().getAccessModes())
            .resources(pvc.getSpec().getResources());
    c.update(
        new V1PersistentVolumeClaim()
            .apiVersion("v1")
            .kind("PersistentVolumeClaim")
            .metadata(pvc.getMetadata())
            .spec(spec));
  }

  private static void allocate(
      InMemoryCluster c, String claim, String pod, String pool, String device) {
    allocate(c, claim, List.of(pod), pool, device);
  }

  private static void allocate(
      InMemoryCluster c, String claim, List<String> pods, String pool, String device) {
    V1ResourceClaimStatus status =
        new V1ResourceClaimStatus()
            .allocation(
                new V1AllocationResult()
                    .devices(
                        new V1DeviceAllocationResult()
                            .addResultsItem(
                                new V1DeviceRequestAllocationResult()
                                    .request("req-0")
                                    .driver(WorkloadObjects.DRA_DRIVER)
                                    .pool(pool)
                                    .device(device))));
    for (String p : pods) {
      status.addReservedForItem(
          new V1ResourceClaimConsumerReference().resource("pods").name(p).uid("test-" + p));
    }
    setStatus(c, claim, status);
  }

  private static void setStatus(InMemoryCluster c, String claim, V1ResourceClaimStatus status) {
    ResourceV1ResourceClaim current =
        c.get(ResourceV1ResourceClaim.class, "test", claim).orElseThrow();
    c.updateResourceClaimStatus(
        new ResourceV1ResourceClaim()
            .metadata(
                new V1ObjectMeta()
                    .name(claim)
                    .namespace("test")
                    .resourceVersion(current.getMetadata().getResourceVersion()))
            .spec(current.getSpec())
            .status(status));
  }
}
