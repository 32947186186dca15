package io.kubesched.examples.common;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.util.HashMap;
import java.util.Map;

/** Small factories for the nodes and pods of the examples, with client-java models. */
public final class Objects {
  private Objects() {}

  /** Returns a node with {@code cpu} cores, {@code memory} and room for 110 pods. */
  public static V1Node node(String name, String cpu, String memory) {
    Map<String, Quantity> res =
        Map.of(
            "cpu", Quantity.fromString(cpu),
            "memory", Quantity.fromString(memory),
            "pods", Quantity.fromString("110"));
    return new V1Node()
        .metadata(
            new V1ObjectMeta()
                .name(name)
                .labels(new HashMap<>(Map.of("kubernetes.io/hostname", name))))
        .status(new V1NodeStatus().capacity(res).allocatable(res));
  }

  /** Returns a pending pod requesting {@code cpu} and {@code memory}. */
  public static V1Pod pod(String namespace, String name, String cpu, String memory) {
    return new V1Pod()
        .metadata(
            new V1ObjectMeta()
                .namespace(namespace)
                .name(name)
                .uid(namespace + "-" + name)
                .labels(new HashMap<>()))
        .spec(
            new V1PodSpec()
                .addContainersItem(
                    new V1Container()
                        .name("main")
                        .image("app:1")
                        .resources(
                            new V1ResourceRequirements()
                                .requests(
                                    Map.of(
                                        "cpu",
                                        Quantity.fromString(cpu),
                                        "memory",
                                        Quantity.fromString(memory))))));
  }

  /** Returns the node {@code pod} is bound to in {@code sim}, or {@code null}. */
  public static String nodeOf(Simulator sim, String namespace, String name) {
    return sim.cluster().getPod(namespace, name).map(p -> p.getSpec().getNodeName()).orElse(null);
  }
}
