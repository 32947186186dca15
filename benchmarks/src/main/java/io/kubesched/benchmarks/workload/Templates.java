package io.kubesched.benchmarks.workload;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.CoreV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodAntiAffinity;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubernetes.client.openapi.models.V1WeightedPodAffinityTerm;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The node and pod templates of upstream scheduler_perf ({@code
 * test/integration/scheduler_perf/templates/*.yaml} in kubernetes/kubernetes), rebuilt as
 * client-java objects with the same labels, requests, limits, priorities and affinities.
 */
public final class Templates {
  /** The zone label key. */
  public static final String ZONE = "topology.kubernetes.io/zone";

  /** The hostname label key. */
  public static final String HOSTNAME = "kubernetes.io/hostname";

  /** The name of {@code node-with-name.yaml}'s node, target of the daemonset pods. */
  public static final String DAEMONSET_NODE = "scheduler-perf-node";

  private static final String PAUSE = "registry.k8s.io/pause:3.10.1";

  /**
   * The quantities the templates use, parsed once. A {@link Quantity} cannot be changed, so pods
   * may share them; parsing one per pod (a regular expression split in client-java) left the JIT
   * compiling the parser while the clock ran, on the measured scheduler's cores.
   */
  private static final Map<String, Quantity> QUANTITIES =
      Map.ofEntries(
          parsed("100m"),
          parsed("900m"),
          parsed("3000m"),
          parsed("9"),
          parsed("4"),
          parsed("500Mi"),
          parsed("32Gi"),
          parsed("110"),
          parsed("90000"));

  private Templates() {}

  /** How nodes are labelled ({@code labelNodePrepareStrategy}). */
  public enum NodeLabels {
    /** No zone label. */
    NONE,
    /** Every node in zone {@code zone1}. */
    ZONE1,
    /** Nodes in zones {@code moon-1}, {@code moon-2}, {@code moon-3}, round robin. */
    MOONS
  }

  /** The pod templates of scheduler_perf. */
  public enum PodKind {
    /** {@code pod-default.yaml}: 100m CPU, 500Mi, requests = limits. */
    DEFAULT,
    /** {@code pod-with-node-affinity.yaml}: required zone In [zone1, zone2]. */
    NODE_AFFINITY,
    /** {@code pod-with-pod-affinity.yaml}: color=blue, required affinity to blue on zone. */
    POD_AFFINITY,
    /** {@code pod-with-pod-anti-affinity.yaml}: color=green, required anti-affinity on hostname. */
    POD_ANTI_AFFINITY,
    /** {@code pod-with-preferred-pod-affinity.yaml}: color=red, preferred affinity on hostname. */
    PREFERRED_POD_AFFINITY,
    /** {@code pod-with-topology-spreading.yaml}: maxSkew 5 on zone, DoNotSchedule. */
    TOPOLOGY_SPREADING,
    /** {@code pod-with-preferred-topology-spreading.yaml}: maxSkew 5 on zone, ScheduleAnyway. */
    PREFERRED_TOPOLOGY_SPREADING,
    /** {@code pod-low-priority.yaml}: 900m CPU, 500Mi, grace period 0. */
    LOW_PRIORITY,
    /** {@code pod-high-priority.yaml}: priority 10, 3000m CPU, 500Mi. */
    HIGH_PRIORITY,
    /** {@code pod-high-priority-large-cpu.yaml}: priority 10, 9 CPU (fits no node), 500Mi. */
    HIGH_PRIORITY_LARGE_CPU,
    /**
     * {@code daemonset-pod.yaml}: matchFields metadata.name In [scheduler-perf-node], no requests.
     */
    DAEMONSET,
    /**
     * {@code dra/templates/pod-with-claim-template.yaml} / {@code pod-with-claim-ref.yaml}: no
     * requests, the container uses pod claim {@code resource} (its source, a template or a claim,
     * is set by {@link WorkloadObjects}).
     */
    DRA
  }

  /**
   * Returns node {@code i} of {@code node-default.yaml}: capacity (and, as the API server defaults
   * it, allocatable) 4 CPU, 32Gi, 110 pods, Ready; labelled with its hostname and the zone the
   * strategy gives it.
   */
  public static V1Node node(int i, NodeLabels labels) {
    String name = String.format("scheduler-perf-%05d", i);
    Map<String, String> l = new HashMap<>();
    l.put(HOSTNAME, name);
    switch (labels) {
      case ZONE1 -> l.put(ZONE, "zone1");
      case MOONS -> l.put(ZONE, "moon-" + (1 + i % 3));
      case NONE -> {}
    }
    return node(name, l, "110");
  }

  /** Returns {@code node-with-name.yaml}: the node every daemonset pod targets (90000 pods). */
  public static V1Node daemonsetNode() {
    return node(DAEMONSET_NODE, Map.of(HOSTNAME, DAEMONSET_NODE), "90000");
  }

  static V1Node node(String name, Map<String, String> labels, String pods) {
    Map<String, Quantity> capacity =
        Map.of(
            "pods", quantity(pods),
            "cpu", quantity("4"),
            "memory", quantity("32Gi"));
    return new V1Node()
        .apiVersion("v1")
        .kind("Node")
        .metadata(new V1ObjectMeta().name(name).uid("node-" + name).labels(labels))
        .status(
            new V1NodeStatus()
                .capacity(capacity)
                .allocatable(capacity)
                .phase("Running")
                .conditions(List.of(new V1NodeCondition().type("Ready").status("True"))));
  }

  /** Returns pod {@code name} in {@code namespace} built from template {@code kind}. */
  public static V1Pod pod(PodKind kind, String namespace, String name) {
    V1ObjectMeta meta =
        new V1ObjectMeta().namespace(namespace).name(name).uid(namespace + "-" + name);
    V1PodSpec spec = new V1PodSpec();
    V1Container c = new V1Container().name("pause").image(PAUSE);
    switch (kind) {
      case DEFAULT -> requestsAndLimits(c, "100m");
      case NODE_AFFINITY -> {
        requestsAndLimits(c, "100m");
        spec.affinity(
            new V1Affinity()
                .nodeAffinity(
                    new V1NodeAffinity()
                        .requiredDuringSchedulingIgnoredDuringExecution(
                            new V1NodeSelector()
                                .addNodeSelectorTermsItem(
                                    new V1NodeSelectorTerm()
                                        .addMatchExpressionsItem(
                                            new V1NodeSelectorRequirement()
                                                .key(ZONE)
                                                .operator("In")
                                                .values(List.of("zone1", "zone2")))))));
      }
      case POD_AFFINITY -> {
        requestsAndLimits(c, "100m");
        meta.labels(Map.of("color", "blue"));
        spec.affinity(
            new V1Affinity()
                .podAffinity(
                    new V1PodAffinity()
                        .addRequiredDuringSchedulingIgnoredDuringExecutionItem(
                            term("blue", ZONE))));
      }
      case POD_ANTI_AFFINITY -> {
        requestsAndLimits(c, "100m");
        meta.labels(Map.of("color", "green"));
        spec.affinity(
            new V1Affinity()
                .podAntiAffinity(
                    new V1PodAntiAffinity()
                        .addRequiredDuringSchedulingIgnoredDuringExecutionItem(
                            term("green", HOSTNAME))));
      }
      case PREFERRED_POD_AFFINITY -> {
        requestsAndLimits(c, "100m");
        meta.labels(Map.of("color", "red"));
        spec.affinity(
            new V1Affinity()
                .podAffinity(
                    new V1PodAffinity()
                        .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                            new V1WeightedPodAffinityTerm()
                                .weight(1)
                                .podAffinityTerm(term("red", HOSTNAME)))));
      }
      case TOPOLOGY_SPREADING, PREFERRED_TOPOLOGY_SPREADING -> {
        requestsAndLimits(c, "100m");
        meta.labels(Map.of("color", "blue"));
        spec.addTopologySpreadConstraintsItem(
            new V1TopologySpreadConstraint()
                .maxSkew(5)
                .topologyKey(ZONE)
                .whenUnsatisfiable(
                    kind == PodKind.TOPOLOGY_SPREADING ? "DoNotSchedule" : "ScheduleAnyway")
                .labelSelector(new V1LabelSelector().matchLabels(Map.of("color", "blue"))));
      }
      case LOW_PRIORITY -> {
        requestsAndLimits(c, "900m");
        spec.terminationGracePeriodSeconds(0L);
      }
      case HIGH_PRIORITY -> {
        requestsAndLimits(c, "3000m");
        spec.priority(10);
      }
      case HIGH_PRIORITY_LARGE_CPU -> {
        c.resources(
            new V1ResourceRequirements()
                .requests(Map.of("cpu", quantity("9"), "memory", quantity("500Mi"))));
        spec.priority(10);
      }
      case DRA ->
          c.resources(
              new V1ResourceRequirements()
                  .addClaimsItem(new CoreV1ResourceClaim().name(WorkloadObjects.POD_CLAIM)));
      case DAEMONSET ->
          spec.affinity(
              new V1Affinity()
                  .nodeAffinity(
                      new V1NodeAffinity()
                          .requiredDuringSchedulingIgnoredDuringExecution(
                              new V1NodeSelector()
                                  .addNodeSelectorTermsItem(
                                      new V1NodeSelectorTerm()
                                          .addMatchFieldsItem(
                                              new V1NodeSelectorRequirement()
                                                  .key("metadata.name")
                                                  .operator("In")
                                                  .values(List.of(DAEMONSET_NODE)))))));
    }
    if (kind != PodKind.DAEMONSET && kind != PodKind.DRA) {
      c.addPortsItem(new V1ContainerPort().containerPort(80));
    }
    spec.addContainersItem(c);
    return new V1Pod().apiVersion("v1").kind("Pod").metadata(meta).spec(spec);
  }

  private static void requestsAndLimits(V1Container c, String cpu) {
    Map<String, Quantity> r = Map.of("cpu", quantity(cpu), "memory", quantity("500Mi"));
    c.resources(new V1ResourceRequirements().requests(r).limits(r));
  }

  private static Map.Entry<String, Quantity> parsed(String text) {
    return Map.entry(text, Quantity.fromString(text));
  }

  /** Returns the shared parsed {@code text}. */
  private static Quantity quantity(String text) {
    Quantity q = QUANTITIES.get(text);
    return q != null ? q : Quantity.fromString(text);
  }

  /** The affinity term of the templates: matchLabels color, both sched namespaces. */
  private static V1PodAffinityTerm term(String color, String topologyKey) {
    return new V1PodAffinityTerm()
        .labelSelector(new V1LabelSelector().matchLabels(Map.of("color", color)))
        .topologyKey(topologyKey)
        .namespaces(List.of("sched-1", "sched-0"));
  }
}
