package io.kubesched.core.queue;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods nominated to nodes (kube's {@code nominator}): node name to pod references in nomination
 * order, and pod UID to node name. Not thread-safe; the queue guards it.
 */
final class Nominator {
  /** The identity of a nominated pod. */
  record PodRef(String name, String namespace, String uid) {
    static PodRef of(PodInfo p) {
      return new PodRef(p.name(), p.namespace(), p.uid());
    }

    String key() {
      return namespace + "/" + name;
    }
  }

  private final Map<String, List<PodRef>> nominatedPods = new LinkedHashMap<>();
  private final Map<String, String> podToNode = new HashMap<>();

  /**
   * Nominates {@code pod}: under {@code OVERRIDE} to {@code info.nodeName()}; under {@code NOOP}
   * (or {@code null}) to the pod's {@code status.nominatedNodeName}, if any. Any previous
   * nomination of the pod is dropped first.
   */
  void add(PodInfo pod, NominatingInfo info) {
    delete(pod.uid());
    String nodeName;
    if (info != null && info.mode() == NominatingInfo.Mode.OVERRIDE) {
      nodeName = info.nodeName();
    } else {
      nodeName = pod.nominatedNodeName();
      if (nodeName == null) {
        return;
      }
    }
    podToNode.put(pod.uid(), nodeName);
    List<PodRef> refs = nominatedPods.computeIfAbsent(nodeName, k -> new ArrayList<>());
    for (PodRef r : refs) {
      if (r.uid().equals(pod.uid())) {
        return;
      }
    }
    refs.add(PodRef.of(pod));
  }

  /** Drops the nomination of the pod with {@code uid}, if any. */
  void delete(String uid) {
    String node = podToNode.remove(uid);
    if (node == null) {
      return;
    }
    List<PodRef> refs = nominatedPods.get(node);
    if (refs == null) {
      return;
    }
    for (int i = 0; i < refs.size(); i++) {
      if (refs.get(i).uid().equals(uid)) {
        refs.remove(i);
        break;
      }
    }
    if (refs.isEmpty()) {
      nominatedPods.remove(node);
    }
  }

  /**
   * Re-nominates an updated pod. When neither version carries a nominated node name but the
   * nominator holds one, that nomination is kept (it was made in memory just before the update).
   */
  void update(V1Pod oldPod, PodInfo newPod) {
    NominatingInfo info = null;
    String oldUid = oldPod == null ? newPod.uid() : PodInfo.of(oldPod).uid();
    if (nnn(oldPod) == null && newPod.nominatedNodeName() == null) {
      String node = podToNode.get(oldUid);
      if (node != null) {
        info = NominatingInfo.override(node);
      }
    }
    delete(oldUid);
    add(newPod, info);
  }

  private static String nnn(V1Pod pod) {
    if (pod == null || pod.getStatus() == null) {
      return null;
    }
    String n = pod.getStatus().getNominatedNodeName();
    return n == null || n.isEmpty() ? null : n;
  }

  /** Returns a copy of the references nominated to {@code node}. */
  List<PodRef> forNode(String node) {
    List<PodRef> refs = nominatedPods.get(node);
    return refs == null ? List.of() : List.copyOf(refs);
  }

  /** Returns the node the pod with {@code uid} is nominated to, or {@code null}. */
  String nodeOf(String uid) {
    return podToNode.get(uid);
  }
}
