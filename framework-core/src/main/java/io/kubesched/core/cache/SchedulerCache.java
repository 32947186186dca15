package io.kubesched.core.cache;

import io.kubernetes.client.openapi.models.V1ContainerImage;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ImageStateSummary;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's view of the cluster: nodes and the pods bound or assumed on them (kube's {@code
 * cacheImpl}).
 *
 * <p>Pods are keyed by UID. A pod the scheduler has decided to place is <em>assumed</em> ({@link
 * #assumePod}) so the next cycles see it on its node before the binding is confirmed; the
 * informer's add event then confirms it ({@link #addPod}), or the scheduler forgets it when binding
 * fails ({@link #forgetPod}). With the scheduler's TTL of zero, assumed pods never expire.
 *
 * <p>A removed node whose pods have not all been removed stays as a <em>ghost</em> (a node info
 * without node object) that snapshots skip. Every change bumps a generation taken from a counter
 * owned by this cache, which {@link #updateSnapshot(Snapshot)} uses to copy only changed nodes.
 *
 * <p>Thread-safe: every method holds the cache's lock.
 */
public final class SchedulerCache {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerCache.class);

  /** A node info in the recency list; the head is the most recently updated. */
  private static final class Item {
    final NodeInfo info;
    Item prev;
    Item next;

    Item(NodeInfo info) {
      this.info = info;
    }
  }

  /** What the cache knows of a pod. */
  private static final class PodState {
    final PodInfo pod;
    // whether the pod is assumed: its uid is in assumedPods for as long as this state is stored (a
    // confirmed pod gets a new state), so isAssumedPod can read it without the lock
    final boolean assumed;
    Instant deadline;
    boolean bindingFinished;

    PodState(PodInfo pod, boolean assumed) {
      this.pod = pod;
      this.assumed = assumed;
    }
  }

  /** The cluster-wide state of one image: its size and the nodes holding it. */
  private static final class ImageState {
    final long size;
    final Set<String> nodes = new LinkedHashSet<>();

    ImageState(long size) {
      this.size = size;
    }
  }

  private final Clock clock;
  private final Duration ttl;
  private final AtomicLong generationCounter = new AtomicLong();
  // written under the lock; concurrent so that isAssumedPod, asked for every popped pod, reads
  // without it
  private final Map<String, PodState> podStates = new ConcurrentHashMap<>();
  private final Set<String> assumedPods = new LinkedHashSet<>();
  private final Map<String, Item> nodes = new HashMap<>();
  private Item head;
  private final NodeTree nodeTree = new NodeTree();
  private final Map<String, ImageState> imageStates = new HashMap<>();

  /** Creates a cache whose assumed pods never expire (the scheduler's TTL of zero). */
  public SchedulerCache(Clock clock) {
    this(clock, Duration.ZERO);
  }

  /**
   * Creates a cache where an assumed pod whose binding finished expires {@code ttl} later ({@link
   * Duration#ZERO}: never).
   */
  public SchedulerCache(Clock clock, Duration ttl) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ttl = Objects.requireNonNull(ttl, "ttl");
  }

  private NodeInfo newNodeInfo() {
    return new NodeInfo(generationCounter::incrementAndGet);
  }

  private static String nodeName(V1Pod pod) {
    String n = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return n == null ? "" : n;
  }

  private static String nodeName(PodInfo pod) {
    String n = pod.nodeName();
    return n == null ? "" : n;
  }

  private static String name(V1Node node) {
    return node.getMetadata().getName();
  }

  // ---- recency list --------------------------------------------------------------------------

  private void moveToHead(String name) {
    Item item = nodes.get(name);
    if (item == null) {
      LOG.atError()
          .addKeyValue("node", name)
          .log("No node info with given name found in the cache");
      return;
    }
    if (item == head) {
      return;
    }
    if (item.prev != null) {
      item.prev.next = item.next;
    }
    if (item.next != null) {
      item.next.prev = item.prev;
    }
    if (head != null) {
      head.prev = item;
    }
    item.next = head;
    item.prev = null;
    head = item;
  }

  private void removeFromList(String name) {
    Item item = nodes.get(name);
    if (item == null) {
      LOG.atError()
          .addKeyValue("node", name)
          .log("No node info with given name found in the cache");
      return;
    }
    if (item.prev != null) {
      item.prev.next = item.next;
    }
    if (item.next != null) {
      item.next.prev = item.prev;
    }
    if (item == head) {
      head = item.next;
    }
    nodes.remove(name);
  }

  // ---- pods ----------------------------------------------------------------------------------

  /**
   * Assumes {@code pod} (whose {@code spec.nodeName} is the chosen node) is running there.
   *
   * @throws SchedulingException when the pod is already in the cache
   */
  public synchronized void assumePod(PodInfo pod) {
    String key = pod.uid();
    if (podStates.containsKey(key)) {
      throw new SchedulingException(
          "pod " + key + "(" + pod.key() + ") is in the cache, so can't be assumed");
    }
    addPodLocked(pod, true);
  }

  /**
   * Marks the binding of an assumed pod finished; from now on it may expire (never with a TTL of
   * zero). Unknown or confirmed pods are ignored.
   */
  public void finishBinding(PodInfo pod) {
    if (ttl.isZero()) {
      // nothing expires, and only the expiry reads what this records: no need for the lock
      return;
    }
    synchronized (this) {
      finishBindingLocked(pod);
    }
  }

  private void finishBindingLocked(PodInfo pod) {
    PodState state = podStates.get(pod.uid());
    if (state != null && assumedPods.contains(pod.uid())) {
      state.deadline = clock.instant().plus(ttl);
      state.bindingFinished = true;
    }
  }

  /**
   * Removes an assumed pod (undoes {@link #assumePod}).
   *
   * @throws SchedulingException when the pod is in the cache on another node, or is not an assumed
   *     pod (unknown, or already confirmed by the informer)
   */
  public synchronized void forgetPod(PodInfo pod) {
    String key = pod.uid();
    PodState state = podStates.get(key);
    if (state != null && !nodeName(state.pod).equals(nodeName(pod))) {
      throw new SchedulingException(
          "pod "
              + key
              + "("
              + pod.key()
              + ") was assumed on "
              + nodeName(pod)
              + " but assigned to "
              + nodeName(state.pod));
    }
    if (state != null && assumedPods.contains(key)) {
      removePodLocked(state.pod);
      return;
    }
    throw new SchedulingException(
        "pod " + key + "(" + pod.key() + ") wasn't assumed so cannot be forgotten");
  }

  private void addPodLocked(PodInfo pod, boolean assume) {
    String node = nodeName(pod);
    Item item = nodes.get(node);
    if (item == null) {
      item = new Item(newNodeInfo());
      nodes.put(node, item);
    }
    item.info.addPod(pod);
    moveToHead(node);
    podStates.put(pod.uid(), new PodState(pod, assume));
    if (assume) {
      assumedPods.add(pod.uid());
    }
  }

  private void removePodLocked(PodInfo pod) {
    String node = nodeName(pod);
    Item item = nodes.get(node);
    if (item == null) {
      LOG.atError()
          .addKeyValue("node", node)
          .addKeyValue("pod", pod.key())
          .log("Node not found when trying to remove pod");
    } else {
      if (!item.info.removePod(pod)) {
        throw new SchedulingException(
            "no corresponding pod " + pod.name() + " in pods of node " + node);
      }
      if (item.info.pods().isEmpty() && item.info.node() == null) {
        removeFromList(node);
      } else {
        moveToHead(node);
      }
    }
    podStates.remove(pod.uid());
    assumedPods.remove(pod.uid());
  }

  private void updatePodLocked(PodInfo oldPod, PodInfo newPod) {
    removePodLocked(oldPod);
    addPodLocked(newPod, false);
  }

  /**
   * Adds a bound pod seen by the informer. An assumed pod is confirmed (replaced by this version
   * and no longer assumed); an unknown pod is added.
   *
   * @throws SchedulingException when the pod was already added
   */
  public synchronized void addPod(V1Pod pod) {
    String key = PodInfo.uidOf(pod);
    PodState state = podStates.get(key);
    // the bound revision of an assumed pod shares what the assumed pod's info was computed from
    PodInfo info = state != null ? state.pod.forRevision(pod) : PodInfo.of(pod);
    if (state != null && assumedPods.contains(key)) {
      updatePodLocked(state.pod, info);
      if (!nodeName(state.pod).equals(nodeName(info))) {
        LOG.atInfo()
            .addKeyValue("pod", info.key())
            .addKeyValue("assumedNode", nodeName(state.pod))
            .addKeyValue("currentNode", nodeName(info))
            .log("Pod was added to a different node than it was assumed");
      }
    } else if (state == null) {
      addPodLocked(info, false);
    } else {
      throw new SchedulingException(
          "pod " + key + "(" + info.key() + ") was already in added state");
    }
  }

  /**
   * Replaces a bound pod with its new version.
   *
   * @throws SchedulingException when the pod is not in the cache or is only assumed
   * @throws IllegalStateException when the pod moved to another node (the cache would be corrupt;
   *     kube-scheduler exits)
   */
  public synchronized void updatePod(V1Pod oldPod, V1Pod newPod) {
    String key = PodInfo.uidOf(oldPod);
    PodState state = podStates.get(key);
    PodInfo oldInfo = state != null ? state.pod.forRevision(oldPod) : PodInfo.of(oldPod);
    if (state == null) {
      throw new SchedulingException(
          "pod "
              + key
              + "("
              + oldInfo.key()
              + ") is not added to scheduler cache, so cannot be updated");
    }
    if (assumedPods.contains(key)) {
      throw new SchedulingException(
          "assumed pod " + key + "(" + oldInfo.key() + ") should not be updated");
    }
    if (!nodeName(state.pod).equals(nodeName(newPod))) {
      throw new IllegalStateException(
          "Pod "
              + oldInfo.key()
              + " updated on a different node than previously added to. Scheduler cache is"
              + " corrupted and can badly affect scheduling decisions");
    }
    updatePodLocked(oldInfo, oldInfo.forRevision(newPod));
  }

  /**
   * Removes a pod (bound or assumed) deleted from the cluster; an emptied ghost node goes away.
   *
   * @throws SchedulingException when the pod is not in the cache
   * @throws IllegalStateException when the pod is reported on another node (the cache would be
   *     corrupt; kube-scheduler exits)
   */
  public synchronized void removePod(V1Pod pod) {
    PodInfo info = PodInfo.of(pod);
    String key = info.uid();
    PodState state = podStates.get(key);
    if (state == null) {
      throw new SchedulingException(
          "pod "
              + key
              + "("
              + info.key()
              + ") is not found in scheduler cache, so cannot be removed from it");
    }
    if (!nodeName(state.pod).equals(nodeName(pod))) {
      LOG.atError()
          .addKeyValue("pod", info.key())
          .addKeyValue("assumedNode", nodeName(pod))
          .addKeyValue("currentNode", nodeName(state.pod))
          .log("Pod was added to a different node than it was assumed");
      if (!nodeName(pod).isEmpty()) {
        throw new IllegalStateException(
            "Scheduler cache is corrupted and can badly affect scheduling decisions");
      }
    }
    removePodLocked(state.pod);
  }

  /**
   * Returns whether the pod with {@code uid} is assumed (not yet confirmed by the informer). Reads
   * without the cache's lock: the answer is the cache's state at some moment during the call.
   */
  public boolean isAssumedPod(String uid) {
    PodState state = podStates.get(uid);
    return state != null && state.assumed;
  }

  /** Returns the cached version of the pod with {@code uid}, or {@code null}. */
  public synchronized PodInfo getPod(String uid) {
    PodState state = podStates.get(uid);
    return state == null ? null : state.pod;
  }

  /** Returns every pod in the cache, bound and assumed, including those on ghost nodes. */
  public synchronized List<PodInfo> assumedAndBoundPods() {
    List<PodInfo> out = new ArrayList<>(podStates.size());
    for (PodState s : podStates.values()) {
      out.add(s.pod);
    }
    return out;
  }

  /** Returns the UIDs of the assumed pods. */
  public synchronized Set<String> assumedPodUids() {
    return Set.copyOf(assumedPods);
  }

  /**
   * Removes assumed pods whose binding finished and whose deadline passed (kube runs this every
   * second). With a TTL of zero nothing ever expires.
   */
  public synchronized void cleanupAssumedPods() {
    if (ttl.isZero()) {
      return;
    }
    Instant now = clock.instant();
    for (Iterator<String> it = new ArrayList<>(assumedPods).iterator(); it.hasNext(); ) {
      String key = it.next();
      PodState ps = podStates.get(key);
      if (ps == null || !ps.bindingFinished) {
        continue;
      }
      if (ps.deadline != null && now.isAfter(ps.deadline)) {
        LOG.atInfo().addKeyValue("pod", ps.pod.key()).log("Pod expired");
        removePodLocked(ps.pod);
      }
    }
  }

  // ---- nodes ---------------------------------------------------------------------------------

  /** Adds (or replaces) a node; refreshes the image states. */
  public synchronized void addNode(V1Node node) {
    String name = name(node);
    Item item = nodes.get(name);
    if (item == null) {
      item = new Item(newNodeInfo());
      nodes.put(name, item);
    } else {
      removeNodeImageStates(item.info.node());
    }
    moveToHead(name);
    nodeTree.addNode(node);
    addNodeImageStates(node, item.info);
    item.info.setNode(node);
  }

  /** Replaces a node with its new version; moves it in the node tree when its zone changed. */
  public synchronized void updateNode(V1Node oldNode, V1Node newNode) {
    String name = name(newNode);
    Item item = nodes.get(name);
    if (item == null) {
      item = new Item(newNodeInfo());
      nodes.put(name, item);
      nodeTree.addNode(newNode);
    } else {
      removeNodeImageStates(item.info.node());
    }
    moveToHead(name);
    nodeTree.updateNode(oldNode, newNode);
    addNodeImageStates(newNode, item.info);
    item.info.setNode(newNode);
  }

  /**
   * Removes a node. Its info stays as a ghost while pods remain on it (their delete events may
   * arrive later); the node tree no longer lists it.
   *
   * @throws SchedulingException when the node is not in the cache or not in the node tree
   */
  public synchronized void removeNode(V1Node node) {
    String name = name(node);
    Item item = nodes.get(name);
    if (item == null) {
      throw new SchedulingException("node " + name + " is not found");
    }
    item.info.removeNode();
    if (item.info.pods().isEmpty()) {
      removeFromList(name);
    } else {
      moveToHead(name);
    }
    if (!nodeTree.removeNode(node)) {
      throw new SchedulingException(
          "node \"" + name + "\" in group \"" + NodeTree.zoneKey(node) + "\" was not found");
    }
    removeNodeImageStates(node);
  }

  private void addNodeImageStates(V1Node node, NodeInfo info) {
    Map<String, ImageState> newSum = new LinkedHashMap<>();
    for (V1ContainerImage image : Snapshot.images(node)) {
      if (image.getNames() == null) {
        continue;
      }
      long size = image.getSizeBytes() == null ? 0 : image.getSizeBytes();
      for (String imageName : image.getNames()) {
        ImageState state = imageStates.get(imageName);
        if (state == null) {
          state = new ImageState(size);
          imageStates.put(imageName, state);
        }
        state.nodes.add(name(node));
        newSum.putIfAbsent(imageName, state);
      }
    }
    info.setImageStates(summaries(newSum));
  }

  private void removeNodeImageStates(V1Node node) {
    if (node == null) {
      return;
    }
    for (V1ContainerImage image : Snapshot.images(node)) {
      if (image.getNames() == null) {
        continue;
      }
      for (String imageName : image.getNames()) {
        ImageState state = imageStates.get(imageName);
        if (state != null) {
          state.nodes.remove(name(node));
          if (state.nodes.isEmpty()) {
            imageStates.remove(imageName);
          }
        }
      }
    }
  }

  private static Map<String, ImageStateSummary> summaries(Map<String, ImageState> states) {
    Map<String, ImageStateSummary> out = new HashMap<>(states.size() * 2);
    states.forEach((k, v) -> out.put(k, new ImageStateSummary(v.size, v.nodes.size())));
    return out;
  }

  /**
   * Returns the node's image states with the current cluster-wide node counts; {@code null} when
   * they equal what {@code info} holds (the common case, no copy needed).
   */
  private Map<String, ImageStateSummary> refreshedImageStates(NodeInfo info) {
    Map<String, ImageStateSummary> current = info.imageStates();
    Map<String, ImageStateSummary> out = null;
    for (Map.Entry<String, ImageStateSummary> e : current.entrySet()) {
      ImageState live = imageStates.get(e.getKey());
      int numNodes = live == null ? e.getValue().numNodes() : live.nodes.size();
      if (numNodes != e.getValue().numNodes()) {
        if (out == null) {
          out = new HashMap<>(current);
        }
        out.put(e.getKey(), new ImageStateSummary(e.getValue().size(), numNodes));
      }
    }
    return out;
  }

  /** Returns the cluster-wide image states: name to size and number of nodes holding it. */
  public synchronized Map<String, ImageStateSummary> imageStates() {
    Map<String, ImageStateSummary> out = new HashMap<>();
    imageStates.forEach((k, v) -> out.put(k, new ImageStateSummary(v.size, v.nodes.size())));
    return out;
  }

  /** Returns the number of node infos, ghosts included. */
  public synchronized int nodeCount() {
    return nodes.size();
  }

  /** Returns the number of pods on all node infos, ghosts included. */
  public synchronized int podCount() {
    int count = 0;
    for (Item item : nodes.values()) {
      count += item.info.pods().size();
    }
    return count;
  }

  /** Returns a copy of the node info named {@code name} (ghosts included), or {@code null}. */
  public synchronized NodeInfo nodeInfo(String name) {
    Item item = nodes.get(name);
    return item == null ? null : item.info.snapshot();
  }

  /**
   * Returns the node infos from the most recently updated (the names; {@code null} for a ghost),
   * for tests.
   */
  synchronized List<String> recencyOrder() {
    List<String> out = new ArrayList<>();
    for (Item item = head; item != null; item = item.next) {
      out.add(item.info.node() == null ? null : item.info.name());
    }
    return out;
  }

  /** Returns the live node info named {@code name} (not a copy), for tests. */
  synchronized NodeInfo liveNodeInfo(String name) {
    Item item = nodes.get(name);
    return item == null ? null : item.info;
  }

  /** Returns the node names in node-tree order (zones round-robin). */
  public synchronized List<String> nodeTreeOrder() {
    return nodeTree.list();
  }

  // ---- snapshot ------------------------------------------------------------------------------

  /**
   * Brings {@code snapshot} up to date: copies the node infos changed since its generation (walking
   * the recency list from the head), drops removed nodes, rebuilds the node list (node-tree order)
   * only when nodes were added or removed and the has-affinity lists only when a node started or
   * stopped having such pods.
   *
   * @throws SchedulingException when the snapshot was inconsistent with the node tree; it has been
   *     rebuilt, but the current cycle should fail
   */
  public synchronized void updateSnapshot(Snapshot snapshot) {
    long snapshotGeneration = snapshot.generation;
    boolean updateAll = false;
    for (Item item = head; item != null; item = item.next) {
      if (item.info.generation() <= snapshotGeneration) {
        break;
      }
      V1Node node = item.info.node();
      if (node == null) {
        continue;
      }
      String name = name(node);
      NodeInfo clone = item.info.snapshot();
      Map<String, ImageStateSummary> images = refreshedImageStates(item.info);
      if (images != null) {
        clone.setImageStates(images);
      }
      NodeInfo existing = snapshot.nodeInfoMap.get(name);
      if (existing == null) {
        updateAll = true;
        snapshot.nodeInfoMap.put(name, clone);
        continue;
      }
      Set<String> pvcsBefore = existing.pvcRefCounts().keySet();
      Set<String> pvcsAfter = clone.pvcRefCounts().keySet();
      if (!pvcsBefore.equals(pvcsAfter)) {
        // incrementally: kube rebuilds the set from every node, a scan per bound pod with claims
        snapshot.updatePvcSet(pvcsBefore, pvcsAfter);
      }
      snapshot.replace(name, clone);
    }
    if (head != null) {
      snapshot.generation = head.info.generation();
    }
    if (snapshot.nodeInfoMap.size() > nodeTree.numNodes()) {
      removeDeletedNodesFromSnapshot(snapshot);
      updateAll = true;
    }
    if (updateAll) {
      rebuildAll(snapshot);
    }
    if (snapshot.numNodes() != nodeTree.numNodes()) {
      String msg =
          "snapshot state is not consistent, length of NodeInfoList="
              + snapshot.numNodes()
              + " not equal to length of nodes in tree="
              + nodeTree.numNodes()
              + " , length of NodeInfoMap="
              + snapshot.nodeInfoMap.size()
              + ", length of nodes in cache="
              + nodes.size()
              + ", trying to recover";
      LOG.atError().log(msg);
      rebuildAll(snapshot);
      throw new SchedulingException(msg);
    }
  }

  private void rebuildAll(Snapshot snapshot) {
    List<String> order = nodeTree.list();
    ArrayList<NodeInfo> list = new ArrayList<>(order.size());
    for (String n : order) {
      NodeInfo info = snapshot.nodeInfoMap.get(n);
      if (info != null) {
        list.add(info);
      } else {
        LOG.atError()
            .addKeyValue("node", n)
            .log("Node exists in nodeTree but not in NodeInfoMap, this should not happen");
      }
    }
    snapshot.rebuildLists(list);
  }

  private void removeDeletedNodesFromSnapshot(Snapshot snapshot) {
    int toDelete = snapshot.nodeInfoMap.size() - nodeTree.numNodes();
    Set<String> names = new HashSet<>(snapshot.nodeInfoMap.keySet());
    for (String name : names) {
      if (toDelete <= 0) {
        break;
      }
      Item item = nodes.get(name);
      if (item == null || item.info.node() == null) {
        snapshot.nodeInfoMap.remove(name);
        toDelete--;
      }
    }
  }
}
