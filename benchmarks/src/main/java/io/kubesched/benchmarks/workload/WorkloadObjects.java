package io.kubesched.benchmarks.workload;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AWSElasticBlockStoreVolumeSource;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1CELDeviceSelector;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSINodeDriver;
import io.kubernetes.client.openapi.models.V1CSINodeSpec;
import io.kubernetes.client.openapi.models.V1CSIPersistentVolumeSource;
import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1DeviceAllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceAttribute;
import io.kubernetes.client.openapi.models.V1DeviceCapacity;
import io.kubernetes.client.openapi.models.V1DeviceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1DeviceClassSpec;
import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceRequestAllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceSelector;
import io.kubernetes.client.openapi.models.V1ExactDeviceRequest;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimStatus;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimVolumeSource;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeStatus;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodResourceClaim;
import io.kubernetes.client.openapi.models.V1PodResourceClaimStatus;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1ResourceClaimSpec;
import io.kubernetes.client.openapi.models.V1ResourceClaimStatus;
import io.kubernetes.client.openapi.models.V1ResourceClaimTemplate;
import io.kubernetes.client.openapi.models.V1ResourceClaimTemplateSpec;
import io.kubernetes.client.openapi.models.V1ResourcePool;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1ResourceSliceSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeNodeResources;
import io.kubernetes.client.openapi.models.V1VolumeResourceRequirements;
import io.kubesched.benchmarks.workload.Workload.Setup;
import io.kubesched.core.cluster.InMemoryCluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Creates a workload's nodes and the objects of its {@link Setup}, built as upstream scheduler_perf
 * builds them (templates {@code pv-aws.yaml}, {@code pv-csi.yaml}, {@code pvc.yaml}, {@code
 * node-with-dra-test-driver.yaml}, {@code deviceclass.yaml}, {@code resourceclaimtemplate.yaml},
 * {@code resourceclaim.yaml}, and the ops {@code createPods} with a PV template, {@code
 * nodeAllocatableStrategy} and {@code createResourceDriver}).
 *
 * <p>Two simplifications, both outside the scheduler: a pod's template claim is created with the
 * pod (the resourceclaim controller creates it right after; the scheduler waits for it either way),
 * and is named {@code <pod>-resource} (the controller adds a random suffix).
 */
final class WorkloadObjects {
  /** The pod-level claim name of the DRA pod templates. */
  static final String POD_CLAIM = "resource";

  /** The DRA test driver. */
  static final String DRA_DRIVER = "test-driver.cdi.k8s.io";

  /** The CSI driver of the volume workloads. */
  static final String EBS_DRIVER = "ebs.csi.aws.com";

  /** The attach limit the volume workloads' CSINodes and node allocatable give. */
  static final int EBS_LIMIT = 39;

  /** kube's {@code v1.MigratedPluginsAnnotationKey}. */
  static final String MIGRATED_PLUGINS = "storage.alpha.kubernetes.io/migrated-plugins";

  /** The five pods per shared claim of {@code pod-with-claim-ref.yaml}. */
  static final int PODS_PER_SHARED_CLAIM = 5;

  private static final String DEVICE_CLASS = "test-class";
  private static final String CLAIM_TEMPLATE = "test-claim-template";

  private WorkloadObjects() {}

  /** Returns node {@code i}'s name: {@code scheduler-perf-dra-<i>} for DRA nodes. */
  static String nodeName(Workload w, int i) {
    return w.setup().dra()
        ? "scheduler-perf-dra-" + i
        : Templates.node(i, w.nodeLabels()).getMetadata().getName();
  }

  /**
   * Creates the workload's nodes, with their CSINodes (volume workloads with a CSI driver) or
   * ResourceSlices and the DeviceClass (DRA workloads).
   */
  static void createNodes(InMemoryCluster cluster, Workload w) {
    if (w.daemonsetNode()) {
      cluster.addNode(Templates.daemonsetNode());
    }
    Setup s = w.setup();
    boolean csiNodes = s == Setup.MIGRATED_IN_TREE_PVS || s == Setup.CSI_PVS;
    if (s.dra()) {
      cluster.create(deviceClass());
    }
    for (int i = 0; i < w.nodes(); i++) {
      if (s.dra()) {
        String name = nodeName(w, i);
        cluster.addNode(Templates.node(name, Map.of(Templates.HOSTNAME, name), "110"));
        cluster.create(resourceSlice(name, w.devicesPerNode()));
        continue;
      }
      V1Node n = Templates.node(i, w.nodeLabels());
      if (csiNodes) {
        // nodeAllocatableStrategy: allocatable gets the attach limit, and a CSINode is created
        Map<String, Quantity> alloc = new HashMap<>(n.getStatus().getAllocatable());
        alloc.put(
            "attachable-volumes-csi-" + EBS_DRIVER, Quantity.fromString(String.valueOf(EBS_LIMIT)));
        n.getStatus().setAllocatable(alloc);
        cluster.addNode(n);
        cluster.create(csiNode(n.getMetadata().getName(), s == Setup.MIGRATED_IN_TREE_PVS));
      } else {
        cluster.addNode(n);
      }
    }
  }

  /**
   * Creates what the pods of {@code namespace} need before they are created: the namespace, and the
   * ResourceClaimTemplate or the shared ResourceClaims ({@code ceil(pods / 5)}) of a DRA workload.
   */
  static void prepareNamespace(InMemoryCluster cluster, Workload w, String namespace, int pods) {
    if (!"default".equals(namespace) && cluster.get(V1Namespace.class, null, namespace).isEmpty()) {
      cluster.create(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)));
    }
    switch (w.setup()) {
      case DRA_CLAIM_TEMPLATE ->
          cluster.create(
              new V1ResourceClaimTemplate()
                  .apiVersion("resource.k8s.io/v1")
                  .kind("ResourceClaimTemplate")
                  .metadata(new V1ObjectMeta().name(CLAIM_TEMPLATE).namespace(namespace))
                  .spec(new V1ResourceClaimTemplateSpec().spec(claimSpec())));
      case DRA_SHARED_CLAIMS -> {
        int claims = (pods + PODS_PER_SHARED_CLAIM - 1) / PODS_PER_SHARED_CLAIM;
        for (int i = 0; i < claims; i++) {
          cluster.create(numberedClaim(namespace, i));
        }
      }
      default -> {}
    }
  }

  /**
   * Creates pod number {@code index} of its namespace with its own objects first: its PVC and PV
   * (upstream's order: PVC, PV, pod), or its claim from the template; a shared-claim pod refers to
   * {@code test-claim-<index/5>}.
   */
  static void addPod(InMemoryCluster cluster, Workload w, V1Pod pod, int index) {
    String ns = pod.getMetadata().getNamespace();
    Setup s = w.setup();
    if (s.volumes()) {
      String pvcName = "pvc-" + index;
      String pvName = ns + "-vol-" + index;
      cluster.create(pvc(ns, pvcName, pvName));
      cluster.create(pv(s, pvName, "vol-" + index, ns, pvcName));
      pod.getSpec()
          .addVolumesItem(
              new V1Volume()
                  .name("vol")
                  .persistentVolumeClaim(
                      new V1PersistentVolumeClaimVolumeSource().claimName(pvcName)));
    } else if (s == Setup.DRA_SHARED_CLAIMS) {
      pod.getSpec()
          .addResourceClaimsItem(
              new V1PodResourceClaim()
                  .name(POD_CLAIM)
                  .resourceClaimName("test-claim-" + index / PODS_PER_SHARED_CLAIM));
    } else if (s == Setup.DRA_CLAIM_TEMPLATE) {
      pod.getSpec()
          .addResourceClaimsItem(
              new V1PodResourceClaim().name(POD_CLAIM).resourceClaimTemplateName(CLAIM_TEMPLATE));
      String claimName = pod.getMetadata().getName() + "-" + POD_CLAIM;
      cluster.create(
          new ResourceV1ResourceClaim()
              .apiVersion("resource.k8s.io/v1")
              .kind("ResourceClaim")
              .metadata(
                  new V1ObjectMeta()
                      .name(claimName)
                      .namespace(ns)
                      .uid(ns + "-" + claimName)
                      .putAnnotationsItem("resource.kubernetes.io/pod-claim-name", POD_CLAIM)
                      .addOwnerReferencesItem(
                          new V1OwnerReference()
                              .apiVersion("v1")
                              .kind("Pod")
                              .name(pod.getMetadata().getName())
                              .uid(pod.getMetadata().getUid())
                              .controller(true)
                              .blockOwnerDeletion(true)))
              .spec(claimSpec()));
      pod.status(
          new V1PodStatus()
              .addResourceClaimStatusesItem(
                  new V1PodResourceClaimStatus().name(POD_CLAIM).resourceClaimName(claimName)));
    }
    cluster.addPod(pod);
  }

  /**
   * Upstream's {@code createAny} of {@code count} {@code resourceclaim.yaml} claims ({@code
   * test-claim-<i>}) in {@code namespace} followed by {@code allocResourceClaims}: each claim is
   * allocated one free device of a node picked at random among those with one left (upstream's
   * allocator takes the node's first free device), with the node selector kube's allocator writes,
   * and reserved for nobody.
   */
  static void createAllocatedClaims(
      InMemoryCluster cluster, Workload w, String namespace, int count, Random random) {
    if (cluster.get(V1Namespace.class, null, namespace).isEmpty()) {
      cluster.create(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)));
    }
    int[] used = new int[w.nodes()];
    List<Integer> withRoom = new ArrayList<>();
    for (int i = 0; i < w.nodes(); i++) {
      if (w.devicesPerNode() > 0) {
        withRoom.add(i);
      }
    }
    for (int c = 0; c < count; c++) {
      if (withRoom.isEmpty()) {
        throw new IllegalStateException(
            "could not allocate claim " + c + " out of " + count + ": no device left");
      }
      int pick = random.nextInt(withRoom.size());
      int node = withRoom.get(pick);
      String nodeName = nodeName(w, node);
      int device = used[node]++;
      if (used[node] == w.devicesPerNode()) {
        withRoom.set(pick, withRoom.get(withRoom.size() - 1));
        withRoom.remove(withRoom.size() - 1);
      }
      ResourceV1ResourceClaim claim = cluster.create(numberedClaim(namespace, c));
      claim.status(
          new V1ResourceClaimStatus()
              .allocation(
                  new V1AllocationResult()
                      .devices(
                          new V1DeviceAllocationResult()
                              .addResultsItem(
                                  new V1DeviceRequestAllocationResult()
                                      .request("req-0")
                                      .driver(DRA_DRIVER)
                                      .pool(nodeName)
                                      .device("instance-" + device)))
                      .nodeSelector(
                          new V1NodeSelector()
                              .addNodeSelectorTermsItem(
                                  new V1NodeSelectorTerm()
                                      .addMatchFieldsItem(
                                          new V1NodeSelectorRequirement()
                                              .key("metadata.name")
                                              .operator("In")
                                              .addValuesItem(nodeName))))));
      cluster.updateResourceClaimStatus(claim);
    }
  }

  /**
   * Deletes {@code pod} and the claims made for it from a template (named in its {@code
   * status.resourceClaimStatuses}), as the resourceclaim controller deletes a deleted pod's claims.
   */
  static void deletePodAndClaims(InMemoryCluster cluster, V1Pod pod) {
    cluster.deletePod(pod);
    if (pod.getStatus() == null || pod.getStatus().getResourceClaimStatuses() == null) {
      return;
    }
    for (V1PodResourceClaimStatus s : pod.getStatus().getResourceClaimStatuses()) {
      if (s.getResourceClaimName() != null) {
        cluster.delete(
            ResourceV1ResourceClaim.class,
            pod.getMetadata().getNamespace(),
            s.getResourceClaimName());
      }
    }
  }

  /** {@code resourceclaim.yaml}'s claim number {@code i}: {@code test-claim-<i>}. */
  private static ResourceV1ResourceClaim numberedClaim(String namespace, int i) {
    return new ResourceV1ResourceClaim()
        .apiVersion("resource.k8s.io/v1")
        .kind("ResourceClaim")
        .metadata(
            new V1ObjectMeta()
                .name("test-claim-" + i)
                .namespace(namespace)
                .uid(namespace + "-test-claim-" + i))
        .spec(claimSpec());
  }

  /** {@code deviceclass.yaml}. */
  private static V1DeviceClass deviceClass() {
    return new V1DeviceClass()
        .apiVersion("resource.k8s.io/v1")
        .kind("DeviceClass")
        .metadata(new V1ObjectMeta().name(DEVICE_CLASS))
        .spec(
            new V1DeviceClassSpec()
                .addSelectorsItem(
                    new V1DeviceSelector()
                        .cel(
                            new V1CELDeviceSelector()
                                .expression("device.driver == \"" + DRA_DRIVER + "\""))));
  }

  /** The claim spec of {@code resourceclaimtemplate.yaml} and {@code resourceclaim.yaml}. */
  private static V1ResourceClaimSpec claimSpec() {
    return new V1ResourceClaimSpec()
        .devices(
            new V1DeviceClaim()
                .addRequestsItem(
                    new V1DeviceRequest()
                        .name("req-0")
                        .exactly(new V1ExactDeviceRequest().deviceClassName(DEVICE_CLASS))));
  }

  /**
   * {@code createResourceDriver}'s slice for one node: pool and slice named after the node, {@code
   * devices} devices {@code instance-<i>} with upstream's attributes and capacity (the binding
   * condition fields are left out, as the API server drops them with their gate off).
   */
  private static V1ResourceSlice resourceSlice(String node, int devices) {
    V1ResourceSliceSpec spec =
        new V1ResourceSliceSpec()
            .driver(DRA_DRIVER)
            .nodeName(node)
            .pool(new V1ResourcePool().name(node).generation(0L).resourceSliceCount(1L));
    for (int i = 0; i < devices; i++) {
      spec.addDevicesItem(
          new V1Device()
              .name("instance-" + i)
              .attributes(
                  Map.of(
                      "model", new V1DeviceAttribute().string("A100"),
                      "family", new V1DeviceAttribute().string("GPU"),
                      "driverVersion", new V1DeviceAttribute().version("1.2.3"),
                      "dra.example.com/numa", new V1DeviceAttribute()._int((long) i)))
              .capacity(
                  Map.of("memory", new V1DeviceCapacity().value(Quantity.fromString("1Gi")))));
    }
    return new V1ResourceSlice()
        .apiVersion("resource.k8s.io/v1")
        .kind("ResourceSlice")
        .metadata(new V1ObjectMeta().name(node))
        .spec(spec);
  }

  /** {@code nodeAllocatableStrategy}'s CSINode: driver ebs.csi.aws.com with count 39. */
  private static V1CSINode csiNode(String node, boolean migrated) {
    return new V1CSINode()
        .apiVersion("storage.k8s.io/v1")
        .kind("CSINode")
        .metadata(
            new V1ObjectMeta()
                .name(node)
                .putAnnotationsItem(MIGRATED_PLUGINS, migrated ? "kubernetes.io/aws-ebs" : ""))
        .spec(
            new V1CSINodeSpec()
                .addDriversItem(
                    new V1CSINodeDriver()
                        .name(EBS_DRIVER)
                        .nodeID(node)
                        .allocatable(new V1VolumeNodeResources().count(EBS_LIMIT))));
  }

  /**
   * {@code pvc.yaml}, bound to {@code pvName} as {@code CreatePodWithPersistentVolume} binds it.
   */
  private static V1PersistentVolumeClaim pvc(String ns, String name, String pvName) {
    return new V1PersistentVolumeClaim()
        .apiVersion("v1")
        .kind("PersistentVolumeClaim")
        .metadata(
            new V1ObjectMeta()
                .name(name)
                .namespace(ns)
                .uid(ns + "-" + name)
                .putAnnotationsItem("pv.kubernetes.io/bind-completed", "true"))
        .spec(
            new V1PersistentVolumeClaimSpec()
                .accessModes(List.of("ReadOnlyMany"))
                .resources(
                    new V1VolumeResourceRequirements()
                        .requests(Map.of("storage", Quantity.fromString("1Gi"))))
                .volumeName(pvName))
        .status(new V1PersistentVolumeClaimStatus().phase("Bound"));
  }

  /**
   * {@code pv-aws.yaml} (volume ID {@code vol-<i>}) or {@code pv-csi.yaml} (volume handle the PV's
   * name), named {@code <namespace>-vol-<i>} and bound to the pod's claim.
   */
  private static V1PersistentVolume pv(
      Setup s, String name, String volumeId, String ns, String pvcName) {
    V1PersistentVolumeSpec spec =
        new V1PersistentVolumeSpec()
            .accessModes(List.of("ReadOnlyMany"))
            .capacity(Map.of("storage", Quantity.fromString("1Gi")))
            .persistentVolumeReclaimPolicy("Retain")
            .claimRef(
                new V1ObjectReference()
                    .kind("PersistentVolumeClaim")
                    .namespace(ns)
                    .name(pvcName)
                    .apiVersion("v1"));
    if (s == Setup.CSI_PVS) {
      spec.csi(new V1CSIPersistentVolumeSource().driver(EBS_DRIVER).volumeHandle(name));
    } else {
      spec.awsElasticBlockStore(new V1AWSElasticBlockStoreVolumeSource().volumeID(volumeId));
    }
    return new V1PersistentVolume()
        .apiVersion("v1")
        .kind("PersistentVolume")
        .metadata(new V1ObjectMeta().name(name))
        .spec(spec)
        .status(new V1PersistentVolumeStatus().phase("Bound"));
  }
}
