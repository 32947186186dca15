package io.kubesched.core.queue;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pods nominated to nodes (kube's {@code nominator}): node name to pod references in nomination
 * order, and pod UID to node name. Every node whose nominations change is reported to the listener
 * given at construction. Not thread-safe; the queue guards it.
 */
final class Nominator {
  private static final Logger LOG = LoggerFactory.getLogger(Nominator.class);

  /**
   * The identity of a nominated pod; {@code key} is its {@code namespace/name} queue key and {@code
   * bare} the pod with only that identity (what the queue reports for a nominated pod it does not
   * hold), both built once: the Filter phase looks the nominated pods up for every attempt.
   */
  record PodRef(String name, String namespace, String uid, String key, PodInfo bare) {
    static PodRef of(PodInfo p) {
      V1Pod bare =
          new V1Pod()
              .metadata(new V1ObjectMeta().name(p.name()).namespace(p.namespace()).uid(p.uid()));
      return new PodRef(
          p.name(), p.namespace(), p.uid(), p.namespace() + "/" + p.name(), PodInfo.of(bare));
    }
  }

  private final Map<String, List<PodRef>> nominatedPods = new LinkedHashMap<>();
  private final Map<String, String> podToNode = new HashMap<>();
  // The nominated pods by queue key (namespace/name): one, unless a pod was replaced by another of
  // the same name before the first one's nomination was dropped.
  private final Map<String, List<PodRef>> byKey = new HashMap<>();
  private final Consumer<String> nodeChanged;
  // Whether no pod is nominated, readable without the queue's lock: the Filter phase asks for
  // every node's nominated pods, and almost always there are none.
  private volatile boolean empty = true;
  private BiFunction<String, String, Optional<V1Pod>> podLister;

  /** Creates an empty nominator; {@code nodeChanged} hears of every node whose pods change. */
  Nominator(Consumer<String> nodeChanged) {
    this.nodeChanged = nodeChanged;
  }

  /** Sets the informer lookup that keeps deleted or bound pods out; {@code null}: no check. */
  void setPodLister(BiFunction<String, String, Optional<V1Pod>> podLister) {
    this.podLister = podLister;
  }

  /**
   * Nominates {@code pod}: under {@code OVERRIDE} to {@code info.nodeName()}; under {@code NOOP}
   * (or {@code null}) to the pod's {@code status.nominatedNodeName}, if any. Any previous
   * nomination of the pod is dropped first. With a pod lister, a pod gone from the informer or
   * already bound is not nominated.
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
    if (podLister != null) {
      Optional<V1Pod> current = podLister.apply(pod.namespace(), pod.name());
      if (current.isEmpty()) {
        LOG.atDebug()
            .addKeyValue("pod", pod.key())
            .log("Pod doesn't exist in podLister, aborted adding it to the nominator");
        return;
      }
      V1Pod cur = current.get();
      String bound = cur.getSpec() == null ? null : cur.getSpec().getNodeName();
      if (bound != null && !bound.isEmpty()) {
        LOG.atDebug()
            .addKeyValue("pod", pod.key())
            .addKeyValue("node", bound)
            .log("Pod is already scheduled to a node, aborted adding it to the nominator");
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
    PodRef ref = PodRef.of(pod);
    refs.add(ref);
    byKey.computeIfAbsent(ref.key(), k -> new ArrayList<>(1)).add(ref);
    empty = false;
    nodeChanged.accept(nodeName);
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
      PodRef ref = refs.get(i);
      if (ref.uid().equals(uid)) {
        refs.remove(i);
        List<PodRef> sameKey = byKey.get(ref.key());
        if (sameKey != null) {
          sameKey.removeIf(r -> r == ref);
          if (sameKey.isEmpty()) {
            byKey.remove(ref.key());
          }
        }
        nodeChanged.accept(node);
        break;
      }
    }
    if (refs.isEmpty()) {
      nominatedPods.remove(node);
      empty = nominatedPods.isEmpty();
    }
  }

  /**
   * Re-nominates an updated pod. When neither version carries a nominated node name but the
   * nominator holds one, that nomination is kept (it was made in memory just before the update).
   */
  void update(V1Pod oldPod, PodInfo newPod) {
    NominatingInfo info = null;
    String oldUid = oldPod == null ? newPod.uid() : PodInfo.uidOf(oldPod);
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

  /** Returns whether no pod is nominated; safe without the queue's lock. */
  boolean isEmpty() {
    return empty;
  }

  /** Returns the nodes that have nominated pods, in nomination order: read under the lock only. */
  Set<String> nodes() {
    return nominatedPods.keySet();
  }

  /**
   * Returns the references nominated to {@code node}, in nomination order: the live list, to be
   * read under the queue's lock only (empty when there are none).
   */
  List<PodRef> forNode(String node) {
    List<PodRef> refs = nominatedPods.get(node);
    return refs == null ? List.of() : refs;
  }

  /** Returns the node the pod with {@code uid} is nominated to, or {@code null}. */
  String nodeOf(String uid) {
    return podToNode.get(uid);
  }

  /**
   * Reports to the listener the node of every pod nominated under the queue key {@code key}
   * (namespace/name): the queue calls it when the entry with that key changes.
   */
  void keyChanged(String key) {
    List<PodRef> refs = byKey.get(key);
    if (refs == null) {
      return;
    }
    for (int i = 0; i < refs.size(); i++) {
      String node = podToNode.get(refs.get(i).uid());
      if (node != null) {
        nodeChanged.accept(node);
      }
    }
  }
}
