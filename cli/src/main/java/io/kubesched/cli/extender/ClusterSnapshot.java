package io.kubesched.cli.extender;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.cluster.Cluster;
import io.kubesched.core.cluster.ClusterListener;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The extender's view of a cluster's nodes and bound pods, kept up to date from the cluster's
 * events (no copies), with a {@link Snapshot} of the whole cluster rebuilt only after a change: a
 * request with node names costs no snapshot construction while the cluster is unchanged.
 * Thread-safe.
 */
final class ClusterSnapshot implements ClusterListener, AutoCloseable {
  private final Cluster cluster;
  private final Map<String, V1Node> nodes = new ConcurrentSkipListMap<>();

  /** Bound pods by node name, then by namespace/name. */
  private final Map<String, Map<String, V1Pod>> podsByNode = new ConcurrentHashMap<>();

  private final AtomicLong changes = new AtomicLong();
  private long builtAt = -1;
  private Snapshot built;

  /** Follows {@code cluster} (its existing nodes and pods are replayed at once). */
  ClusterSnapshot(Cluster cluster) {
    this.cluster = cluster;
    cluster.addListener(this);
  }

  @Override
  public void close() {
    cluster.removeListener(this);
  }

  /** Returns the snapshot of every node with its bound pods, as of the last change. */
  synchronized Snapshot all() {
    long now = changes.get();
    if (built == null || builtAt != now) {
      List<V1Pod> pods = new ArrayList<>();
      podsByNode.values().forEach(m -> pods.addAll(m.values()));
      built = Snapshot.of(new ArrayList<>(nodes.values()), pods);
      builtAt = now;
    }
    return built;
  }

  /** Returns the pods bound to the node named {@code node}. */
  Collection<V1Pod> podsOn(String node) {
    Map<String, V1Pod> m = podsByNode.get(node);
    return m == null ? List.of() : m.values();
  }

  private static String key(V1Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  private static String nodeOf(V1Pod pod) {
    String n = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return n == null || n.isEmpty() ? null : n;
  }

  @Override
  public void onNodeAdd(V1Node node) {
    nodes.put(node.getMetadata().getName(), node);
    changes.incrementAndGet();
  }

  @Override
  public void onNodeUpdate(V1Node oldNode, V1Node node) {
    onNodeAdd(node);
  }

  @Override
  public void onNodeDelete(V1Node node) {
    nodes.remove(node.getMetadata().getName());
    changes.incrementAndGet();
  }

  @Override
  public void onPodAdd(V1Pod pod) {
    String node = nodeOf(pod);
    if (node != null) {
      podsByNode.computeIfAbsent(node, n -> new ConcurrentHashMap<>()).put(key(pod), pod);
      changes.incrementAndGet();
    }
  }

  @Override
  public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
    String was = nodeOf(oldPod);
    if (was != null && !was.equals(nodeOf(pod))) {
      remove(was, oldPod);
    }
    onPodAdd(pod);
  }

  @Override
  public void onPodDelete(V1Pod pod) {
    String node = nodeOf(pod);
    if (node != null) {
      remove(node, pod);
    }
  }

  private void remove(String node, V1Pod pod) {
    Map<String, V1Pod> m = podsByNode.get(node);
    if (m != null && m.remove(key(pod)) != null) {
      changes.incrementAndGet();
    }
  }
}
