package io.kubesched.core.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The custom objects of an {@link InMemoryCluster}: generic maps with {@code apiVersion}, {@code
 * kind} and {@code metadata.name} (optionally {@code metadata.namespace}), in creation order, each
 * write stamped with the cluster's next resourceVersion.
 *
 * <p>Not thread-safe: the cluster calls it under its lock.
 */
final class CustomObjectStore {
  private final Map<String, Map<String, Object>> objects = new LinkedHashMap<>();
  private final Supplier<String> nextResourceVersion;

  /** Creates an empty store stamping writes with {@code nextResourceVersion}. */
  CustomObjectStore(Supplier<String> nextResourceVersion) {
    this.nextResourceVersion = nextResourceVersion;
  }

  /** See {@link InMemoryCluster#createCustomObject(Map)}. */
  Map<String, Object> create(Map<String, ?> object) {
    Map<String, Object> copy = ObjectCopier.copyMap(object);
    String key = key(copy);
    if (objects.containsKey(key)) {
      throw new ClusterException(
          ClusterException.Reason.ALREADY_EXISTS,
          resource(copy) + " \"" + name(copy) + "\" already exists");
    }
    meta(copy).put("resourceVersion", nextResourceVersion.get());
    objects.put(key, copy);
    return copy;
  }

  /** See {@link InMemoryCluster#updateCustomObject(Map)}. */
  Map<String, Object> update(Map<String, ?> object) {
    Map<String, Object> copy = ObjectCopier.copyMap(object);
    String key = key(copy);
    if (!objects.containsKey(key)) {
      throw new ClusterException(
          ClusterException.Reason.NOT_FOUND, resource(copy) + " \"" + name(copy) + "\" not found");
    }
    meta(copy).put("resourceVersion", nextResourceVersion.get());
    objects.put(key, copy);
    return copy;
  }

  /** See {@link InMemoryCluster#updateCustomObjectStatus(Map)}. */
  Map<String, Object> updateStatus(Map<String, ?> object) {
    Map<String, Object> given = ObjectCopier.copyMap(object);
    String key = key(given);
    Map<String, Object> stored = objects.get(key);
    if (stored == null) {
      throw new ClusterException(
          ClusterException.Reason.NOT_FOUND,
          resource(given) + " \"" + name(given) + "\" not found");
    }
    Map<String, Object> copy = ObjectCopier.copyMap(stored);
    if (given.get("status") == null) {
      copy.remove("status");
    } else {
      copy.put("status", given.get("status"));
    }
    meta(copy).put("resourceVersion", nextResourceVersion.get());
    objects.put(key, copy);
    return copy;
  }

  /** Deletes a custom object; returns the deleted object, or {@code null} when there was none. */
  Map<String, Object> delete(String apiVersion, String kind, String namespace, String name) {
    return objects.remove(
        apiVersion + "/" + kind + "/" + (namespace == null ? "" : namespace) + "/" + name);
  }

  /**
   * Returns the stored object with the apiVersion, kind, namespace and name of {@code object}, or
   * {@code null}.
   */
  Map<String, Object> current(Map<String, ?> object) {
    return objects.get(key(ObjectCopier.copyMap(object)));
  }

  /** Returns the objects of {@code apiVersion} {@code kind}, of {@code namespace} unless null. */
  List<Map<String, Object>> list(String apiVersion, String kind, String namespace) {
    String prefix = apiVersion + "/" + kind + "/" + (namespace == null ? "" : namespace + "/");
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<String, Map<String, Object>> e : objects.entrySet()) {
      if (e.getKey().startsWith(prefix)) {
        out.add(e.getValue());
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> meta(Map<String, Object> obj) {
    Object meta = obj.get("metadata");
    if (!(meta instanceof Map)) {
      throw new IllegalArgumentException("custom object: metadata: Required value");
    }
    return (Map<String, Object>) meta;
  }

  private static String name(Map<String, Object> obj) {
    Object name = meta(obj).get("name");
    if (name == null || name.toString().isEmpty()) {
      throw new IllegalArgumentException("custom object: metadata.name: Required value");
    }
    return name.toString();
  }

  private static String resource(Map<String, Object> obj) {
    return String.valueOf(obj.get("kind")).toLowerCase() + "s";
  }

  private static String key(Map<String, Object> obj) {
    Object apiVersion = obj.get("apiVersion");
    Object kind = obj.get("kind");
    if (apiVersion == null || kind == null) {
      throw new IllegalArgumentException("custom object: apiVersion and kind are required");
    }
    Object ns = meta(obj).get("namespace");
    return apiVersion + "/" + kind + "/" + (ns == null ? "" : ns) + "/" + name(obj);
  }
}
