package io.kubesched.plugins.volumerestrictions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1AWSElasticBlockStoreVolumeSource;
import io.kubernetes.client.openapi.models.V1GCEPersistentDiskVolumeSource;
import io.kubernetes.client.openapi.models.V1ISCSIVolumeSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1RBDVolumeSource;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.testing.FakeStorage;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports kube v1.33's {@code volume_restrictions_test.go}. */
class VolumeRestrictionsTest {
  private static final Status DISK = Status.unschedulable(VolumeRestrictions.REASON_DISK_CONFLICT);
  private static final Status RWOP = Status.unschedulable(VolumeRestrictions.REASON_RWOP_CONFLICT);

  record Lister(List<NodeInfo> nodes) implements NodeInfoLister {
    @Override
    public List<NodeInfo> list() {
      return nodes;
    }

    @Override
    public List<NodeInfo> havePodsWithAffinityList() {
      return List.of();
    }

    @Override
    public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
      return List.of();
    }

    @Override
    public NodeInfo get(String nodeName) {
      return find(nodeName);
    }

    @Override
    public NodeInfo find(String nodeName) {
      return nodes.stream().filter(n -> n.name().equals(nodeName)).findFirst().orElse(null);
    }
  }

  static V1Pod pod(String name, UnaryOperator<V1Volume> volume) {
    V1Pod p = MakePod.pod().name(name).namespace("default").obj();
    p.getSpec().addVolumesItem(volume.apply(new V1Volume().name("v")));
    return p;
  }

  static V1Pod empty() {
    return MakePod.pod().name("empty").namespace("default").obj();
  }

  static Stream<Arguments> diskConflicts() {
    List<Arguments> out = new java.util.ArrayList<>();
    record Kind(String name, UnaryOperator<V1Volume> state, UnaryOperator<V1Volume> state2) {}
    List<Kind> kinds =
        List.of(
            new Kind(
                "GCE",
                v -> v.gcePersistentDisk(new V1GCEPersistentDiskVolumeSource().pdName("foo")),
                v -> v.gcePersistentDisk(new V1GCEPersistentDiskVolumeSource().pdName("bar"))),
            new Kind(
                "AWS",
                v ->
                    v.awsElasticBlockStore(
                        new V1AWSElasticBlockStoreVolumeSource().volumeID("foo")),
                v ->
                    v.awsElasticBlockStore(
                        new V1AWSElasticBlockStoreVolumeSource().volumeID("bar"))),
            new Kind(
                "RBD",
                v ->
                    v.rbd(
                        new V1RBDVolumeSource()
                            .monitors(List.of("a", "b"))
                            .pool("foo")
                            .image("bar")
                            .fsType("ext4")),
                v ->
                    v.rbd(
                        new V1RBDVolumeSource()
                            .monitors(List.of("c", "d"))
                            .pool("foo")
                            .image("bar")
                            .fsType("ext4"))),
            new Kind(
                "ISCSI",
                v ->
                    v.iscsi(
                        new V1ISCSIVolumeSource()
                            .targetPortal("127.0.0.1:3260")
                            .iqn("iqn.2016-12.server:storage.target01")
                            .fsType("ext4")
                            .lun(0)),
                v ->
                    v.iscsi(
                        new V1ISCSIVolumeSource()
                            .targetPortal("127.0.0.1:3260")
                            .iqn("iqn.2017-12.server:storage.target01")
                            .fsType("ext4")
                            .lun(0))));
    for (Kind k : kinds) {
      out.add(argumentSet(k.name() + ": nothing", empty(), List.of(), Status.success()));
      out.add(
          argumentSet(
              k.name() + ": one state", empty(), List.of(pod("e", k.state())), Status.success()));
      out.add(
          argumentSet(
              k.name() + ": same state", pod("p", k.state()), List.of(pod("e", k.state())), DISK));
      out.add(
          argumentSet(
              k.name() + ": different state",
              pod("p", k.state2()),
              List.of(pod("e", k.state())),
              Status.success()));
    }
    out.add(
        argumentSet(
            "GCE: both read-only",
            pod(
                "p",
                v ->
                    v.gcePersistentDisk(
                        new V1GCEPersistentDiskVolumeSource().pdName("foo").readOnly(true))),
            List.of(
                pod(
                    "e",
                    v ->
                        v.gcePersistentDisk(
                            new V1GCEPersistentDiskVolumeSource().pdName("foo").readOnly(true)))),
            Status.success()));
    return out.stream();
  }

  @ParameterizedTest
  @MethodSource("diskConflicts")
  void filterDiskConflicts(V1Pod pod, List<V1Pod> existing, Status want) {
    NodeInfo node =
        MakeNode.node().name("n").info(existing.stream().map(PodInfo::of).toArray(PodInfo[]::new));
    VolumeRestrictions plugin =
        new VolumeRestrictions(new FakeStorage(), () -> new Lister(List.of(node)));
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod);
    Status pre = plugin.preFilter(state, info, List.of(node)).status();
    Status got = pre.isSkip() ? Status.success() : plugin.filter(state, info, node);
    assertThat(got).isEqualTo(want);
  }

  static V1PersistentVolumeClaim claim(String name, String mode) {
    return new V1PersistentVolumeClaim()
        .metadata(new V1ObjectMeta().name(name).namespace("default"))
        .spec(new V1PersistentVolumeClaimSpec().accessModes(List.of(mode)));
  }

  static Stream<Arguments> accessModeConflicts() {
    V1Pod rwop =
        MakePod.pod()
            .name("pod-with-rwop")
            .namespace("default")
            .node("node-1")
            .pvc("claim-with-rwop")
            .obj();
    V1Pod rwop2 =
        MakePod.pod()
            .name("pod-with-rwop-1")
            .namespace("default")
            .node("node-1")
            .pvc("claim-with-rwop")
            .obj();
    V1Pod rwx =
        MakePod.pod()
            .name("pod-with-rwx")
            .namespace("default")
            .node("node-1")
            .pvc("claim-with-rwx")
            .obj();
    V1Pod twoClaims =
        MakePod.pod()
            .name("pod-with-two-rwop")
            .namespace("default")
            .node("node-1")
            .pvc("claim-with-rwop")
            .pvc("claim-with-rwop-2")
            .obj();
    FakeStorage claims =
        new FakeStorage()
            .pvcs(
                claim("claim-with-rwop", "ReadWriteOncePod"),
                claim("claim-with-rwop-2", "ReadWriteOncePod"),
                claim("claim-with-rwx", "ReadWriteMany"));
    return Stream.of(
        argumentSet("nothing", empty(), List.of(), new FakeStorage(), Status.skip(), null),
        argumentSet(
            "failed to get PVC",
            rwop,
            List.of(),
            new FakeStorage(),
            Status.unresolvable("persistentvolumeclaim \"claim-with-rwop\" not found"),
            null),
        argumentSet("no access mode conflict", rwop, List.of(rwx), claims, Status.skip(), null),
        argumentSet(
            "access mode conflict, unschedulable",
            rwop,
            List.of(rwop2, rwx),
            claims,
            Status.success(),
            RWOP),
        argumentSet(
            "two conflicts, unschedulable",
            twoClaims,
            List.of(
                rwop2,
                MakePod.pod()
                    .name("x")
                    .namespace("default")
                    .node("node-1")
                    .pvc("claim-with-rwop-2")
                    .obj()),
            claims,
            Status.success(),
            RWOP));
  }

  @ParameterizedTest
  @MethodSource("accessModeConflicts")
  void accessModeConflicts(
      V1Pod pod,
      List<V1Pod> existing,
      FakeStorage storage,
      Status wantPreFilter,
      Status wantFilter) {
    NodeInfo node =
        MakeNode.node()
            .name("node-1")
            .info(existing.stream().map(PodInfo::of).toArray(PodInfo[]::new));
    VolumeRestrictions plugin = new VolumeRestrictions(storage, () -> new Lister(List.of(node)));
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod);
    assertThat(plugin.preFilter(state, info, List.of(node)).status()).isEqualTo(wantPreFilter);
    if (wantFilter != null) {
      assertThat(plugin.filter(state, info, node)).isEqualTo(wantFilter);
      CycleState removed = state.clone();
      for (V1Pod e : existing) {
        plugin.removePod(removed, info, PodInfo.of(e), node);
      }
      assertThat(plugin.filter(removed, info, MakeNode.node().name("node-1").info()))
          .isEqualTo(Status.success());
    }
  }

  static Stream<Arguments> podDeletedHints() {
    UnaryOperator<V1Volume> gce =
        v -> v.gcePersistentDisk(new V1GCEPersistentDiskVolumeSource().pdName("foo"));
    V1Pod withClaim = MakePod.pod().name("p").namespace("default").pvc("claim").obj();
    return Stream.of(
        argumentSet(
            "queue on deleting a conflicting disk",
            pod("p", gce),
            pod("e", gce),
            QueueingHint.QUEUE),
        argumentSet(
            "skip a pod of another namespace",
            pod("p", gce),
            MakePod.pod().name("e").namespace("other").obj(),
            QueueingHint.SKIP),
        argumentSet("skip an unrelated pod", pod("p", gce), empty(), QueueingHint.SKIP),
        argumentSet(
            "queue on deleting a pod with the same claim",
            withClaim,
            MakePod.pod().name("e").namespace("default").pvc("claim").obj(),
            QueueingHint.QUEUE));
  }

  @ParameterizedTest
  @MethodSource("podDeletedHints")
  void isSchedulableAfterPodDeleted(V1Pod pod, V1Pod deleted, QueueingHint want) {
    assertThat(VolumeRestrictions.isSchedulableAfterPodDeleted(pod, deleted, null)).isEqualTo(want);
  }

  static Stream<Arguments> claimAddedHints() {
    V1Pod withClaim = MakePod.pod().name("p").namespace("default").pvc("claim").obj();
    V1PersistentVolumeClaim other = claim("claim", "ReadWriteOnce");
    other.getMetadata().setNamespace("other");
    return Stream.of(
        argumentSet(
            "queue on the pod's claim",
            withClaim,
            claim("claim", "ReadWriteOnce"),
            QueueingHint.QUEUE),
        argumentSet(
            "skip another claim", withClaim, claim("claim2", "ReadWriteOnce"), QueueingHint.SKIP),
        argumentSet("skip another namespace", withClaim, other, QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("claimAddedHints")
  void isSchedulableAfterClaimAdded(V1Pod pod, V1PersistentVolumeClaim pvc, QueueingHint want) {
    assertThat(VolumeRestrictions.isSchedulableAfterClaimAdded(pod, null, pvc)).isEqualTo(want);
  }
}
