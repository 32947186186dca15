package io.kubesched.plugins.dynamicresources;

import static io.kubesched.plugins.dynamicresources.AllocatorTest.dev;
import static io.kubesched.plugins.dynamicresources.AllocatorTest.deviceClass;
import static io.kubesched.plugins.dynamicresources.AllocatorTest.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceAllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceClaim;
import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceRequestAllocationResult;
import io.kubernetes.client.openapi.models.V1ExactDeviceRequest;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodResourceClaim;
import io.kubernetes.client.openapi.models.V1PodResourceClaimStatus;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1ResourceClaimConsumerReference;
import io.kubernetes.client.openapi.models.V1ResourceClaimSpec;
import io.kubernetes.client.openapi.models.V1ResourceClaimStatus;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases of kube's {@code dynamicresources_test.go} (names and reasons kept): PreEnqueue, PreFilter
 * and Filter outcomes per node, and what PreBind writes to the claim.
 */
class DynamicResourcesTest {
  static final String NS = "default";
  static final String POD = "my-pod";
  static final String POD_UID = "1234";
  static final String CLAIM = "my-pod-resource-claim";
  static final String CLASS = "my-resource-class";
  static final String DRIVER = "some-driver";
  static final String WORKER = "worker";
  static final String WORKER2 = "worker-2";

  /**
   * One case.
   *
   * @param name kube's case name
   * @param pod the pod
   * @param setup creates the cluster's DRA objects
   * @param want the outcome: "preenqueue: ..." or "prefilter: ..." or per-node filter results and
   *     then "prebind: ..." describing the claim after PreBind on the first feasible node
   */
  record Case(String name, V1Pod pod, Consumer<InMemoryCluster> setup, List<String> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static V1Pod podWithClaimName() {
    V1Pod p = MakePod.pod().name(POD).namespace(NS).uid(POD_UID).obj();
    p.getSpec()
        .addResourceClaimsItem(new V1PodResourceClaim().name("my-claim").resourceClaimName(CLAIM));
    return p;
  }

  static V1Pod podWithClaimTemplate(boolean withStatus) {
    V1Pod p = MakePod.pod().name(POD).namespace(NS).uid(POD_UID).obj();
    p.getSpec()
        .addResourceClaimsItem(
            new V1PodResourceClaim().name("my-claim").resourceClaimTemplateName("my-template"));
    if (withStatus) {
      p.setStatus(
          new V1PodStatus()
              .addResourceClaimStatusesItem(
                  new V1PodResourceClaimStatus().name("my-claim").resourceClaimName(CLAIM)));
    }
    return p;
  }

  static ResourceV1ResourceClaim pendingClaim() {
    return new ResourceV1ResourceClaim()
        .metadata(new V1ObjectMeta().name(CLAIM).namespace(NS).uid("claim-uid"))
        .spec(
            new V1ResourceClaimSpec()
                .devices(
                    new V1DeviceClaim()
                        .addRequestsItem(
                            new V1DeviceRequest()
                                .name("req-1")
                                .exactly(
                                    new V1ExactDeviceRequest()
                                        .deviceClassName(CLASS)
                                        .allocationMode("ExactCount")
                                        .count(1L)))));
  }

  static V1AllocationResult allocation(String node) {
    return new V1AllocationResult()
        .devices(
            new V1DeviceAllocationResult()
                .addResultsItem(
                    new V1DeviceRequestAllocationResult()
                        .request("req-1")
                        .driver(DRIVER)
                        .pool(WORKER)
                        .device("instance-1")))
        .nodeSelector(
            new V1NodeSelector()
                .addNodeSelectorTermsItem(
                    new V1NodeSelectorTerm()
                        .addMatchFieldsItem(
                            new V1NodeSelectorRequirement()
                                .key("metadata.name")
                                .operator("In")
                                .values(List.of(node)))));
  }

  static ResourceV1ResourceClaim allocatedClaim(String node) {
    ResourceV1ResourceClaim c = pendingClaim();
    c.getMetadata().addFinalizersItem(DynamicResources.FINALIZER);
    c.setStatus(new V1ResourceClaimStatus().allocation(allocation(node)));
    return c;
  }

  static Consumer<InMemoryCluster> objects(Object... objs) {
    return cluster -> {
      for (Object o : objs) {
        cluster.create((io.kubernetes.client.common.KubernetesObject) o);
      }
    };
  }

  static Stream<Case> cases() {
    ResourceV1ResourceClaim deleted = pendingClaim();
    deleted.getMetadata().deletionTimestamp(OffsetDateTime.parse("2025-01-01T00:00:00Z"));
    ResourceV1ResourceClaim ownedByOther = pendingClaim();
    ownedByOther
        .getMetadata()
        .addOwnerReferencesItem(
            new V1OwnerReference()
                .apiVersion("v1")
                .kind("Pod")
                .name("other")
                .uid("other-uid")
                .controller(true));
    ResourceV1ResourceClaim owned = pendingClaim();
    owned
        .getMetadata()
        .addOwnerReferencesItem(
            new V1OwnerReference()
                .apiVersion("v1")
                .kind("Pod")
                .name(POD)
                .uid(POD_UID)
                .controller(true));
    ResourceV1ResourceClaim full = allocatedClaim(WORKER);
    List<V1ResourceClaimConsumerReference> many = new ArrayList<>();
    for (int i = 0; i < ClaimLookup.RESERVED_FOR_MAX_SIZE; i++) {
      many.add(new V1ResourceClaimConsumerReference().resource("pods").name("p" + i).uid("u" + i));
    }
    full.getStatus().setReservedFor(many);
    return Stream.of(
        new Case(
            "empty",
            MakePod.pod().name(POD).namespace(NS).obj(),
            c -> {},
            List.of("prefilter: Skip")),
        new Case(
            "missing-claim",
            podWithClaimName(),
            c -> {},
            List.of(
                "preenqueue: UnschedulableAndUnresolvable resourceclaim.resource.k8s.io"
                    + " \"my-pod-resource-claim\" not found")),
        new Case(
            "deleted-claim",
            podWithClaimName(),
            objects(deleted),
            List.of(
                "preenqueue: UnschedulableAndUnresolvable resourceclaim \"my-pod-resource-claim\""
                    + " is being deleted")),
        new Case(
            "claim-template-not-created",
            podWithClaimTemplate(false),
            c -> {},
            List.of(
                "preenqueue: UnschedulableAndUnresolvable pod \"default/my-pod\": ResourceClaim"
                    + " not created yet")),
        new Case(
            "wrong-claim",
            podWithClaimTemplate(true),
            objects(ownedByOther),
            List.of(
                "preenqueue: UnschedulableAndUnresolvable ResourceClaim"
                    + " default/my-pod-resource-claim was not created for pod default/my-pod (pod"
                    + " is not owner)")),
        new Case(
            "missing-class",
            podWithClaimName(),
            objects(pendingClaim()),
            List.of(
                "prefilter: UnschedulableAndUnresolvable request req-1: device class"
                    + " my-resource-class does not exist",
                "postfilter: Unschedulable no new claims to deallocate")),
        new Case(
            "claim-in-use",
            podWithClaimName(),
            objects(deviceClass(CLASS, DRIVER), full),
            List.of(
                "prefilter: UnschedulableAndUnresolvable resourceclaim in use",
                "postfilter: Unschedulable no new claims to deallocate")),
        new Case(
            "no-resources",
            podWithClaimName(),
            objects(deviceClass(CLASS, DRIVER), pendingClaim()),
            List.of(
                "worker: UnschedulableAndUnresolvable cannot allocate all claims",
                "worker-2: UnschedulableAndUnresolvable cannot allocate all claims",
                "postfilter: Unschedulable still not schedulable")),
        new Case(
            "structured-with-resources",
            podWithClaimTemplate(true),
            objects(
                deviceClass(CLASS, DRIVER),
                owned,
                slice("worker-slice", WORKER, WORKER, DRIVER, dev("instance-1"))),
            List.of(
                "worker: Success",
                "worker-2: UnschedulableAndUnresolvable cannot allocate all claims",
                "prebind: finalizers=[resource.kubernetes.io/delete-protection]"
                    + " results=[req-1 some-driver/worker/instance-1] node=worker"
                    + " reservedFor=[pods/my-pod/1234]")),
        new Case(
            "structured-allocated-claim-wrong-node",
            podWithClaimName(),
            objects(deviceClass(CLASS, DRIVER), allocatedClaim(WORKER2)),
            List.of(
                "worker: UnschedulableAndUnresolvable resourceclaim not available on the node",
                "worker-2: Success",
                "prebind: finalizers=[resource.kubernetes.io/delete-protection]"
                    + " results=[req-1 some-driver/worker/instance-1] node=worker-2"
                    + " reservedFor=[pods/my-pod/1234]")),
        new Case(
            "wrong-topology",
            podWithClaimName(),
            objects(deviceClass(CLASS, DRIVER), allocatedClaim("worker-3")),
            List.of(
                "worker: UnschedulableAndUnresolvable resourceclaim not available on the node",
                "worker-2: UnschedulableAndUnresolvable resourceclaim not available on the node",
                "postfilter: Unschedulable deallocation of ResourceClaim completed",
                "claim: finalizers=[resource.kubernetes.io/delete-protection] allocation=null reservedFor=[] devices=[]")),
        new Case(
            "wrong-topology-reserved-for-this-pod",
            podWithClaimName(),
            objects(deviceClass(CLASS, DRIVER), reservedFor(allocatedClaim("worker-3"), POD_UID)),
            List.of(
                "worker: UnschedulableAndUnresolvable resourceclaim not available on the node",
                "worker-2: UnschedulableAndUnresolvable resourceclaim not available on the node",
                "postfilter: Unschedulable deallocation of ResourceClaim completed",
                "claim: finalizers=[resource.kubernetes.io/delete-protection] allocation=null reservedFor=[] devices=[]")),
        new Case(
            "wrong-topology-reserved-for-another-pod",
            podWithClaimName(),
            objects(deviceClass(CLASS, DRIVER), reservedFor(allocatedClaim("worker-3"), "other")),
            List.of(
                "worker: UnschedulableAndUnresolvable resourceclaim not available on the node",
                "worker-2: UnschedulableAndUnresolvable resourceclaim not available on the node",
                "postfilter: Unschedulable still not schedulable")),
        new Case(
            "structured-claim-allocated-by-another-pod",
            podWithClaimName(),
            objects(
                deviceClass(CLASS, DRIVER),
                pendingClaim(),
                slice("worker-slice", WORKER, WORKER, DRIVER, dev("instance-1")),
                otherAllocated()),
            List.of(
                "worker: UnschedulableAndUnresolvable cannot allocate all claims",
                "worker-2: UnschedulableAndUnresolvable cannot allocate all claims",
                "postfilter: Unschedulable still not schedulable")));
  }

  static ResourceV1ResourceClaim reservedFor(ResourceV1ResourceClaim c, String podUid) {
    c.getStatus()
        .addReservedForItem(
            new V1ResourceClaimConsumerReference().resource("pods").name("p").uid(podUid));
    return c;
  }

  static ResourceV1ResourceClaim otherAllocated() {
    ResourceV1ResourceClaim c = allocatedClaim(WORKER);
    c.getMetadata().name("other-claim").uid("other-claim-uid");
    return c;
  }

  static DynamicResources plugin(InMemoryCluster cluster, FeatureGates gates) {
    FrameworkHandle handle = mock(FrameworkHandle.class);
    when(handle.client()).thenReturn(cluster);
    when(handle.featureGates()).thenReturn(gates);
    return new DynamicResources(handle);
  }

  static final FeatureGates ON = FeatureGates.of(Map.of("DynamicResourceAllocation", true));

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void runs(Case tc) {
    InMemoryCluster cluster = new InMemoryCluster();
    tc.setup().accept(cluster);
    DynamicResources pl = plugin(cluster, ON);
    PodInfo pod = PodInfo.of(tc.pod());
    List<String> got = new ArrayList<>();
    Status pe = pl.preEnqueue(pod);
    if (!pe.isSuccess()) {
      got.add("preenqueue: " + describe(pe));
      assertThat(got).isEqualTo(tc.want());
      return;
    }
    CycleState state = new CycleState();
    List<V1Node> nodes =
        List.of(MakeNode.node().name(WORKER).obj(), MakeNode.node().name(WORKER2).obj());
    List<NodeInfo> infos = nodes.stream().map(NodeInfo::of).toList();
    PreFilterResult pf = pl.preFilter(state, pod, infos);
    if (!pf.status().isSuccess()) {
      got.add("prefilter: " + describe(pf.status()));
      if (pf.status().isRejected()) {
        got.add("postfilter: " + describe(pl.postFilter(state, pod, null).status()));
      }
      assertThat(got).isEqualTo(tc.want());
      return;
    }
    String chosen = null;
    for (NodeInfo n : infos) {
      Status s = pl.filter(state, pod, n);
      got.add(n.name() + ": " + describe(s));
      if (s.isSuccess() && chosen == null) {
        chosen = n.name();
      }
    }
    if (chosen != null) {
      assertThat(pl.reserve(state, pod, chosen).isSuccess()).isTrue();
      assertThat(pl.preBind(state, pod, chosen).isSuccess()).isTrue();
      ResourceV1ResourceClaim c = cluster.getResourceClaim(NS, CLAIM).orElseThrow();
      got.add("prebind: " + describe(c));
    } else {
      ResourceV1ResourceClaim before = cluster.getResourceClaim(NS, CLAIM).orElseThrow();
      got.add("postfilter: " + describe(pl.postFilter(state, pod, null).status()));
      ResourceV1ResourceClaim after = cluster.getResourceClaim(NS, CLAIM).orElseThrow();
      if (!Objects.equals(after.getStatus(), before.getStatus())) {
        got.add(
            "claim: finalizers="
                + after.getMetadata().getFinalizers()
                + " allocation="
                + after.getStatus().getAllocation()
                + " reservedFor="
                + Objects.requireNonNullElse(after.getStatus().getReservedFor(), List.of())
                + " devices="
                + Objects.requireNonNullElse(after.getStatus().getDevices(), List.of()));
      }
    }
    assertThat(got).isEqualTo(tc.want());
  }

  @Test
  void disabledWithoutTheGate() {
    InMemoryCluster cluster = new InMemoryCluster();
    DynamicResources pl = plugin(cluster, FeatureGates.defaults());
    PodInfo pod = PodInfo.of(podWithClaimName());
    assertThat(pl.preEnqueue(pod).isSuccess()).isTrue();
    assertThat(pl.preFilter(new CycleState(), pod, List.of()).status().isSkip()).isTrue();
    assertThat(pl.eventsToRegister()).isEmpty();
    assertThat(describe(pl.postFilter(new CycleState(), pod, null).status()))
        .isEqualTo("Unschedulable plugin disabled");
  }

  @Test
  void unreserveReleasesTheInFlightAllocation() {
    InMemoryCluster cluster = new InMemoryCluster();
    objects(
            deviceClass(CLASS, DRIVER),
            pendingClaim(),
            slice("worker-slice", WORKER, WORKER, DRIVER, dev("instance-1")))
        .accept(cluster);
    DynamicResources pl = plugin(cluster, ON);
    PodInfo pod = PodInfo.of(podWithClaimName());
    CycleState state = new CycleState();
    NodeInfo worker = NodeInfo.of(MakeNode.node().name(WORKER).obj());
    pl.preFilter(state, pod, List.of(worker));
    assertThat(pl.filter(state, pod, worker).isSuccess()).isTrue();
    assertThat(pl.reserve(state, pod, WORKER).isSuccess()).isTrue();
    // while in flight, another pod's PreFilter waits for it
    CycleState other = new CycleState();
    assertThat(describe(pl.preFilter(other, pod, List.of(worker)).status()))
        .isEqualTo(
            "UnschedulableAndUnresolvable resource claim default/my-pod-resource-claim is in the"
                + " process of being allocated");
    pl.unreserve(state, pod, WORKER);
    CycleState again = new CycleState();
    assertThat(pl.preFilter(again, pod, List.of(worker)).status().isSuccess()).isTrue();
    assertThat(pl.filter(again, pod, worker).isSuccess()).isTrue();
  }

  private static String describe(Status s) {
    return s.reasons().isEmpty()
        ? s.code().toString()
        : s.code() + " " + String.join("; ", s.reasons());
  }

  private static String describe(ResourceV1ResourceClaim c) {
    List<String> results = new ArrayList<>();
    for (V1DeviceRequestAllocationResult r :
        c.getStatus().getAllocation().getDevices().getResults()) {
      results.add(r.getRequest() + " " + r.getDriver() + "/" + r.getPool() + "/" + r.getDevice());
    }
    List<String> reserved = new ArrayList<>();
    for (V1ResourceClaimConsumerReference r : c.getStatus().getReservedFor()) {
      reserved.add(r.getResource() + "/" + r.getName() + "/" + r.getUid());
    }
    return "finalizers="
        + c.getMetadata().getFinalizers()
        + " results="
        + results
        + " node="
        + c.getStatus()
            .getAllocation()
            .getNodeSelector()
            .getNodeSelectorTerms()
            .get(0)
            .getMatchFields()
            .get(0)
            .getValues()
            .get(0)
        + " reservedFor="
        + reserved;
  }
}
