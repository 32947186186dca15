package io.kubesched.plugins.volumezone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.testing.FakeStorage;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports kube v1.33's {@code volume_zone_test.go}. Not-found messages are those of the informer
 * listers kube-scheduler runs with ({@code storageclass.storage.k8s.io "x" not found}), not those
 * of the test's fake listers ({@code storageclasses.storage.k8s.io}).
 */
class VolumeZoneTest {
  private static final String BETA_ZONE = VolumeZone.BETA_ZONE;
  private static final String BETA_REGION = VolumeZone.BETA_REGION;
  private static final String ZONE = VolumeZone.ZONE;
  private static final String REGION = VolumeZone.REGION;
  private static final Status CONFLICT = Status.unresolvable(VolumeZone.REASON_CONFLICT);

  static V1PersistentVolume pv(String name, String... labels) {
    Map<String, String> l = new LinkedHashMap<>();
    for (int i = 0; i < labels.length; i += 2) {
      l.put(labels[i], labels[i + 1]);
    }
    return new V1PersistentVolume().metadata(new V1ObjectMeta().name(name).labels(l));
  }

  static V1PersistentVolumeClaim pvc(String name, String volume, String className) {
    return new V1PersistentVolumeClaim()
        .metadata(new V1ObjectMeta().name(name).namespace("default"))
        .spec(new V1PersistentVolumeClaimSpec().volumeName(volume).storageClassName(className));
  }

  static V1Pod pod(String claim) {
    return MakePod.pod().name("pod_1").namespace("default").pvc(claim).obj();
  }

  static NodeInfo node(String... labels) {
    MakeNode n = MakeNode.node().name("host1");
    for (int i = 0; i < labels.length; i += 2) {
      n.label(labels[i], labels[i + 1]);
    }
    return n.info();
  }

  static final FakeStorage SINGLE_ZONE =
      new FakeStorage()
          .pvs(
              pv("Vol_1", BETA_ZONE, "us-west1-a"),
              pv("Vol_2", BETA_REGION, "us-west1", "uselessLabel", "none"),
              pv("Vol_3", BETA_REGION, "us-west1"),
              pv("Vol_Stable_1", ZONE, "us-west1-a"),
              pv("Vol_Stable_2", REGION, "us-west1", "uselessLabel", "none"),
              pv("Vol_Stable_3", ZONE, "us-west1-a", REGION, "us-west1-a"))
          .pvcs(
              pvc("PVC_1", "Vol_1", null),
              pvc("PVC_2", "Vol_2", null),
              pvc("PVC_3", "Vol_3", null),
              pvc("PVC_4", "Vol_not_exist", null),
              pvc("PVC_Stable_1", "Vol_Stable_1", null),
              pvc("PVC_Stable_2", "Vol_Stable_2", null),
              pvc("PVC_Stable_3", "Vol_Stable_3", null));

  static final FakeStorage MULTI_ZONE =
      new FakeStorage()
          .pvs(
              pv("Vol_1", BETA_ZONE, "us-west1-a"),
              pv("Vol_2", BETA_ZONE, "us-west1-b", "uselessLabel", "none"),
              pv("Vol_3", BETA_ZONE, "us-west1-c__us-west1-a"),
              pv("Vol_Stable_1", ZONE, "us-west1-a"),
              pv("Vol_Stable_2", ZONE, "us-west1-c__us-west1-a"))
          .pvcs(
              pvc("PVC_1", "Vol_1", null),
              pvc("PVC_2", "Vol_2", null),
              pvc("PVC_3", "Vol_3", null),
              pvc("PVC_4", "Vol_not_exist", null),
              pvc("PVC_Stable_1", "Vol_Stable_1", null),
              pvc("PVC_Stable_2", "Vol_Stable_2", null));

  static final FakeStorage WITH_BINDING =
      new FakeStorage()
          .classes(
              new V1StorageClass().metadata(new V1ObjectMeta().name("Class_Immediate")),
              new V1StorageClass()
                  .metadata(new V1ObjectMeta().name("Class_Wait"))
                  .volumeBindingMode("WaitForFirstConsumer"))
          .pvs(pv("Vol_1", BETA_ZONE, "us-west1-a"))
          .pvcs(
              pvc("PVC_1", "Vol_1", null),
              pvc("PVC_NoSC", null, "Class_0"),
              pvc("PVC_EmptySC", null, null),
              pvc("PVC_WaitSC", null, "Class_Wait"),
              pvc("PVC_ImmediateSC", null, "Class_Immediate"));

  static Stream<Arguments> cases() {
    NodeInfo bindingNode = node(BETA_ZONE, "us-west1-a", "uselessLabel", "none");
    Status noName =
        Status.unresolvable("PersistentVolumeClaim had no pv name and storageClass name");
    Status noClass = Status.unresolvable("storageclass.storage.k8s.io \"Class_0\" not found");
    Status modeNotSet =
        Status.unresolvable("VolumeBindingMode not set for StorageClass \"Class_Immediate\"");
    return Stream.of(
        argumentSet(
            "single: pod without volume",
            SINGLE_ZONE,
            MakePod.pod().name("pod_1").namespace("default").obj(),
            node(BETA_ZONE, "us-west1-a"),
            Status.skip(),
            Status.success()),
        argumentSet(
            "single: node without labels",
            SINGLE_ZONE,
            pod("PVC_1"),
            node(),
            Status.success(),
            Status.success()),
        argumentSet(
            "single: beta zone label matched",
            SINGLE_ZONE,
            pod("PVC_1"),
            node(BETA_ZONE, "us-west1-a", "uselessLabel", "none"),
            Status.success(),
            Status.success()),
        argumentSet(
            "single: beta region label matched",
            SINGLE_ZONE,
            pod("PVC_2"),
            node(BETA_REGION, "us-west1", "uselessLabel", "none"),
            Status.success(),
            Status.success()),
        argumentSet(
            "single: beta region label doesn't match",
            SINGLE_ZONE,
            pod("PVC_2"),
            node(BETA_REGION, "no_us-west1", "uselessLabel", "none"),
            Status.success(),
            CONFLICT),
        argumentSet(
            "single: beta zone label doesn't match",
            SINGLE_ZONE,
            pod("PVC_1"),
            node(BETA_ZONE, "no_us-west1-a", "uselessLabel", "none"),
            Status.success(),
            CONFLICT),
        argumentSet(
            "single: zone label matched",
            SINGLE_ZONE,
            pod("PVC_Stable_1"),
            node(ZONE, "us-west1-a", "uselessLabel", "none"),
            Status.success(),
            Status.success()),
        argumentSet(
            "single: region label matched",
            SINGLE_ZONE,
            pod("PVC_Stable_2"),
            node(REGION, "us-west1", "uselessLabel", "none"),
            Status.success(),
            Status.success()),
        argumentSet(
            "single: region label doesn't match",
            SINGLE_ZONE,
            pod("PVC_Stable_2"),
            node(REGION, "no_us-west1", "uselessLabel", "none"),
            Status.success(),
            CONFLICT),
        argumentSet(
            "single: zone label doesn't match",
            SINGLE_ZONE,
            pod("PVC_Stable_1"),
            node(ZONE, "no_us-west1-a", "uselessLabel", "none"),
            Status.success(),
            CONFLICT),
        argumentSet(
            "single: pv with zone and region, node with only zone",
            SINGLE_ZONE,
            pod("PVC_Stable_3"),
            node(ZONE, "us-west1-a"),
            Status.success(),
            CONFLICT),
        argumentSet(
            "single: pv with zone,node with beta zone",
            SINGLE_ZONE,
            pod("PVC_Stable_1"),
            node(BETA_ZONE, "us-west1-a"),
            Status.success(),
            CONFLICT),
        argumentSet(
            "single: pv with beta label,node with ga label, matched",
            SINGLE_ZONE,
            pod("PVC_1"),
            node(ZONE, "us-west1-a"),
            Status.success(),
            Status.success()),
        argumentSet(
            "single: pv with beta label,node with ga label, don't match",
            SINGLE_ZONE,
            pod("PVC_1"),
            node(ZONE, "us-west1-b"),
            Status.success(),
            CONFLICT),
        argumentSet(
            "multi: node without labels",
            MULTI_ZONE,
            pod("PVC_3"),
            node(),
            Status.success(),
            Status.success()),
        argumentSet(
            "multi: beta zone label matched",
            MULTI_ZONE,
            pod("PVC_3"),
            node(BETA_ZONE, "us-west1-a", "uselessLabel", "none"),
            Status.success(),
            Status.success()),
        argumentSet(
            "multi: beta zone label doesn't match",
            MULTI_ZONE,
            pod("PVC_1"),
            node(BETA_ZONE, "us-west1-b", "uselessLabel", "none"),
            Status.success(),
            CONFLICT),
        argumentSet(
            "multi: zone label matched",
            MULTI_ZONE,
            pod("PVC_Stable_2"),
            node(ZONE, "us-west1-a", "uselessLabel", "none"),
            Status.success(),
            Status.success()),
        argumentSet(
            "multi: zone label doesn't match",
            MULTI_ZONE,
            pod("PVC_Stable_1"),
            node(ZONE, "us-west1-b", "uselessLabel", "none"),
            Status.success(),
            CONFLICT),
        argumentSet(
            "binding: label zone failure domain matched",
            WITH_BINDING,
            pod("PVC_1"),
            bindingNode,
            Status.success(),
            Status.success()),
        argumentSet(
            "binding: unbound volume empty storage class",
            WITH_BINDING,
            pod("PVC_EmptySC"),
            bindingNode,
            noName,
            noName),
        argumentSet(
            "binding: unbound volume no storage class",
            WITH_BINDING,
            pod("PVC_NoSC"),
            bindingNode,
            noClass,
            noClass),
        argumentSet(
            "binding: unbound volume immediate binding mode",
            WITH_BINDING,
            pod("PVC_ImmediateSC"),
            bindingNode,
            modeNotSet,
            modeNotSet),
        argumentSet(
            "binding: unbound volume wait binding mode",
            WITH_BINDING,
            pod("PVC_WaitSC"),
            bindingNode,
            Status.skip(),
            Status.success()),
        argumentSet(
            "missing claim",
            SINGLE_ZONE,
            pod("PVC_missing"),
            node(ZONE, "a"),
            Status.unresolvable("persistentvolumeclaim \"PVC_missing\" not found"),
            Status.unresolvable("persistentvolumeclaim \"PVC_missing\" not found")),
        argumentSet(
            "claim of a missing volume",
            SINGLE_ZONE,
            pod("PVC_4"),
            node(ZONE, "a"),
            Status.unresolvable("persistentvolume \"Vol_not_exist\" not found"),
            Status.unresolvable("persistentvolume \"Vol_not_exist\" not found")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void preFilterAndFilter(
      FakeStorage storage, V1Pod pod, NodeInfo node, Status wantPreFilter, Status wantFilter) {
    VolumeZone plugin = new VolumeZone(storage);
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod);
    PreFilterResult pre = plugin.preFilter(state, info, List.of());
    assertThat(pre.status()).isEqualTo(wantPreFilter);
    assertThat(plugin.filter(state, info, node)).isEqualTo(wantFilter);
  }

  static Stream<Arguments> claimHints() {
    V1PersistentVolumeClaim unbound = pvc("PVC_1", "", null);
    V1PersistentVolumeClaim bound = pvc("PVC_1", "Vol_1", null);
    V1PersistentVolumeClaim otherNs = pvc("PVC_1", "Vol_1", null);
    otherNs.getMetadata().setNamespace("ns1");
    V1Pod noClaims = MakePod.pod().name("pod_1").namespace("default").obj();
    return Stream.of(
        argumentSet(
            "pvc-was-added-but-pod-refers-no-pvc", noClaims, null, bound, QueueingHint.SKIP),
        argumentSet(
            "pvc-was-added-and-pod-was-bound-to-different-pvc",
            pod("PVC_2"),
            null,
            bound,
            QueueingHint.SKIP),
        argumentSet(
            "pvc-was-added-and-pod-was-bound-to-pvc-but-different-ns",
            pod("PVC_1"),
            null,
            otherNs,
            QueueingHint.SKIP),
        argumentSet(
            "pvc-was-added-and-pod-was-bound-to-the-pvc",
            pod("PVC_1"),
            null,
            bound,
            QueueingHint.QUEUE),
        argumentSet(
            "pvc-was-updated-and-pod-was-bound-to-the-pvc",
            pod("PVC_1"),
            unbound,
            bound,
            QueueingHint.QUEUE),
        argumentSet(
            "pvc-was-updated-but-pod-refers-no-pvc", noClaims, unbound, bound, QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("claimHints")
  void isSchedulableAfterClaimChange(V1Pod pod, Object oldObj, Object newObj, QueueingHint want) {
    assertThat(VolumeZone.isSchedulableAfterClaimChange(pod, oldObj, newObj)).isEqualTo(want);
  }

  static Stream<Arguments> classHints() {
    return Stream.of(
        argumentSet(
            "sc-doesn't-have-volume-binding-mode",
            new V1StorageClass().metadata(new V1ObjectMeta().name("SC_1")),
            QueueingHint.SKIP),
        argumentSet(
            "new-sc-is-wait-for-first-consumer-mode",
            new V1StorageClass()
                .metadata(new V1ObjectMeta().name("SC_1"))
                .volumeBindingMode("WaitForFirstConsumer"),
            QueueingHint.QUEUE));
  }

  @ParameterizedTest
  @MethodSource("classHints")
  void isSchedulableAfterStorageClassAdded(V1StorageClass sc, QueueingHint want) {
    assertThat(VolumeZone.isSchedulableAfterStorageClassAdded(pod("PVC_1"), null, sc))
        .isEqualTo(want);
  }

  static Stream<Arguments> volumeHints() {
    return Stream.of(
        argumentSet(
            "new-pv-was-added", null, pv("Vol_1", BETA_ZONE, "us-west1-b"), QueueingHint.QUEUE),
        argumentSet(
            "pv-was-updated-and-changed-topology",
            pv("Vol_1", BETA_ZONE, "us-west1-a"),
            pv("Vol_1", BETA_ZONE, "us-west1-b"),
            QueueingHint.QUEUE),
        argumentSet(
            "pv-was-updated-and-added-topology-label",
            pv("Vol_1", BETA_ZONE, "us-west1-a"),
            pv("Vol_1", BETA_ZONE, "us-west1-a", ZONE, "zone"),
            QueueingHint.QUEUE),
        argumentSet(
            "pv-was-updated-but-no-topology-is-changed",
            pv("Vol_1", BETA_ZONE, "us-west1-a", ZONE, "zone"),
            pv("Vol_1", BETA_ZONE, "us-west1-a", ZONE, "zone"),
            QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("volumeHints")
  void isSchedulableAfterVolumeChange(Object oldObj, Object newObj, QueueingHint want) {
    assertThat(VolumeZone.isSchedulableAfterVolumeChange(pod("PVC_1"), oldObj, newObj))
        .isEqualTo(want);
  }
}
