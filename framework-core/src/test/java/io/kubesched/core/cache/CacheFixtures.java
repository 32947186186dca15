package io.kubesched.core.cache;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerImage;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimVolumeSource;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodAntiAffinity;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Volume;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Small builders for cache tests (framework-testing depends on core, so it cannot be used here).
 */
final class CacheFixtures {
  private CacheFixtures() {}

  /** A clock the test moves by hand. */
  static final class TestClock extends Clock {
    private Instant now;

    TestClock(Instant now) {
      this.now = now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  /** Node builder. */
  static final class NodeBuilder {
    private final V1Node node;

    NodeBuilder(String name) {
      node =
          new V1Node()
              .metadata(new V1ObjectMeta().name(name).labels(new HashMap<>()))
              .spec(new V1NodeSpec())
              .status(new V1NodeStatus());
    }

    NodeBuilder label(String k, String v) {
      node.getMetadata().getLabels().put(k, v);
      return this;
    }

    NodeBuilder zone(String region, String zone) {
      return label(NodeTree.LABEL_REGION, region).label(NodeTree.LABEL_ZONE, zone);
    }

    NodeBuilder cpu(String cpu) {
      node.getStatus().putAllocatableItem("cpu", new Quantity(cpu));
      node.getStatus().putCapacityItem("cpu", new Quantity(cpu));
      return this;
    }

    NodeBuilder image(long size, String... names) {
      node.getStatus().addImagesItem(new V1ContainerImage().sizeBytes(size).names(List.of(names)));
      return this;
    }

    V1Node obj() {
      return node;
    }
  }

  static NodeBuilder node(String name) {
    return new NodeBuilder(name);
  }

  /** Pod builder. */
  static final class PodBuilder {
    private final V1Pod pod;

    PodBuilder(String name) {
      pod =
          new V1Pod()
              .metadata(new V1ObjectMeta().name(name).namespace("ns").uid("uid-" + name))
              .spec(new V1PodSpec().containers(new ArrayList<>()));
    }

    PodBuilder node(String node) {
      pod.getSpec().setNodeName(node);
      return this;
    }

    PodBuilder req(String cpu, String memory) {
      Map<String, Quantity> r = new HashMap<>();
      r.put("cpu", new Quantity(cpu));
      r.put("memory", new Quantity(memory));
      pod.getSpec()
          .addContainersItem(
              new V1Container()
                  .name("c" + pod.getSpec().getContainers().size())
                  .resources(new V1ResourceRequirements().requests(r)));
      return this;
    }

    PodBuilder podAffinity() {
      affinity()
          .podAffinity(
              new V1PodAffinity().addRequiredDuringSchedulingIgnoredDuringExecutionItem(term()));
      return this;
    }

    PodBuilder podAntiAffinity() {
      affinity()
          .podAntiAffinity(
              new V1PodAntiAffinity()
                  .addRequiredDuringSchedulingIgnoredDuringExecutionItem(term()));
      return this;
    }

    PodBuilder pvc(String claim) {
      pod.getSpec()
          .addVolumesItem(
              new V1Volume()
                  .name(claim)
                  .persistentVolumeClaim(
                      new V1PersistentVolumeClaimVolumeSource().claimName(claim)));
      return this;
    }

    private V1Affinity affinity() {
      if (pod.getSpec().getAffinity() == null) {
        pod.getSpec().setAffinity(new V1Affinity());
      }
      return pod.getSpec().getAffinity();
    }

    private static V1PodAffinityTerm term() {
      return new V1PodAffinityTerm()
          .topologyKey("kubernetes.io/hostname")
          .labelSelector(new V1LabelSelector().matchLabels(Map.of("app", "db")));
    }

    V1Pod obj() {
      return pod;
    }
  }

  static PodBuilder pod(String name) {
    return new PodBuilder(name);
  }
}
