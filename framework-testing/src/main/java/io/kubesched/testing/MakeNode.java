package io.kubesched.testing;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ContainerImage;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Quantities;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A fluent builder of client-java {@link V1Node}s for tests (kube's {@code st.MakeNode()}).
 *
 * <p>Defaults are deterministic: no name, labels, taints or resources. Each {@link #obj()} call
 * builds a new, independent node from the recorded steps. Quantities are strings parsed with {@link
 * Quantities#parse(String)} when the builder method is called, so a bad quantity fails at once with
 * a message naming it.
 */
public final class MakeNode {
  /**
   * The pod count {@link #capacity(String...)} sets unless {@code "pods"} is given, as upstream.
   */
  public static final String DEFAULT_PODS = "32";

  private final List<Consumer<V1Node>> steps = new ArrayList<>();
  private String name;

  private MakeNode() {}

  /** Starts a node with no name, labels, taints or resources. */
  public static MakeNode node() {
    return new MakeNode();
  }

  /** Sets {@code metadata.name} (and the UID, which equals the name). */
  public MakeNode name(String name) {
    this.name = name;
    return this;
  }

  /** Adds the label {@code key=value}. */
  public MakeNode label(String key, String value) {
    steps.add(n -> n.getMetadata().putLabelsItem(key, value));
    return this;
  }

  /** Adds all of {@code labels}. */
  public MakeNode labels(Map<String, String> labels) {
    Map<String, String> copy = new LinkedHashMap<>(labels);
    steps.add(n -> copy.forEach(n.getMetadata()::putLabelsItem));
    return this;
  }

  /** Adds the annotation {@code key=value}. */
  public MakeNode annotation(String key, String value) {
    steps.add(n -> n.getMetadata().putAnnotationsItem(key, value));
    return this;
  }

  /**
   * Sets both {@code status.capacity} and {@code status.allocatable} to the given resources, e.g.
   * {@code capacity("cpu", "4", "memory", "8Gi")}; like upstream's wrapper, the pod count is
   * {@value #DEFAULT_PODS} unless {@code "pods"} is among the pairs.
   */
  public MakeNode capacity(String... resourceQuantityPairs) {
    Map<String, Quantity> res = new LinkedHashMap<>();
    res.put("pods", Quantities.parse(DEFAULT_PODS));
    res.putAll(MakePod.resources("capacity", resourceQuantityPairs));
    steps.add(
        n -> {
          n.getStatus().setCapacity(new LinkedHashMap<>(res));
          n.getStatus().setAllocatable(new LinkedHashMap<>(res));
        });
    return this;
  }

  /** Sets only {@code status.allocatable} to exactly the given resources (no default pod count). */
  public MakeNode allocatable(String... resourceQuantityPairs) {
    Map<String, Quantity> res = MakePod.resources("allocatable", resourceQuantityPairs);
    steps.add(n -> n.getStatus().setAllocatable(new LinkedHashMap<>(res)));
    return this;
  }

  /** Adds a taint; {@code value} may be {@code null}. */
  public MakeNode taint(String key, String value, String effect) {
    steps.add(n -> n.getSpec().addTaintsItem(new V1Taint().key(key).value(value).effect(effect)));
    return this;
  }

  /** Sets {@code spec.unschedulable}. */
  public MakeNode unschedulable(boolean unschedulable) {
    steps.add(n -> n.getSpec().setUnschedulable(unschedulable));
    return this;
  }

  /** Adds a {@code status.images} entry with the given size and names. */
  public MakeNode image(long sizeBytes, String... names) {
    List<String> ns = List.of(names);
    steps.add(
        n ->
            n.getStatus()
                .addImagesItem(
                    new V1ContainerImage().names(new ArrayList<>(ns)).sizeBytes(sizeBytes)));
    return this;
  }

  /** Builds a new node from the recorded steps; every call returns an independent object. */
  public V1Node obj() {
    V1Node n =
        new V1Node()
            .apiVersion("v1")
            .kind("Node")
            .metadata(new V1ObjectMeta().name(name).uid(name))
            .spec(new V1NodeSpec())
            .status(new V1NodeStatus());
    for (Consumer<V1Node> step : steps) {
      step.accept(n);
    }
    return n;
  }

  /**
   * Builds the node and returns a {@link NodeInfo} holding it and {@code pods}. Image states are
   * not set (they need every node of the cluster): use {@link FrameworkHarness} or the cache's
   * snapshot for plugins that read them.
   */
  public NodeInfo info(PodInfo... pods) {
    return NodeInfo.of(obj(), pods);
  }
}
