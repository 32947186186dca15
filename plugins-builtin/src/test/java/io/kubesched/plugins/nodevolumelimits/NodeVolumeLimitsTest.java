package io.kubesched.plugins.nodevolumelimits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1AWSElasticBlockStoreVolumeSource;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSINodeDriver;
import io.kubernetes.client.openapi.models.V1CSINodeSpec;
import io.kubernetes.client.openapi.models.V1CSIPersistentVolumeSource;
import io.kubernetes.client.openapi.models.V1ConfigMapVolumeSource;
import io.kubernetes.client.openapi.models.V1EphemeralVolumeSource;
import io.kubernetes.client.openapi.models.V1HostPathVolumeSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1SecretVolumeSource;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeNodeResources;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.testing.FakeStorage;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports kube v1.33's {@code csi_test.go} ({@code TestCSILimits} without the VolumeAttachment cases
 * of later releases, and the queueing-hint tables). The not-found message is the informer lister's
 * ({@code persistentvolumeclaim "x" not found}), not the test fake's plural.
 */
class NodeVolumeLimitsTest {
  static final String EBS = "ebs.csi.aws.com";
  static final String GCE = "pd.csi.storage.gke.io";
  static final String AWS_IN_TREE = CsiTranslation.AWS_EBS;
  static final String HOSTPATH = "kubernetes.io/hostpath";
  static final String SC = "csi-sc";
  static final String NODE = "node-for-max-pd-test-1";
  static final Status EXCEEDED = Status.unschedulable(NodeVolumeLimits.REASON_MAX_VOLUME_COUNT);

  static V1Pod claims(String... names) {
    MakePod p = MakePod.pod().name("p");
    for (String n : names) {
      p.pvc(n);
    }
    return p.obj();
  }

  static V1Pod withVolumes(String name, String ns, String uid, V1Volume... volumes) {
    V1Pod p = MakePod.pod().name(name).namespace(ns).uid(uid).obj();
    for (V1Volume v : volumes) {
      p.getSpec().addVolumesItem(v);
    }
    return p;
  }

  static V1Volume ebsInline(String id) {
    return new V1Volume()
        .name("ebs-" + id)
        .awsElasticBlockStore(new V1AWSElasticBlockStoreVolumeSource().volumeID(id));
  }

  static V1Volume ephemeral(String name) {
    return new V1Volume().name(name).ephemeral(new V1EphemeralVolumeSource());
  }

  static V1Volume configMap() {
    return new V1Volume().name("cm").configMap(new V1ConfigMapVolumeSource());
  }

  static V1Volume secret() {
    return new V1Volume().name("secret").secret(new V1SecretVolumeSource());
  }

  static V1PersistentVolumeClaim ephemeralClaim(V1Pod pod, String volume, boolean owned) {
    V1PersistentVolumeClaim c =
        new V1PersistentVolumeClaim()
            .metadata(
                new V1ObjectMeta()
                    .namespace(pod.getMetadata().getNamespace())
                    .name(pod.getMetadata().getName() + "-" + volume))
            .spec(new V1PersistentVolumeClaimSpec().storageClassName(SC));
    if (owned) {
      c.getMetadata()
          .addOwnerReferencesItem(
              new V1OwnerReference()
                  .kind("Pod")
                  .name(pod.getMetadata().getName())
                  .uid(pod.getMetadata().getUid())
                  .controller(true));
    }
    return c;
  }

  /** kube's getFakeCSIPVLister, getFakeCSIPVCLister and getFakeCSIStorageClassLister. */
  static FakeStorage storage(List<String> drivers, List<V1PersistentVolumeClaim> extra) {
    FakeStorage s = new FakeStorage();
    for (String driver : drivers) {
      for (int j = 0; j < 4; j++) {
        String handle = "csi-" + driver + "-" + j;
        V1PersistentVolumeSpec spec = new V1PersistentVolumeSpec();
        switch (driver) {
          case AWS_IN_TREE ->
              spec.awsElasticBlockStore(new V1AWSElasticBlockStoreVolumeSource().volumeID(handle));
          case HOSTPATH -> spec.hostPath(new V1HostPathVolumeSource().path("/tmp"));
          default ->
              spec.csi(new V1CSIPersistentVolumeSource().driver(driver).volumeHandle(handle));
        }
        s.pvs(new V1PersistentVolume().metadata(new V1ObjectMeta().name(handle)).spec(spec));
        s.pvcs(claim(handle, handle, null));
      }
    }
    s.pvcs(
        claim("csi-4", null, SC),
        claim("csi-5", null, null),
        claim("csi-6", "missing-in-action", SC));
    extra.forEach(s::pvcs);
    s.classes(
        new V1StorageClass().metadata(new V1ObjectMeta().name(SC)).provisioner(drivers.get(0)));
    return s;
  }

  static V1PersistentVolumeClaim claim(String name, String volume, String className) {
    return new V1PersistentVolumeClaim()
        .metadata(new V1ObjectMeta().name(name).namespace("default"))
        .spec(new V1PersistentVolumeClaimSpec().volumeName(volume).storageClassName(className));
  }

  /** kube's getNodeWithPodAndVolumeLimits: "csinode", "csinode-with-no-limit" or none. */
  static V1CSINode csiNode(String limitSource, int limit, List<String> drivers) {
    if (limitSource == null) {
      return null;
    }
    V1CSINode n =
        new V1CSINode()
            .metadata(new V1ObjectMeta().name(NODE))
            .spec(new V1CSINodeSpec().drivers(new ArrayList<>()));
    for (String d : drivers) {
      V1CSINodeDriver driver = new V1CSINodeDriver().name(d).nodeID(NODE);
      if (limitSource.equals("csinode")) {
        driver.allocatable(new V1VolumeNodeResources().count(limit));
      }
      n.getSpec().addDriversItem(driver);
    }
    return n;
  }

  static Stream<Arguments> cases() {
    V1Pod runningPod = claims("csi-ebs.csi.aws.com-3");
    V1Pod pendingVolumePod = claims("csi-4");
    V1Pod unboundPvcPod2 = claims("csi-4");
    V1Pod missingPvPod = claims("csi-6");
    V1Pod noScPvcPod = claims("csi-5");
    V1Pod gceTwoVolPod = claims("csi-pd.csi.storage.gke.io-1", "csi-pd.csi.storage.gke.io-2");
    V1Pod inTreeOneVolPod = claims("csi-kubernetes.io/aws-ebs-0");
    V1Pod inTreeTwoVolPod = claims("csi-kubernetes.io/aws-ebs-1", "csi-kubernetes.io/aws-ebs-2");
    V1Pod csiEbsOneVolPod = claims("csi-ebs.csi.aws.com-0");
    V1Pod csiEbsTwoVolPod = claims("csi-ebs.csi.aws.com-1", "csi-ebs.csi.aws.com-2");
    V1Pod inTreeNonMigratableOneVolPod = claims("csi-kubernetes.io/hostpath-0");
    V1Pod ephemeralVolumePod = withVolumes("abc", "test", "12345", ephemeral("xyz"));
    V1PersistentVolumeClaim ephemeralClaim = ephemeralClaim(ephemeralVolumePod, "xyz", true);
    V1PersistentVolumeClaim conflictingClaim = ephemeralClaim(ephemeralVolumePod, "xyz", false);
    V1Pod ephemeralTwoVolumePod =
        withVolumes("abc", "test", "12345II", ephemeral("x"), ephemeral("y"));
    V1PersistentVolumeClaim ephemeralClaimX = ephemeralClaim(ephemeralTwoVolumePod, "x", true);
    V1PersistentVolumeClaim ephemeralClaimY = ephemeralClaim(ephemeralTwoVolumePod, "y", true);
    V1Pod inTreeInlineVolPod = withVolumes("inline", "default", "u1", ebsInline("aws-inline1"));
    V1Pod inTreeInlineVolPodWithSameCsiVolumeId =
        withVolumes("inline2", "default", "u2", ebsInline("csi-ebs.csi.aws.com-1"));
    V1Pod onlyConfigmapAndSecretVolPod = withVolumes("cm", "default", "u3", configMap(), secret());
    V1Pod pvcPodWithConfigmapAndSecret =
        withVolumes(
            "cm2",
            "default",
            "u4",
            configMap(),
            secret(),
            claims("csi-ebs.csi.aws.com-0").getSpec().getVolumes().get(0));
    V1Pod ephemeralPodWithConfigmapAndSecret =
        withVolumes("abc", "test", "u5", configMap(), secret(), ephemeral("xyz"));
    V1Pod inlineMigratablePodWithConfigmapAndSecret =
        withVolumes("cm3", "default", "u6", configMap(), secret(), ebsInline("aws-inline1"));
    List<String> ebs = List.of(EBS);
    List<String> ebsGce = List.of(EBS, GCE);
    List<String> migration = List.of(AWS_IN_TREE, EBS);
    Status missingEphemeral =
        Status.unresolvable(
            "looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found");
    return Stream.of(
        argumentSet(
            "fits when node volume limit >= new pods CSI volume",
            csiEbsOneVolPod,
            List.of(runningPod, csiEbsTwoVolPod),
            List.of(),
            4,
            ebs,
            "csinode",
            Status.success(),
            Status.success()),
        argumentSet(
            "doesn't when node volume limit <= pods CSI volume",
            csiEbsOneVolPod,
            List.of(runningPod, csiEbsTwoVolPod),
            List.of(),
            2,
            ebs,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "should when driver does not support volume limits",
            csiEbsOneVolPod,
            List.of(runningPod, csiEbsTwoVolPod),
            List.of(),
            2,
            ebs,
            "csinode-with-no-limit",
            Status.success(),
            Status.success()),
        argumentSet(
            "count pending PVCs towards volume limit <= pods CSI volume",
            csiEbsOneVolPod,
            List.of(pendingVolumePod, csiEbsTwoVolPod),
            List.of(),
            2,
            ebs,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "count multiple pending pvcs towards volume limit >= pods CSI volume",
            csiEbsOneVolPod,
            List.of(pendingVolumePod, unboundPvcPod2, csiEbsTwoVolPod),
            List.of(),
            4,
            ebs,
            "csinode",
            Status.success(),
            Status.success()),
        argumentSet(
            "should count PVCs with invalid PV name but valid SC",
            csiEbsOneVolPod,
            List.of(missingPvPod, csiEbsTwoVolPod),
            List.of(),
            2,
            ebs,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "don't count pvcs with missing SC towards volume limit",
            csiEbsOneVolPod,
            List.of(runningPod, noScPvcPod),
            List.of(),
            2,
            ebs,
            "csinode",
            Status.success(),
            Status.success()),
        argumentSet(
            "count pvcs with the same type towards volume limit",
            csiEbsOneVolPod,
            List.of(gceTwoVolPod, csiEbsTwoVolPod),
            List.of(),
            2,
            ebsGce,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "don't count pvcs with different type towards volume limit",
            gceTwoVolPod,
            List.of(csiEbsTwoVolPod, runningPod),
            List.of(),
            2,
            ebsGce,
            "csinode",
            Status.success(),
            Status.success()),
        argumentSet(
            "should count in-tree volumes if migration is enabled",
            inTreeOneVolPod,
            List.of(inTreeTwoVolPod),
            List.of(),
            2,
            migration,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "nil csi node",
            inTreeInlineVolPod,
            List.of(inTreeTwoVolPod),
            List.of(),
            0,
            migration,
            null,
            Status.success(),
            Status.success()),
        argumentSet(
            "should count unbound in-tree volumes if migration is enabled",
            pendingVolumePod,
            List.of(inTreeTwoVolPod),
            List.of(),
            2,
            migration,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "should not limit pod if volume used does not report limits",
            inTreeOneVolPod,
            List.of(inTreeTwoVolPod),
            List.of(),
            2,
            migration,
            "csinode-with-no-limit",
            Status.success(),
            Status.success()),
        argumentSet(
            "should not count non-migratable in-tree volumes",
            inTreeNonMigratableOneVolPod,
            List.of(csiEbsTwoVolPod),
            List.of(),
            2,
            List.of(HOSTPATH, EBS),
            "csinode",
            Status.success(),
            Status.success()),
        argumentSet(
            "should count in-tree inline volumes if migration is enabled",
            inTreeInlineVolPod,
            List.of(inTreeTwoVolPod),
            List.of(),
            2,
            migration,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "should count in-tree and csi volumes if migration is enabled (when scheduling in-tree volumes)",
            inTreeOneVolPod,
            List.of(csiEbsTwoVolPod),
            List.of(),
            2,
            migration,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "should count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)",
            inTreeInlineVolPod,
            List.of(csiEbsTwoVolPod, inTreeOneVolPod),
            List.of(),
            3,
            migration,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "should not count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)",
            inTreeInlineVolPodWithSameCsiVolumeId,
            List.of(csiEbsTwoVolPod, inTreeOneVolPod),
            List.of(),
            3,
            migration,
            "csinode",
            Status.success(),
            Status.success()),
        argumentSet(
            "should count in-tree and csi volumes if migration is enabled (when scheduling csi volumes)",
            csiEbsOneVolPod,
            List.of(inTreeTwoVolPod),
            List.of(),
            2,
            migration,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "ephemeral volume missing",
            ephemeralVolumePod,
            List.of(),
            List.of(),
            0,
            ebs,
            "csinode-with-no-limit",
            Status.success(),
            missingEphemeral),
        argumentSet(
            "ephemeral volume not owned",
            ephemeralVolumePod,
            List.of(),
            List.of(conflictingClaim),
            0,
            ebs,
            "csinode-with-no-limit",
            Status.success(),
            Status.error("PVC test/abc-xyz was not created for pod test/abc (pod is not owner)")),
        argumentSet(
            "ephemeral volume unbound",
            ephemeralVolumePod,
            List.of(),
            List.of(ephemeralClaim),
            0,
            ebs,
            "csinode-with-no-limit",
            Status.success(),
            Status.success()),
        argumentSet(
            "ephemeral doesn't when node volume limit <= pods CSI volume",
            ephemeralVolumePod,
            List.of(runningPod, csiEbsTwoVolPod),
            List.of(ephemeralClaim),
            2,
            ebs,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "ephemeral doesn't when node volume limit <= pods ephemeral CSI volume",
            csiEbsOneVolPod,
            List.of(runningPod, ephemeralTwoVolumePod),
            List.of(ephemeralClaimX, ephemeralClaimY),
            2,
            ebs,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume",
            csiEbsOneVolPod,
            List.of(runningPod, ephemeralVolumePod, csiEbsTwoVolPod),
            List.of(ephemeralClaim),
            3,
            ebs,
            "csinode",
            Status.success(),
            EXCEEDED),
        argumentSet(
            "persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume",
            csiEbsOneVolPod,
            List.of(runningPod, ephemeralVolumePod, csiEbsTwoVolPod),
            List.of(ephemeralClaim),
            5,
            ebs,
            "csinode",
            Status.success(),
            Status.success()),
        argumentSet(
            "skip Filter when the pod only uses secrets and configmaps",
            onlyConfigmapAndSecretVolPod,
            List.of(),
            List.of(),
            2,
            ebs,
            "csinode",
            Status.skip(),
            null),
        argumentSet(
            "don't skip Filter when the pod has pvcs",
            pvcPodWithConfigmapAndSecret,
            List.of(),
            List.of(),
            2,
            ebs,
            "csinode",
            Status.success(),
            Status.success()),
        argumentSet(
            "don't skip Filter when the pod has ephemeral volumes",
            ephemeralPodWithConfigmapAndSecret,
            List.of(),
            List.of(),
            0,
            ebs,
            "csinode-with-no-limit",
            Status.success(),
            missingEphemeral),
        argumentSet(
            "don't skip Filter when the pod has inline migratable volumes",
            inlineMigratablePodWithConfigmapAndSecret,
            List.of(inTreeTwoVolPod),
            List.of(),
            2,
            migration,
            "csinode",
            Status.success(),
            EXCEEDED));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void csiLimits(
      V1Pod pod,
      List<V1Pod> existing,
      List<V1PersistentVolumeClaim> extraClaims,
      int maxVols,
      List<String> drivers,
      String limitSource,
      Status wantPreFilter,
      Status wantFilter) {
    FakeStorage storage = storage(drivers, extraClaims);
    V1CSINode csiNode = csiNode(limitSource, maxVols, drivers);
    if (csiNode != null) {
      storage.csiNodes(csiNode);
    }
    NodeInfo node =
        MakeNode.node().name(NODE).info(existing.stream().map(PodInfo::of).toArray(PodInfo[]::new));
    NodeVolumeLimits plugin = new NodeVolumeLimits(storage);
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod);
    Status pre = plugin.preFilter(state, info, List.of(node)).status();
    assertThat(pre).isEqualTo(wantPreFilter);
    if (!pre.isSkip()) {
      Status got = plugin.filter(state, info, node);
      assertThat(got.code()).isEqualTo(wantFilter.code());
      assertThat(got.message()).isEqualTo(wantFilter.message());
    }
  }

  @Test
  void aNodeIsLookedAtAgainWhenItsPodsOrItsCsiNodeChange() {
    // Filter keeps each node's limits and attached-volume bound between pods; a pod added to the
    // same NodeInfo, or a new CSINode object, must be seen
    FakeStorage storage = storage(List.of(EBS), List.of());
    storage.csiNodes(csiNode("csinode", 2, List.of(EBS)));
    NodeInfo node = MakeNode.node().name(NODE).info();
    NodeVolumeLimits plugin = new NodeVolumeLimits(storage);
    PodInfo pod = PodInfo.of(claims("csi-ebs.csi.aws.com-0"));
    CycleState state = new CycleState();
    plugin.preFilter(state, pod, List.of(node));

    Status empty = plugin.filter(state, pod, node);
    node.addPod(PodInfo.of(claims("csi-ebs.csi.aws.com-1", "csi-ebs.csi.aws.com-2")));
    Status full = plugin.filter(state, pod, node);
    storage.csiNodes(csiNode("csinode", 3, List.of(EBS)));
    Status raised = plugin.filter(state, pod, node);

    assertThat(List.of(empty, full, raised))
        .isEqualTo(List.of(Status.success(), EXCEEDED, Status.success()));
  }

  @Test
  void attachLimitKeyShortensLongDriverNames() {
    assertThat(CsiTranslation.attachLimitKey("ebs.csi.aws.com"))
        .isEqualTo("attachable-volumes-csi-ebs.csi.aws.com");
    String longName = "a-very-long-csi-driver-name.storage.example.com";
    String key = CsiTranslation.attachLimitKey(longName);
    assertThat(key)
        .startsWith("attachable-volumes-csi-a-very-long-csi-driver")
        .hasSize(23 + 23 + 16);
  }

  static Stream<Arguments> podDeletedHints() {
    V1Pod podEbs = claims("csi-ebs.csi.aws.com-2");
    V1Pod withPvc = MakePod.pod().name("d").node("n").pvc("placeholder").obj();
    V1Pod withInline = withVolumes("d", "default", "d", ebsInline(""));
    withInline.getSpec().setNodeName("n");
    V1Pod noVolumes = MakePod.pod().name("d").node("n").obj();
    V1Pod notScheduled = MakePod.pod().name("d").pvc("csi-ebs.csi.aws.com-0").obj();
    return Stream.of(
        argumentSet(
            "return a Queue when a deleted pod has a PVC", podEbs, withPvc, QueueingHint.QUEUE),
        argumentSet(
            "return a Queue when a deleted pod has a inline migratable volume",
            podEbs,
            withInline,
            QueueingHint.QUEUE),
        argumentSet(
            "return a QueueSkip when a deleted pod doesn't have any volume",
            podEbs,
            noVolumes,
            QueueingHint.SKIP),
        argumentSet(
            "return a QueueSkip when a deleted pod is not scheduled.",
            podEbs,
            notScheduled,
            QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("podDeletedHints")
  void isSchedulableAfterPodDeleted(V1Pod pod, V1Pod deleted, QueueingHint want) {
    assertThat(NodeVolumeLimits.isSchedulableAfterPodDeleted(pod, deleted, null)).isEqualTo(want);
  }

  static Stream<Arguments> claimAddedHints() {
    V1PersistentVolumeClaim ns2 =
        new V1PersistentVolumeClaim().metadata(new V1ObjectMeta().name("x").namespace("ns2"));
    return Stream.of(
        argumentSet(
            "a pod isn't in the same namespace as an added PVC",
            MakePod.pod().name("p").namespace("ns1").obj(),
            ns2,
            QueueingHint.SKIP),
        argumentSet(
            "a pod is in the same namespace as an added PVC",
            MakePod.pod().name("p").namespace("ns1").pvc("pvc1").obj(),
            pvc("pvc1"),
            QueueingHint.QUEUE),
        argumentSet(
            "a pod has an ephemeral volume related to an added PVC",
            withVolumes("pod1", "ns1", "u", ephemeral("ephemeral")),
            pvc("pod1-ephemeral"),
            QueueingHint.QUEUE),
        argumentSet(
            "a pod doesn't have the same PVC as an added PVC",
            MakePod.pod().name("p").namespace("ns1").pvc("pvc1").obj(),
            pvc("pvc2"),
            QueueingHint.SKIP),
        argumentSet(
            "a pod doesn't have any PVC attached",
            MakePod.pod().name("p").namespace("ns1").obj(),
            pvc("pvc2"),
            QueueingHint.SKIP));
  }

  static V1PersistentVolumeClaim pvc(String name) {
    return new V1PersistentVolumeClaim().metadata(new V1ObjectMeta().name(name).namespace("ns1"));
  }

  @ParameterizedTest
  @MethodSource("claimAddedHints")
  void isSchedulableAfterClaimAdded(V1Pod pod, V1PersistentVolumeClaim added, QueueingHint want) {
    assertThat(NodeVolumeLimits.isSchedulableAfterClaimAdded(pod, null, added)).isEqualTo(want);
  }
}
