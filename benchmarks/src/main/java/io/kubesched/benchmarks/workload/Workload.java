package io.kubesched.benchmarks.workload;

import io.kubesched.benchmarks.workload.Templates.NodeLabels;
import io.kubesched.benchmarks.workload.Templates.PodKind;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One scheduler_perf workload: {@code nodes} nodes, {@code initPods} pods scheduled before the
 * measurement (by the scheduler, as upstream's {@code createPods} op does, waiting until they are
 * bound), then {@code measuredPods} pods whose scheduling is measured.
 *
 * @param name the upstream name, e.g. {@code SchedulingBasic/5000Nodes_10000Pods}
 * @param nodes the number of {@code node-default.yaml} nodes
 * @param nodeLabels how the nodes are labelled
 * @param daemonsetNode whether {@code node-with-name.yaml}'s node is created first
 * @param initPods the number of initial pods
 * @param initKind the initial pods' template
 * @param initNamespace the initial pods' namespace
 * @param measuredPods the number of measured pods
 * @param measuredKind the measured pods' template
 * @param measuredNamespace the measured pods' namespace
 * @param churnKind the template of pods created every {@code churnInterval} while measuring (a
 *     {@code churn} op in create mode), or {@code null}
 * @param churnInterval the churn interval
 * @param expectChurnUnschedulable whether churn pods must stay unscheduled (they fit no node)
 * @param setup the objects besides nodes and pods: each pod's pre-bound PV and PVC, CSINodes, or
 *     the DRA driver's ResourceSlices, DeviceClass and claims ({@link Setup#NONE} for none)
 * @param devicesPerNode the devices each DRA node's ResourceSlice publishes (upstream's {@code
 *     maxClaimsPerNode}); 0 without DRA
 * @param steadyState how the measured pods are created in upstream's steady-state mode, or {@code
 *     null} to create them all at once
 */
public record Workload(
    String name,
    int nodes,
    NodeLabels nodeLabels,
    boolean daemonsetNode,
    int initPods,
    PodKind initKind,
    String initNamespace,
    int measuredPods,
    PodKind measuredKind,
    String measuredNamespace,
    PodKind churnKind,
    Duration churnInterval,
    boolean expectChurnUnschedulable,
    Setup setup,
    int devicesPerNode,
    SteadyState steadyState) {

  /**
   * Upstream's {@code createPods} with {@code steadyState: true}: {@code measuredPods} pods are
   * created, and each time all of them are bound they are deleted (with the claims made for them,
   * as the resourceclaim controller does) and as many new ones created, until {@code duration} has
   * passed; the throughput is the pods bound within it. Before that, {@code fill} decides how many
   * devices stand allocated to claims of no pod (upstream's {@code initClaims} ResourceClaims in
   * namespace {@code init}, allocated by {@code allocResourceClaims} on nodes picked at random).
   *
   * @param fill how many devices are taken before the measurement
   * @param duration how long pods are created
   */
  public record SteadyState(Fill fill, Duration duration) {
    /** Checks the values. */
    public SteadyState {
      Objects.requireNonNull(fill, "fill");
      if (duration == null || duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException("steady state duration must be positive");
      }
    }
  }

  /** The devices taken before a steady-state measurement, as upstream's workload names say. */
  public enum Fill {
    /** None ({@code empty_*}: initClaims 0). */
    EMPTY,
    /** Half of them ({@code half_*}: initClaims 2500 of 5000). */
    HALF,
    /**
     * All but one batch of pods' worth ({@code full_*}: initClaims 4990 of 5000, so that exactly
     * one batch of ten pods fits).
     */
    FULL;

    /** The number of claims allocated before the measurement, of {@code devices} devices. */
    public int initClaims(int devices, int batch) {
      return switch (this) {
        case EMPTY -> 0;
        case HALF -> devices / 2;
        case FULL -> Math.max(0, devices - batch);
      };
    }
  }

  /** Checks the sizes and names. */
  public Workload {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(setup, "setup");
    if (nodes < 0 || initPods < 0 || measuredPods < 1 || devicesPerNode < 0) {
      throw new IllegalArgumentException(
          name + ": nodes, initPods and devicesPerNode must be >= 0 and measuredPods >= 1");
    }
    if (steadyState != null && setup != Setup.DRA_CLAIM_TEMPLATE) {
      throw new IllegalArgumentException(name + ": steady state needs the DRA claim template");
    }
  }

  /** A workload without extra objects ({@link Setup#NONE}). */
  public Workload(
      String name,
      int nodes,
      NodeLabels nodeLabels,
      boolean daemonsetNode,
      int initPods,
      PodKind initKind,
      String initNamespace,
      int measuredPods,
      PodKind measuredKind,
      String measuredNamespace,
      PodKind churnKind,
      Duration churnInterval,
      boolean expectChurnUnschedulable) {
    this(
        name,
        nodes,
        nodeLabels,
        daemonsetNode,
        initPods,
        initKind,
        initNamespace,
        measuredPods,
        measuredKind,
        measuredNamespace,
        churnKind,
        churnInterval,
        expectChurnUnschedulable,
        Setup.NONE,
        0,
        null);
  }

  /**
   * The objects a workload creates besides nodes and pods, as upstream's {@code createPods} op with
   * {@code persistentVolumeTemplatePath}/{@code persistentVolumeClaimTemplatePath}, its {@code
   * nodeAllocatableStrategy}, and the DRA ops ({@code createResourceDriver}, {@code createAny} of
   * the DeviceClass, ResourceClaimTemplate and ResourceClaims).
   */
  public enum Setup {
    /** Nothing besides nodes and pods. */
    NONE,
    /** Each pod gets its own PVC bound to its own PV from {@code pv-aws.yaml}. */
    IN_TREE_PVS,
    /**
     * As {@link #IN_TREE_PVS}, and every node has a CSINode with driver {@code ebs.csi.aws.com}
     * (allocatable count 39) and {@code kubernetes.io/aws-ebs} in its migrated-plugins annotation.
     */
    MIGRATED_IN_TREE_PVS,
    /**
     * Each pod gets its own PVC bound to its own PV from {@code pv-csi.yaml}; CSINodes as above.
     */
    CSI_PVS,
    /**
     * DRA nodes each publishing {@code devicesPerNode} devices; each pod gets a claim from the
     * namespace's ResourceClaimTemplate {@code test-claim-template}.
     */
    DRA_CLAIM_TEMPLATE,
    /**
     * DRA nodes as above; pod {@code i} uses ResourceClaim {@code test-claim-<i/5>} (five pods
     * share a claim), the claims created before the pods.
     */
    DRA_SHARED_CLAIMS;

    /** Returns whether this setup needs the {@code DynamicResourceAllocation} gate. */
    public boolean dra() {
      return this == DRA_CLAIM_TEMPLATE || this == DRA_SHARED_CLAIMS;
    }

    /** Returns whether each pod has its own pre-bound PV and PVC. */
    public boolean volumes() {
      return this == IN_TREE_PVS || this == MIGRATED_IN_TREE_PVS || this == CSI_PVS;
    }
  }

  /** Returns a plain workload without churn. */
  static Workload of(
      String name,
      int nodes,
      NodeLabels labels,
      int initPods,
      PodKind initKind,
      String initNs,
      int measuredPods,
      PodKind measuredKind,
      String measuredNs) {
    return new Workload(
        name,
        nodes,
        labels,
        false,
        initPods,
        initKind,
        initNs,
        measuredPods,
        measuredKind,
        measuredNs,
        null,
        null,
        false);
  }

  /** Returns this workload with other sizes (a negative value keeps the current one). */
  public Workload withSizes(int nodes, int initPods, int measuredPods) {
    return with(
        nodes < 0 ? this.nodes : nodes,
        initPods < 0 ? this.initPods : initPods,
        measuredPods < 0 ? this.measuredPods : measuredPods,
        steadyState);
  }

  /** Returns this steady-state workload creating pods for {@code duration} (others unchanged). */
  public Workload withSteadyStateDuration(Duration duration) {
    return steadyState == null
        ? this
        : with(nodes, initPods, measuredPods, new SteadyState(steadyState.fill(), duration));
  }

  private Workload with(int nodes, int initPods, int measuredPods, SteadyState steadyState) {
    return new Workload(
        name,
        nodes,
        nodeLabels,
        daemonsetNode,
        initPods,
        initKind,
        initNamespace,
        measuredPods,
        measuredKind,
        measuredNamespace,
        churnKind,
        churnInterval,
        expectChurnUnschedulable,
        setup,
        devicesPerNode,
        steadyState);
  }

  /** Returns the total number of nodes (with the daemonset node). */
  public int totalNodes() {
    return nodes + (daemonsetNode ? 1 : 0);
  }

  /** The workloads of benchmarks.md, with upstream's names, sizes and templates. */
  public static List<Workload> catalog() {
    return List.of(
        of(
            "SchedulingBasic/5000Nodes_10000Pods",
            5000,
            NodeLabels.NONE,
            1000,
            PodKind.DEFAULT,
            "default",
            10000,
            PodKind.DEFAULT,
            "default"),
        of(
            "SchedulingBasic/5000Nodes_50000Pods",
            5000,
            NodeLabels.NONE,
            5000,
            PodKind.DEFAULT,
            "default",
            50000,
            PodKind.DEFAULT,
            "default"),
        of(
            "SchedulingNodeAffinity/5000Nodes_10000Pods",
            5000,
            NodeLabels.ZONE1,
            5000,
            PodKind.NODE_AFFINITY,
            "default",
            10000,
            PodKind.NODE_AFFINITY,
            "default"),
        of(
            "TopologySpreading/5000Nodes_5000Pods",
            5000,
            NodeLabels.MOONS,
            5000,
            PodKind.DEFAULT,
            "default",
            5000,
            PodKind.TOPOLOGY_SPREADING,
            "default"),
        of(
            "PreferredTopologySpreading/5000Nodes_5000Pods",
            5000,
            NodeLabels.MOONS,
            5000,
            PodKind.DEFAULT,
            "default",
            5000,
            PodKind.PREFERRED_TOPOLOGY_SPREADING,
            "default"),
        of(
            "SchedulingPodAntiAffinity/5000Nodes_2000Pods",
            5000,
            NodeLabels.NONE,
            1000,
            PodKind.POD_ANTI_AFFINITY,
            "sched-0",
            2000,
            PodKind.POD_ANTI_AFFINITY,
            "sched-1"),
        of(
            "SchedulingPodAffinity/5000Nodes_5000Pods",
            5000,
            NodeLabels.ZONE1,
            5000,
            PodKind.POD_AFFINITY,
            "sched-0",
            5000,
            PodKind.POD_AFFINITY,
            "sched-1"),
        of(
            "SchedulingPreferredPodAffinity/5000Nodes_5000Pods",
            5000,
            NodeLabels.NONE,
            5000,
            PodKind.PREFERRED_POD_AFFINITY,
            "sched-0",
            5000,
            PodKind.PREFERRED_POD_AFFINITY,
            "sched-1"),
        of(
            "PreemptionBasic/1000Nodes",
            1000,
            NodeLabels.NONE,
            4000,
            PodKind.LOW_PRIORITY,
            "default",
            1000,
            PodKind.HIGH_PRIORITY,
            "default"),
        new Workload(
            "Unschedulable/5kNodes/20kInit/10kPods",
            5000,
            NodeLabels.NONE,
            false,
            20000,
            PodKind.DEFAULT,
            "default",
            10000,
            PodKind.DEFAULT,
            "default",
            PodKind.HIGH_PRIORITY_LARGE_CPU,
            Duration.ofMillis(200),
            true),
        new Workload(
            "SchedulingDaemonset/15000Nodes",
            15000,
            NodeLabels.NONE,
            true,
            0,
            PodKind.DEFAULT,
            "default",
            30000,
            PodKind.DAEMONSET,
            "default",
            null,
            null,
            false),
        // volumes/performance-config.yaml: the pod template is pod-default.yaml; createPods puts
        // each op's pods in namespace-<op index>.
        volumes("SchedulingInTreePVs/5000Nodes_2000Pods", Setup.IN_TREE_PVS, 5000, 1000, 2000),
        volumes(
            "SchedulingMigratedInTreePVs/5000Nodes_5000Pods",
            Setup.MIGRATED_IN_TREE_PVS,
            5000,
            5000,
            5000),
        volumes("SchedulingCSIPVs/5000Nodes_5000Pods", Setup.CSI_PVS, 5000, 5000, 5000),
        // dra/performance-config.yaml: nodesWithDRA nodes, nodesWithoutDRA 0.
        dra(
            "SchedulingWithResourceClaimTemplate/5000pods_500nodes",
            Setup.DRA_CLAIM_TEMPLATE,
            500,
            2500,
            2500,
            10),
        dra(
            "SchedulingWithResourceClaim/5000pods_500nodes",
            Setup.DRA_SHARED_CLAIMS,
            500,
            2500,
            2500,
            2),
        steadyState("SteadyStateClusterResourceClaimTemplate/empty_500nodes", Fill.EMPTY),
        steadyState("SteadyStateClusterResourceClaimTemplate/half_500nodes", Fill.HALF),
        steadyState("SteadyStateClusterResourceClaimTemplate/full_500nodes", Fill.FULL));
  }

  private static Workload volumes(
      String name, Setup setup, int nodes, int initPods, int measuredPods) {
    return new Workload(
        name,
        nodes,
        NodeLabels.NONE,
        false,
        initPods,
        PodKind.DEFAULT,
        "namespace-1",
        measuredPods,
        PodKind.DEFAULT,
        "namespace-2",
        null,
        null,
        false,
        setup,
        0,
        null);
  }

  private static Workload dra(
      String name, Setup setup, int nodes, int initPods, int measuredPods, int devicesPerNode) {
    return new Workload(
        name,
        nodes,
        NodeLabels.NONE,
        false,
        initPods,
        PodKind.DRA,
        "init",
        measuredPods,
        PodKind.DRA,
        "test",
        null,
        null,
        false,
        setup,
        devicesPerNode,
        null);
  }

  /**
   * {@code SteadyStateClusterResourceClaimTemplate}: 500 DRA nodes of 10 devices, batches of 10
   * pods with a claim from the template, for 10 seconds.
   */
  private static Workload steadyState(String name, Fill fill) {
    return new Workload(
        name,
        500,
        NodeLabels.NONE,
        false,
        0,
        PodKind.DRA,
        "init",
        10,
        PodKind.DRA,
        "test",
        null,
        null,
        false,
        Setup.DRA_CLAIM_TEMPLATE,
        10,
        new SteadyState(fill, Duration.ofSeconds(10)));
  }
}
