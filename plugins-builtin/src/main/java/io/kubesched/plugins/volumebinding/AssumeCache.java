package io.kubesched.plugins.volumebinding;

import io.kubernetes.client.common.KubernetesObject;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The binder's assumed objects (kube's assume cache): a PV or claim changed at Reserve and read in
 * place of the cluster's version until the cluster's version moves past the one it was assumed
 * from, or until Unreserve restores it.
 *
 * @param <T> PersistentVolume or PersistentVolumeClaim
 */
final class AssumeCache<T extends KubernetesObject> {
  private record Assumed<T>(T object, String baseResourceVersion) {}

  private final Map<String, Assumed<T>> assumed = new ConcurrentHashMap<>();

  /** Assumes {@code changed} in place of {@code current} under {@code key}. */
  void assume(String key, T current, T changed) {
    assumed.put(key, new Assumed<>(changed, current.getMetadata().getResourceVersion()));
  }

  /** Forgets the assumed object under {@code key}. */
  void restore(String key) {
    assumed.remove(key);
  }

  /** Returns the assumed object for the cluster's {@code current}, or {@code current} itself. */
  T view(String key, T current) {
    Assumed<T> a = assumed.get(key);
    if (a == null) {
      return current;
    }
    if (current == null
        || !Objects.equals(current.getMetadata().getResourceVersion(), a.baseResourceVersion())) {
      assumed.remove(key, a);
      return current;
    }
    return a.object();
  }
}
