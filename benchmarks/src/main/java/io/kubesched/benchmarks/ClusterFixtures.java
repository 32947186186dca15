package io.kubesched.benchmarks;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The nodes and pods of the scheduler_perf workloads: nodes like upstream's {@code
 * node-default.yaml} (4 CPU, 32 GiB, 110 pods) labelled with hostname and one of three zones, and
 * pods like {@code pod-default.yaml} (one container requesting 100m CPU and 500 MiB).
 */
public final class ClusterFixtures {
  /** The number of zones the nodes are spread over. */
  public static final int ZONES = 3;

  private ClusterFixtures() {}

  /**
   * Returns node {@code i}: 4 CPU, 32 GiB, 110 pods as upstream's default node template, with
   * hostname, zone and region labels.
   */
  public static V1Node node(int i) {
    String name = String.format("node-%05d", i);
    return new V1Node()
        .apiVersion("v1")
        .kind("Node")
        .metadata(
            new V1ObjectMeta()
                .name(name)
                .uid("uid-" + name)
                .labels(
                    Map.of(
                        "kubernetes.io/hostname",
                        name,
                        "topology.kubernetes.io/zone",
                        "zone-" + (i % ZONES),
                        "topology.kubernetes.io/region",
                        "region-1")))
        .status(
            new V1NodeStatus()
                .capacity(resources("4", "32Gi", "110"))
                .allocatable(resources("4", "32Gi", "110")));
  }

  private static Map<String, Quantity> resources(String cpu, String mem, String pods) {
    return Map.of(
        "cpu", Quantity.fromString(cpu),
        "memory", Quantity.fromString(mem),
        "pods", Quantity.fromString(pods));
  }

  /** Returns {@code n} nodes. */
  public static List<V1Node> nodes(int n) {
    List<V1Node> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(node(i));
    }
    return out;
  }

  /** Returns a pod like upstream's {@code pod-default.yaml}: 100m CPU and 500 MiB requested. */
  public static V1Pod pod(String namespace, String name) {
    return new V1Pod()
        .apiVersion("v1")
        .kind("Pod")
        .metadata(
            new V1ObjectMeta()
                .namespace(namespace)
                .name(name)
                .uid(namespace + "-" + name)
                .labels(Map.of("app", "bench")))
        .spec(
            new V1PodSpec()
                .addContainersItem(
                    new V1Container()
                        .name("pause")
                        .image("registry.k8s.io/pause:3.10")
                        .resources(
                            new V1ResourceRequirements()
                                .requests(
                                    Map.of(
                                        "cpu", Quantity.fromString("100m"),
                                        "memory", Quantity.fromString("500Mi"))))));
  }
}
