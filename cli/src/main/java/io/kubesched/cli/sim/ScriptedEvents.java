package io.kubesched.cli.sim;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubesched.cli.manifest.WorkloadExpander;
import io.kubesched.core.cluster.ObjectCopier;
import io.kubesched.core.config.GoDuration;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pod annotations that script changes in simulated time, for scenarios such as the deletion and
 * recreation of a pod:
 *
 * <ul>
 *   <li>{@value #CREATE_AFTER}{@code : <duration>}: the pod is created that long after the start of
 *       the simulation instead of at the start.
 *   <li>{@value #DELETE_AFTER}{@code : <duration>}: the pod is deleted that long after the start.
 *       When its controller owner reference is a ReplicaSet or ReplicationController, a replacement
 *       {@code <name>-recreated} (new UID, no node, no scripted annotations) is created at once, as
 *       that controller would; for a StatefulSet the replacement keeps the name.
 * </ul>
 *
 * Durations are Go durations ({@code 10s}, {@code 1m30s}) of simulated time, not negative.
 */
final class ScriptedEvents {
  static final String CREATE_AFTER = "kubesched.io/simulate-create-after";
  static final String DELETE_AFTER = "kubesched.io/simulate-delete-after";

  private ScriptedEvents() {}

  /**
   * Returns the delay the annotation sets, or null when the pod has none.
   *
   * @throws IllegalArgumentException with the API server's words when the value is not a duration
   */
  static Duration delay(V1Pod pod, String annotation) {
    Map<String, String> a = pod.getMetadata().getAnnotations();
    String value = a == null ? null : a.get(annotation);
    if (value == null) {
      return null;
    }
    Duration d;
    try {
      d = GoDuration.parse(value);
    } catch (IllegalArgumentException e) {
      throw invalid(annotation, value, "must be a duration such as 10s or 1m30s");
    }
    if (d.isNegative()) {
      throw invalid(annotation, value, "must not be negative");
    }
    return d;
  }

  private static IllegalArgumentException invalid(String annotation, String value, String why) {
    return new IllegalArgumentException(
        "metadata.annotations[" + annotation + "]: Invalid value: \"" + value + "\": " + why);
  }

  /**
   * Returns the pod the controller of {@code deleted} creates in its place, or null when it has no
   * ReplicaSet, ReplicationController or StatefulSet controller.
   */
  static V1Pod replacement(V1Pod deleted) {
    V1OwnerReference owner = null;
    if (deleted.getMetadata().getOwnerReferences() != null) {
      for (V1OwnerReference r : deleted.getMetadata().getOwnerReferences()) {
        if (Boolean.TRUE.equals(r.getController())) {
          owner = r;
        }
      }
    }
    if (owner == null) {
      return null;
    }
    String name;
    switch (owner.getKind()) {
      case "ReplicaSet", "ReplicationController" ->
          name = deleted.getMetadata().getName() + "-recreated";
      case "StatefulSet" -> name = deleted.getMetadata().getName();
      default -> {
        return null;
      }
    }
    V1Pod copy = ObjectCopier.deepCopy(deleted);
    V1ObjectMeta old = copy.getMetadata();
    Map<String, String> annotations =
        old.getAnnotations() == null ? new TreeMap<>() : new TreeMap<>(old.getAnnotations());
    annotations.remove(CREATE_AFTER);
    annotations.remove(DELETE_AFTER);
    String namespace = old.getNamespace();
    copy.setMetadata(
        new V1ObjectMeta()
            .name(name)
            .namespace(namespace)
            .uid(WorkloadExpander.uid("Pod", namespace, name + "#recreated"))
            .labels(old.getLabels())
            .annotations(annotations.isEmpty() ? null : annotations)
            .ownerReferences(old.getOwnerReferences()));
    copy.getSpec().setNodeName(null);
    copy.setStatus(new V1PodStatus());
    return copy;
  }
}
