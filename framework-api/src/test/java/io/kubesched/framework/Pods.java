package io.kubesched.framework;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimVolumeSource;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodAntiAffinity;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Volume;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A minimal pod builder for framework-api's own tests (framework-testing's MakePod depends on this
 * module, so it cannot be used here).
 */
final class Pods {
  private final V1Pod pod;

  private Pods(String name) {
    pod =
        new V1Pod()
            .metadata(new V1ObjectMeta().name(name).namespace("default").uid("uid-" + name))
            .spec(new V1PodSpec());
  }

  static Pods pod(String name) {
    return new Pods(name);
  }

  static Map<String, Quantity> list(String... pairs) {
    Map<String, Quantity> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], Quantity.fromString(pairs[i + 1]));
    }
    return m;
  }

  static V1Container container(String name, String... requestPairs) {
    V1Container c = new V1Container().name(name);
    if (requestPairs.length > 0) {
      c.setResources(new V1ResourceRequirements().requests(list(requestPairs)));
    }
    return c;
  }

  Pods req(String... pairs) {
    pod.getSpec().addContainersItem(container("c" + pod.getSpec().getContainers().size(), pairs));
    return this;
  }

  Pods init(String... pairs) {
    pod.getSpec().addInitContainersItem(container("i" + size(), pairs));
    return this;
  }

  Pods sidecar(String... pairs) {
    pod.getSpec().addInitContainersItem(container("s" + size(), pairs).restartPolicy("Always"));
    return this;
  }

  private int size() {
    return pod.getSpec().getInitContainers() == null ? 0 : pod.getSpec().getInitContainers().size();
  }

  Pods overhead(String... pairs) {
    pod.getSpec().setOverhead(list(pairs));
    return this;
  }

  /** Adds a host port to the last container, adding a container when there is none. */
  Pods hostPort(String ip, String protocol, int port) {
    java.util.List<V1Container> cs = pod.getSpec().getContainers();
    if (cs.isEmpty()) {
      pod.getSpec().addContainersItem(new V1Container().name("c0"));
    }
    cs.get(cs.size() - 1)
        .addPortsItem(
            new V1ContainerPort().containerPort(port).hostPort(port).hostIP(ip).protocol(protocol));
    return this;
  }

  Pods sidecarHostPort(int port) {
    pod.getSpec()
        .addInitContainersItem(
            new V1Container()
                .name("sp" + size())
                .restartPolicy("Always")
                .addPortsItem(new V1ContainerPort().containerPort(port).hostPort(port)));
    return this;
  }

  Pods initHostPort(int port) {
    pod.getSpec()
        .addInitContainersItem(
            new V1Container()
                .name("ip" + size())
                .addPortsItem(new V1ContainerPort().containerPort(port).hostPort(port)));
    return this;
  }

  Pods pvc(String claim) {
    pod.getSpec()
        .addVolumesItem(
            new V1Volume()
                .name(claim)
                .persistentVolumeClaim(new V1PersistentVolumeClaimVolumeSource().claimName(claim)));
    return this;
  }

  Pods podAffinity() {
    affinity()
        .podAffinity(
            new V1PodAffinity()
                .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                    new io.kubernetes.client.openapi.models.V1WeightedPodAffinityTerm()
                        .weight(1)
                        .podAffinityTerm(term())));
    return this;
  }

  Pods requiredAntiAffinity() {
    affinity()
        .podAntiAffinity(
            new V1PodAntiAffinity().addRequiredDuringSchedulingIgnoredDuringExecutionItem(term()));
    return this;
  }

  private static V1PodAffinityTerm term() {
    return new V1PodAffinityTerm()
        .topologyKey("zone")
        .labelSelector(new V1LabelSelector().putMatchLabelsItem("app", "x"));
  }

  private V1Affinity affinity() {
    if (pod.getSpec().getAffinity() == null) {
      pod.getSpec().setAffinity(new V1Affinity());
    }
    return pod.getSpec().getAffinity();
  }

  V1Pod obj() {
    return pod;
  }

  PodInfo info() {
    return PodInfo.of(pod);
  }
}
