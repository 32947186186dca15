package io.kubesched.core;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Minimal pod and node fixtures for framework-core tests (framework-testing depends on
 * framework-core, so its builders cannot be used here).
 */
public final class TestObjects {
  private TestObjects() {}

  /** A pod {@code default/<name>} with uid {@code default/<name>} and no containers. */
  public static V1Pod pod(String name) {
    return new V1Pod()
        .metadata(new V1ObjectMeta().name(name).namespace("default").uid("default/" + name))
        .spec(new V1PodSpec());
  }

  /** A pod with one container requesting {@code cpu} and {@code memory} (quantities). */
  public static V1Pod pod(String name, String cpu, String memory) {
    Map<String, Quantity> req = new LinkedHashMap<>();
    if (cpu != null) {
      req.put("cpu", Quantity.fromString(cpu));
    }
    if (memory != null) {
      req.put("memory", Quantity.fromString(memory));
    }
    V1Pod pod = pod(name);
    pod.getSpec()
        .addContainersItem(
            new V1Container()
                .name("c")
                .image("img")
                .resources(new V1ResourceRequirements().requests(req)));
    return pod;
  }

  /** A node with capacity = allocatable of {@code cpu}, {@code memory} and 110 pods. */
  public static V1Node node(String name, String cpu, String memory) {
    Map<String, Quantity> cap = new LinkedHashMap<>();
    cap.put("cpu", Quantity.fromString(cpu));
    cap.put("memory", Quantity.fromString(memory));
    cap.put("pods", Quantity.fromString("110"));
    return new V1Node()
        .metadata(new V1ObjectMeta().name(name))
        .status(new V1NodeStatus().capacity(cap).allocatable(new LinkedHashMap<>(cap)));
  }

  /** A node without resources. */
  public static V1Node node(String name) {
    return new V1Node().metadata(new V1ObjectMeta().name(name));
  }
}
