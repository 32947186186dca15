package io.kubesched.plugins.volumebinding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSIDriverSpec;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeStatus;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubernetes.client.openapi.models.V1TopologySelectorLabelRequirement;
import io.kubernetes.client.openapi.models.V1TopologySelectorTerm;
import io.kubernetes.client.openapi.models.V1VolumeNodeAffinity;
import io.kubernetes.client.openapi.models.V1VolumeResourceRequirements;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.testing.FakeStorage;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports the PreFilter/Filter cases of kube v1.33's {@code volume_binding_test.go} ({@code
 * TestVolumeBinding}) and the binder's provisioning and capacity cases of {@code binder_test.go}.
 */
class VolumeBindingTest {
  static final String WAIT = "wait-sc";
  static final String IMMEDIATE = "immediate-sc";
  static final String PROVISIONED = "provisioned-sc";

  static V1StorageClass sc(String name, String mode, String provisioner) {
    return new V1StorageClass()
        .metadata(new V1ObjectMeta().name(name))
        .volumeBindingMode(mode)
        .provisioner(provisioner);
  }

  static V1PersistentVolumeClaim pvc(String name, String className, String volume, String size) {
    V1PersistentVolumeClaim c =
        new V1PersistentVolumeClaim()
            .metadata(
                new V1ObjectMeta()
                    .name(name)
                    .namespace("default")
                    .uid("uid-" + name)
                    .resourceVersion("1"))
            .spec(
                new V1PersistentVolumeClaimSpec()
                    .storageClassName(className)
                    .volumeName(volume)
                    .accessModes(List.of("ReadWriteOnce"))
                    .resources(
                        new V1VolumeResourceRequirements()
                            .requests(Map.of("storage", Quantity.fromString(size)))));
    if (volume != null) {
      c.getMetadata().putAnnotationsItem(PersistentVolumes.ANN_BIND_COMPLETED, "yes");
    }
    return c;
  }

  static V1PersistentVolume pv(String name, String className, String size, String zone) {
    V1PersistentVolume p =
        new V1PersistentVolume()
            .metadata(new V1ObjectMeta().name(name).resourceVersion("1"))
            .spec(
                new V1PersistentVolumeSpec()
                    .storageClassName(className)
                    .accessModes(List.of("ReadWriteOnce"))
                    .capacity(Map.of("storage", Quantity.fromString(size))))
            .status(new V1PersistentVolumeStatus().phase("Available"));
    if (zone != null) {
      p.getSpec()
          .nodeAffinity(
              new V1VolumeNodeAffinity()
                  .required(
                      new V1NodeSelector()
                          .addNodeSelectorTermsItem(
                              new V1NodeSelectorTerm()
                                  .addMatchExpressionsItem(
                                      new V1NodeSelectorRequirement()
                                          .key("topology.kubernetes.io/zone")
                                          .operator("In")
                                          .values(List.of(zone))))));
    }
    return p;
  }

  static V1PersistentVolume boundPv(String name, String claim) {
    V1PersistentVolume p = pv(name, WAIT, "1Gi", "a");
    p.getSpec()
        .claimRef(
            new io.kubernetes.client.openapi.models.V1ObjectReference()
                .namespace("default")
                .name(claim)
                .uid("uid-" + claim));
    p.getStatus().setPhase("Bound");
    return p;
  }

  static V1Pod pod(String... claims) {
    MakePod p = MakePod.pod().name("pod-a");
    for (String c : claims) {
      p.pvc(c);
    }
    return p.obj();
  }

  static NodeInfo node(String name, String zone) {
    return MakeNode.node().name(name).label("topology.kubernetes.io/zone", zone).info();
  }

  static FakeStorage classes() {
    return new FakeStorage()
        .classes(
            sc(WAIT, "WaitForFirstConsumer", PersistentVolumes.NO_PROVISIONER),
            sc(IMMEDIATE, "Immediate", PersistentVolumes.NO_PROVISIONER),
            sc(PROVISIONED, "WaitForFirstConsumer", "ebs.csi.aws.com"));
  }

  static Stream<Arguments> cases() {
    Status nodeConflict = Status.unresolvable(VolumeBinding.REASON_NODE_CONFLICT);
    Status bindConflict = Status.unresolvable(VolumeBinding.REASON_BIND_CONFLICT);
    return Stream.of(
        argumentSet("pod has not pvcs", pod(), classes(), Status.skip(), List.of()),
        argumentSet(
            "all bound",
            pod("pvc-a"),
            classes().pvcs(pvc("pvc-a", WAIT, "pv-a", "1Gi")).pvs(boundPv("pv-a", "pvc-a")),
            Status.success(),
            List.of(Status.success(), nodeConflict)),
        argumentSet(
            "PVC does not exist",
            pod("pvc-a"),
            classes(),
            Status.unresolvable("persistentvolumeclaim \"pvc-a\" not found"),
            List.of()),
        argumentSet(
            "Part of PVCs do not exist",
            pod("pvc-a", "pvc-b"),
            classes().pvcs(pvc("pvc-a", WAIT, "pv-a", "1Gi")).pvs(boundPv("pv-a", "pvc-a")),
            Status.unresolvable("persistentvolumeclaim \"pvc-b\" not found"),
            List.of()),
        argumentSet(
            "immediate claims not bound",
            pod("pvc-a"),
            classes().pvcs(pvc("pvc-a", IMMEDIATE, null, "1Gi")),
            Status.unresolvable(VolumeBinding.REASON_UNBOUND_IMMEDIATE),
            List.of()),
        argumentSet(
            "unbound claims no matches",
            pod("pvc-a"),
            classes().pvcs(pvc("pvc-a", WAIT, null, "1Gi")),
            Status.success(),
            List.of(bindConflict, bindConflict)),
        argumentSet(
            "bound and unbound unsatisfied",
            pod("pvc-a", "pvc-b"),
            classes()
                .pvcs(pvc("pvc-a", WAIT, "pv-a", "1Gi"), pvc("pvc-b", WAIT, null, "1Gi"))
                .pvs(boundPv("pv-a", "pvc-a")),
            Status.success(),
            List.of(
                bindConflict,
                Status.unresolvable(
                    VolumeBinding.REASON_NODE_CONFLICT, VolumeBinding.REASON_BIND_CONFLICT))),
        argumentSet(
            "pv not found",
            pod("pvc-a"),
            classes().pvcs(pvc("pvc-a", WAIT, "pv-a", "1Gi")),
            Status.success(),
            List.of(
                Status.unresolvable(VolumeBinding.REASON_PV_NOT_EXIST),
                Status.unresolvable(VolumeBinding.REASON_PV_NOT_EXIST))),
        argumentSet(
            "static PV in the node's zone",
            pod("pvc-a"),
            classes().pvcs(pvc("pvc-a", WAIT, null, "1Gi")).pvs(pv("pv-b", WAIT, "5Gi", "b")),
            Status.success(),
            List.of(bindConflict, Status.success())),
        argumentSet(
            "static PV too small",
            pod("pvc-a"),
            classes().pvcs(pvc("pvc-a", WAIT, null, "10Gi")).pvs(pv("pv-a", WAIT, "5Gi", "a")),
            Status.success(),
            List.of(bindConflict, bindConflict)),
        argumentSet(
            "dynamic provisioning on every node",
            pod("pvc-a"),
            classes().pvcs(pvc("pvc-a", PROVISIONED, null, "1Gi")),
            Status.success(),
            List.of(Status.success(), Status.success())),
        argumentSet(
            "terminating claim",
            pod("pvc-a"),
            classes().pvcs(terminating(pvc("pvc-a", WAIT, null, "1Gi"))),
            Status.unresolvable("persistentvolumeclaim \"pvc-a\" is being deleted"),
            List.of()));
  }

  static V1PersistentVolumeClaim terminating(V1PersistentVolumeClaim c) {
    c.getMetadata().setDeletionTimestamp(MakePod.DELETION_TIMESTAMP);
    return c;
  }

  @ParameterizedTest
  @MethodSource("cases")
  void preFilterAndFilter(
      V1Pod pod, FakeStorage storage, Status wantPreFilter, List<Status> wantFilter) {
    VolumeBinding plugin = new VolumeBinding(storage, VolumeBindingArgs.defaults(), false);
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod);
    assertThat(plugin.preFilter(state, info, List.of()).status()).isEqualTo(wantPreFilter);
    List<NodeInfo> nodes = List.of(node("node-a", "a"), node("node-b", "b"));
    for (int i = 0; i < wantFilter.size(); i++) {
      assertThat(plugin.filter(state, info, nodes.get(i)))
          .as(nodes.get(i).name())
          .isEqualTo(wantFilter.get(i));
    }
  }

  static V1TopologySelectorTerm zones(String... zones) {
    return new V1TopologySelectorTerm()
        .addMatchLabelExpressionsItem(
            new V1TopologySelectorLabelRequirement()
                .key("topology.kubernetes.io/zone")
                .values(List.of(zones)));
  }

  static V1CSIStorageCapacity capacity(String zone, String size) {
    return new V1CSIStorageCapacity()
        .metadata(new V1ObjectMeta().name("cap-" + zone).namespace("kube-system"))
        .storageClassName(PROVISIONED)
        .capacity(Quantity.fromString(size))
        .nodeTopology(
            new V1LabelSelector().matchLabels(Map.of("topology.kubernetes.io/zone", zone)));
  }

  static Stream<Arguments> provisioningCases() {
    V1StorageClass topology = sc(PROVISIONED, "WaitForFirstConsumer", "ebs.csi.aws.com");
    topology.setAllowedTopologies(List.of(zones("b")));
    V1CSIDriver tracking =
        new V1CSIDriver()
            .metadata(new V1ObjectMeta().name("ebs.csi.aws.com"))
            .spec(new V1CSIDriverSpec().storageCapacity(true));
    Status bindConflict = Status.unresolvable(VolumeBinding.REASON_BIND_CONFLICT);
    Status noSpace = Status.unresolvable(VolumeBinding.REASON_NOT_ENOUGH_SPACE);
    return Stream.of(
        argumentSet(
            "allowedTopologies exclude the node",
            new FakeStorage().classes(topology).pvcs(pvc("pvc-a", PROVISIONED, null, "1Gi")),
            List.of(bindConflict, Status.success())),
        argumentSet(
            "capacity tracked: enough in zone a only",
            classes()
                .csiDrivers(tracking)
                .capacities(capacity("a", "10Gi"), capacity("b", "1Gi"))
                .pvcs(pvc("pvc-a", PROVISIONED, null, "5Gi")),
            List.of(Status.success(), noSpace)),
        argumentSet(
            "capacity not tracked by the driver",
            classes().capacities(capacity("a", "1Gi")).pvcs(pvc("pvc-a", PROVISIONED, null, "5Gi")),
            List.of(Status.success(), Status.success())));
  }

  @ParameterizedTest
  @MethodSource("provisioningCases")
  void provisioning(FakeStorage storage, List<Status> wantFilter) {
    VolumeBinding plugin = new VolumeBinding(storage, VolumeBindingArgs.defaults(), false);
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod("pvc-a"));
    assertThat(plugin.preFilter(state, info, List.of()).status()).isEqualTo(Status.success());
    assertThat(plugin.filter(state, info, node("node-a", "a"))).isEqualTo(wantFilter.get(0));
    assertThat(plugin.filter(state, info, node("node-b", "b"))).isEqualTo(wantFilter.get(1));
  }

  @Test
  void smallestFittingVolumeIsChosenAssumedAndWrittenAtPreBind() {
    FakeStorage storage =
        classes()
            .pvcs(pvc("pvc-a", WAIT, null, "2Gi"))
            .pvs(
                pv("pv-big", WAIT, "10Gi", "a"),
                pv("pv-small", WAIT, "3Gi", "a"),
                pv("pv-tiny", WAIT, "1Gi", "a"));
    VolumeBinding plugin = new VolumeBinding(storage, new VolumeBindingArgs(0L, List.of()), false);
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod("pvc-a"));
    plugin.preFilter(state, info, List.of());
    assertThat(plugin.filter(state, info, node("node-a", "a"))).isEqualTo(Status.success());
    assertThat(plugin.reserve(state, info, "node-a")).isEqualTo(Status.success());
    assertThat(plugin.pv("pv-small").getSpec().getClaimRef().getName()).isEqualTo("pvc-a");
    // a second pod in the same cycle would not get pv-small any more
    CycleState other = new CycleState();
    V1PersistentVolumeClaim second = pvc("pvc-b", WAIT, null, "2Gi");
    storage.pvcs(second);
    PodInfo info2 = PodInfo.of(MakePod.pod().name("pod-b").pvc("pvc-b").obj());
    plugin.preFilter(other, info2, List.of());
    plugin.filter(other, info2, node("node-a", "a"));
    plugin.reserve(other, info2, "node-a");
    assertThat(plugin.pv("pv-big").getSpec().getClaimRef().getName()).isEqualTo("pvc-b");
    plugin.unreserve(other, info2, "node-a");
    assertThat(plugin.pv("pv-big").getSpec().getClaimRef()).isNull();
    // PreBind writes the PV; nothing completes the binding here, so it times out at once
    Status s = plugin.preBind(state, info, "node-a");
    assertThat(
            storage.getPersistentVolume("pv-small").orElseThrow().getSpec().getClaimRef().getName())
        .isEqualTo("pvc-a");
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message())
        .isEqualTo(
            "binding volumes: timed out waiting for the condition: claim pvc-a is not bound yet");
  }

  @Test
  void provisioningMarksTheClaimWithTheSelectedNode() {
    FakeStorage storage = classes().pvcs(pvc("pvc-a", PROVISIONED, null, "2Gi"));
    VolumeBinding plugin = new VolumeBinding(storage, new VolumeBindingArgs(0L, List.of()), false);
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod("pvc-a"));
    plugin.preFilter(state, info, List.of());
    plugin.filter(state, info, node("node-b", "b"));
    plugin.reserve(state, info, "node-b");
    plugin.preBind(state, info, "node-b");
    assertThat(
            storage
                .getPersistentVolumeClaim("default", "pvc-a")
                .orElseThrow()
                .getMetadata()
                .getAnnotations())
        .containsEntry(PersistentVolumes.ANN_SELECTED_NODE, "node-b");
  }

  static Stream<Arguments> shapes() {
    return Stream.of(
        argumentSet("default shape at 0%", VolumeBindingArgs.DEFAULT_SHAPE, 0L, 0L),
        argumentSet("default shape at 50%", VolumeBindingArgs.DEFAULT_SHAPE, 50L, 50L),
        argumentSet("default shape at 100%", VolumeBindingArgs.DEFAULT_SHAPE, 100L, 100L));
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void brokenLinear(
      List<io.kubesched.plugins.noderesources.UtilizationShapePoint> shape, long p, long want) {
    assertThat(VolumeBinding.brokenLinear(shape, p)).isEqualTo(want);
  }

  @Test
  void argsValidation() {
    assertThat(new VolumeBindingArgs(-1L, List.of()).validate("args"))
        .extracting(Object::toString)
        .containsExactly(
            "args.bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value");
  }
}
