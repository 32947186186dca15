package io.kubesched.plugins.sample.coscheduling;

import io.kubernetes.client.custom.Quantity;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@code scheduling.x-k8s.io/v1alpha1} {@code PodGroup}, read from the cluster's custom objects.
 *
 * @param namespace the namespace
 * @param name the name
 * @param minMember how many members must be placed together
 * @param scheduleTimeoutSeconds how long members wait at Permit, or {@code null}
 * @param creationTimestamp when the group was created ({@link Instant#EPOCH} when unknown)
 * @param minResources {@code spec.minResources}: what the group needs in all, beside {@code
 *     minMember} pods (empty when not set)
 */
public record PodGroup(
    String namespace,
    String name,
    int minMember,
    Integer scheduleTimeoutSeconds,
    Instant creationTimestamp,
    Map<String, Quantity> minResources) {
  /** Copies the map. */
  public PodGroup {
    minResources = minResources == null ? Map.of() : Map.copyOf(minResources);
  }

  /** A group without {@code minResources}. */
  public PodGroup(
      String namespace,
      String name,
      int minMember,
      Integer scheduleTimeoutSeconds,
      Instant creationTimestamp) {
    this(namespace, name, minMember, scheduleTimeoutSeconds, creationTimestamp, Map.of());
  }

  /** The API version of PodGroups. */
  public static final String API_VERSION = "scheduling.x-k8s.io/v1alpha1";

  /** The kind of PodGroups. */
  public static final String KIND = "PodGroup";

  /** Returns {@code namespace/name}. */
  public String fullName() {
    return namespace + "/" + name;
  }

  /**
   * Reads a PodGroup from its generic map form.
   *
   * @throws IllegalArgumentException naming the field when a value is not valid
   */
  public static PodGroup fromMap(Map<String, Object> obj) {
    Map<?, ?> meta = obj.get("metadata") instanceof Map<?, ?> m ? m : Map.of();
    Map<?, ?> spec = obj.get("spec") instanceof Map<?, ?> s ? s : Map.of();
    String ns = meta.get("namespace") == null ? "default" : String.valueOf(meta.get("namespace"));
    String name = String.valueOf(meta.get("name"));
    int minMember =
        intValue(spec.get("minMember"), "PodGroup " + ns + "/" + name + ": spec.minMember", 1);
    Integer timeout =
        spec.get("scheduleTimeoutSeconds") == null
            ? null
            : intValue(
                spec.get("scheduleTimeoutSeconds"),
                "PodGroup " + ns + "/" + name + ": spec.scheduleTimeoutSeconds",
                0);
    Instant created = Instant.EPOCH;
    Object ts = meta.get("creationTimestamp");
    if (ts != null) {
      try {
        created = OffsetDateTime.parse(String.valueOf(ts)).toInstant();
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "PodGroup "
                + ns
                + "/"
                + name
                + ": metadata.creationTimestamp: not a timestamp: \""
                + ts
                + "\"");
      }
    }
    Map<String, Quantity> minResources = new TreeMap<>();
    if (spec.get("minResources") instanceof Map<?, ?> mr) {
      for (Map.Entry<?, ?> e : mr.entrySet()) {
        String field = "PodGroup " + ns + "/" + name + ": spec.minResources." + e.getKey();
        Object v = e.getValue();
        String text =
            v instanceof Double d && d == Math.rint(d)
                ? String.valueOf(d.longValue())
                : String.valueOf(v);
        try {
          minResources.put(String.valueOf(e.getKey()), Quantity.fromString(text));
        } catch (RuntimeException ex) {
          throw new IllegalArgumentException(field + ": not a quantity: \"" + v + "\"");
        }
      }
    }
    return new PodGroup(ns, name, minMember, timeout, created, minResources);
  }

  private static int intValue(Object v, String field, int dflt) {
    if (v == null) {
      return dflt;
    }
    if (v instanceof Number n) {
      return n.intValue();
    }
    try {
      return Integer.parseInt(String.valueOf(v));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field + ": not an integer: \"" + v + "\"");
    }
  }
}
