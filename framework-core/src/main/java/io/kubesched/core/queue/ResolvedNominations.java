package io.kubesched.core.queue;

import io.kubesched.framework.PodInfo;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The pods nominated to each node as the queue resolves them (kube's {@code NominatedPodsForNode}
 * for every node), kept between reads: only the nodes marked since the last read are resolved
 * again. A node is marked when a nomination to it is added or dropped, and when a pod nominated to
 * it enters, leaves or is replaced in the active queue, the backoff queue or the unschedulable pods
 * (what {@code nominatedPodToInfo} reads). Not thread-safe: the queue guards it with its lock.
 */
final class ResolvedNominations {
  // Read-only once handed out; replaced (not changed) when marked nodes are resolved again.
  private Map<String, List<PodInfo>> published = Map.of();
  private final Set<String> marked = new HashSet<>();

  /** Marks {@code node}: its pods are resolved again at the next read. */
  void mark(String node) {
    marked.add(node);
  }

  /**
   * Returns the pods nominated to each node (nodes without any left out), resolving the marked
   * nodes with {@code resolve} (an empty answer drops the node); the map and its lists are
   * read-only and never change afterwards.
   */
  Map<String, List<PodInfo>> byNode(Function<String, List<PodInfo>> resolve) {
    if (marked.isEmpty()) {
      return published;
    }
    Map<String, List<PodInfo>> out = new HashMap<>(published);
    for (String node : marked) {
      List<PodInfo> pods = node.isEmpty() ? List.of() : resolve.apply(node);
      if (pods.isEmpty()) {
        out.remove(node);
      } else {
        out.put(node, Collections.unmodifiableList(pods));
      }
    }
    marked.clear();
    published = Collections.unmodifiableMap(out);
    return published;
  }

  /**
   * Returns the pods nominated to {@code node} as last published, or {@code null} when the node is
   * marked (the caller resolves it itself).
   */
  List<PodInfo> forNode(String node) {
    if (marked.contains(node)) {
      return null;
    }
    return published.getOrDefault(node, List.of());
  }
}
