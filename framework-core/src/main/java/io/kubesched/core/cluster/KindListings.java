package io.kubesched.core.cluster;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Listings of the kinds that seldom change (every kind but pods and nodes), made on the first list
 * after a change and then read without the cluster's lock: the scheduler's listers, which read
 * services, replica sets, stateful sets and replication controllers for every pod (default
 * spreading), then never wait for a pod being created or bound. Each write of a kind drops its
 * listing; both happen under the cluster's lock, so a reader sees the objects of one moment.
 */
final class KindListings {
  private final ConcurrentHashMap<Class<?>, List<KubernetesObject>> byType =
      new ConcurrentHashMap<>();

  /** Returns whether the objects of {@code type} are listed from here. */
  static boolean kept(Class<?> type) {
    return type != V1Pod.class && type != V1Node.class;
  }

  /**
   * Returns the listing of {@code type}, or {@code null} when none is made since its last write.
   */
  List<KubernetesObject> get(Class<?> type) {
    return byType.get(type);
  }

  /** Makes the listing of {@code type} from {@code objects}; called under the cluster's lock. */
  List<KubernetesObject> make(Class<?> type, Collection<KubernetesObject> objects) {
    List<KubernetesObject> all = List.copyOf(objects);
    byType.put(type, all);
    return all;
  }

  /** Drops the listing of {@code type}; called under the cluster's lock by every write. */
  void changed(Class<?> type) {
    byType.remove(type);
  }
}
