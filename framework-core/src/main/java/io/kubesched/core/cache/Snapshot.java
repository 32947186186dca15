package io.kubesched.core.cache;

import com.google.common.collect.HashMultimap;
import com.google.common.collect.SetMultimap;
import io.kubernetes.client.openapi.models.V1ContainerImage;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.runtime.NodeChanges;
import io.kubesched.framework.ImageStateSummary;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeJournal;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The nodes a scheduling cycle works on (kube's {@code cache.Snapshot}): node infos by name, the
 * node list in node-tree (zone round-robin) order, the nodes with pods with (anti-)affinity and the
 * persistent volume claims used by pods.
 *
 * <p>{@link SchedulerCache#updateSnapshot(Snapshot)} refreshes one instance incrementally at the
 * start of each cycle: only node infos whose generation moved are replaced, and the lists are
 * rebuilt only when nodes were added or removed; a node that starts or stops having pods with
 * (anti-)affinity enters or leaves the has-affinity lists at its place in list order. The snapshot
 * is fixed for the rest of the cycle. Not thread-safe.
 */
public final class Snapshot implements NodeInfoLister, NodeChanges, NodeJournal {
  final Map<String, NodeInfo> nodeInfoMap = new HashMap<>();
  private ArrayList<NodeInfo> nodeInfoList = new ArrayList<>();
  // the nodes with pods with (anti-)affinity, in list order, kept up to date node by node
  private final SubList havePodsWithAffinity = new SubList();
  private final SubList havePodsWithRequiredAntiAffinity = new SubList();
  private Map<String, Integer> listIndex = new HashMap<>();
  private List<NodeInfo> listView = Collections.unmodifiableList(nodeInfoList);
  // the flat per-node values of the list, row i for node i, kept up to date node by node
  private final NodeColumns columns = new NodeColumns();
  // claim key (namespace/claim) -> the number of nodes with a pod using it
  private Map<String, Integer> pvcUsers = new HashMap<>();
  long generation;
  // Opportunistic batching's journal (NodeChanges): the nodes replaced by updates, from position
  // journalBase on; cleared when it grows past JOURNAL_LIMIT (older positions are then unknown).
  private final ArrayList<String> journal = new ArrayList<>();
  private long journalBase;
  private long structuralChanges;
  private static final int JOURNAL_LIMIT = 8192;

  /** Creates an empty snapshot (generation 0), ready for {@link SchedulerCache#updateSnapshot}. */
  public Snapshot() {}

  /** Returns a new empty snapshot. */
  public static Snapshot empty() {
    return new Snapshot();
  }

  /**
   * Returns a snapshot of {@code nodes} (in the given order) holding {@code pods} on the node named
   * by their {@code spec.nodeName}, with image states counted across {@code nodes}, like kube's
   * {@code NewSnapshot} (for tests and tools). Pods on nodes not listed are ignored.
   */
  public static Snapshot of(List<V1Node> nodes, List<V1Pod> pods) {
    SetMultimap<String, String> imageNodes = HashMultimap.create();
    for (V1Node node : nodes) {
      for (V1ContainerImage image : images(node)) {
        if (image.getNames() == null) {
          continue;
        }
        for (String name : image.getNames()) {
          imageNodes.put(name, node.getMetadata().getName());
        }
      }
    }
    Map<String, NodeInfo> infos = new LinkedHashMap<>();
    for (V1Node node : nodes) {
      NodeInfo info = new NodeInfo();
      info.setNode(node);
      Map<String, ImageStateSummary> states = new HashMap<>();
      for (V1ContainerImage image : images(node)) {
        if (image.getNames() == null) {
          continue;
        }
        long size = image.getSizeBytes() == null ? 0 : image.getSizeBytes();
        for (String name : image.getNames()) {
          states.put(name, new ImageStateSummary(size, imageNodes.get(name).size()));
        }
      }
      info.setImageStates(states);
      infos.put(node.getMetadata().getName(), info);
    }
    for (V1Pod pod : pods) {
      String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
      NodeInfo info = nodeName == null ? null : infos.get(nodeName);
      if (info != null) {
        info.addPod(PodInfo.of(pod));
      }
    }
    Snapshot s = new Snapshot();
    s.nodeInfoMap.putAll(infos);
    ArrayList<NodeInfo> list = new ArrayList<>(infos.values());
    s.rebuildLists(list);
    return s;
  }

  static List<V1ContainerImage> images(V1Node node) {
    if (node.getStatus() == null || node.getStatus().getImages() == null) {
      return List.of();
    }
    return node.getStatus().getImages();
  }

  /** Replaces every list with {@code list} (tree order) and the sub-lists derived from it. */
  void rebuildLists(ArrayList<NodeInfo> list) {
    structuralChanges++;
    nodeInfoList = list;
    listIndex = new HashMap<>(list.size() * 2);
    for (int i = 0; i < list.size(); i++) {
      listIndex.put(list.get(i).name(), i);
    }
    listView = Collections.unmodifiableList(nodeInfoList);
    columns.resize(list.size());
    for (int i = 0; i < list.size(); i++) {
      columns.set(i, list.get(i));
    }
    rebuildSubLists();
    rebuildPvcSet();
  }

  /** Rebuilds the has-affinity sub-lists from the node list. */
  void rebuildSubLists() {
    havePodsWithAffinity.clear();
    havePodsWithRequiredAntiAffinity.clear();
    for (int i = 0; i < nodeInfoList.size(); i++) {
      NodeInfo n = nodeInfoList.get(i);
      if (!n.podsWithAffinity().isEmpty()) {
        havePodsWithAffinity.append(i, n);
      }
      if (!n.podsWithRequiredAntiAffinity().isEmpty()) {
        havePodsWithRequiredAntiAffinity.append(i, n);
      }
    }
  }

  /** Rebuilds the set of used persistent volume claims from the node list. */
  void rebuildPvcSet() {
    Map<String, Integer> users = new HashMap<>();
    for (NodeInfo n : nodeInfoList) {
      for (String key : n.pvcRefCounts().keySet()) {
        users.merge(key, 1, Integer::sum);
      }
    }
    pvcUsers = users;
  }

  /**
   * Updates the set of used claims for one node whose pods used the claims {@code before} and now
   * use {@code after} (what {@link #rebuildPvcSet} would give, without visiting every node).
   */
  void updatePvcSet(Set<String> before, Set<String> after) {
    for (String key : before) {
      if (!after.contains(key)) {
        pvcUsers.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
      }
    }
    for (String key : after) {
      if (!before.contains(key)) {
        pvcUsers.merge(key, 1, Integer::sum);
      }
    }
  }

  /**
   * Replaces the node info of an existing node in place, in the map and wherever the lists hold it,
   * so the lists keep their order without being rebuilt.
   */
  void replace(String name, NodeInfo info) {
    if (journal.size() >= JOURNAL_LIMIT) {
      journalBase += journal.size();
      journal.clear();
    }
    journal.add(name);
    nodeInfoMap.put(name, info);
    Integer i = listIndex.get(name);
    if (i != null) {
      nodeInfoList.set(i, info);
      columns.set(i, info);
      // what a rebuild from the list would give: the node in or out, at its list position
      havePodsWithAffinity.put(i, info, !info.podsWithAffinity().isEmpty());
      havePodsWithRequiredAntiAffinity.put(i, info, !info.podsWithRequiredAntiAffinity().isEmpty());
    }
  }

  /**
   * A sub-list of the node list, in list order: the nodes and, alongside, their (ascending) list
   * positions, so a node is found, added or removed with a binary search instead of a rebuild.
   */
  private static final class SubList {
    private final ArrayList<NodeInfo> nodes = new ArrayList<>();
    private final List<NodeInfo> view = Collections.unmodifiableList(nodes);
    private int[] positions = new int[16];

    void clear() {
      nodes.clear();
    }

    /** Adds the node at list position {@code pos}, beyond every position held. */
    void append(int pos, NodeInfo info) {
      insert(nodes.size(), pos, info);
    }

    /** Makes the node at list position {@code pos} a member ({@code info}) or not. */
    void put(int pos, NodeInfo info, boolean member) {
      int k = Arrays.binarySearch(positions, 0, nodes.size(), pos);
      if (k >= 0) {
        if (member) {
          nodes.set(k, info);
        } else {
          nodes.remove(k);
          System.arraycopy(positions, k + 1, positions, k, nodes.size() - k);
        }
      } else if (member) {
        insert(-k - 1, pos, info);
      }
    }

    private void insert(int k, int pos, NodeInfo info) {
      int size = nodes.size();
      if (size == positions.length) {
        positions = Arrays.copyOf(positions, size * 2);
      }
      System.arraycopy(positions, k, positions, k + 1, size - k);
      positions[k] = pos;
      nodes.add(k, info);
    }
  }

  /** Returns the number of nodes in the list. */
  @Override
  public long structuralChanges() {
    return structuralChanges;
  }

  @Override
  public long position() {
    return journalBase + journal.size();
  }

  @Override
  public List<String> changedSince(long position) {
    if (position < journalBase || position > position()) {
      return null;
    }
    return Collections.unmodifiableList(
        journal.subList((int) (position - journalBase), journal.size()));
  }

  public int numNodes() {
    return nodeInfoList.size();
  }

  /** Returns the cache generation this snapshot reflects. */
  public long generation() {
    return generation;
  }

  @Override
  public NodeColumns columns() {
    return columns;
  }

  @Override
  public List<NodeInfo> list() {
    return listView;
  }

  @Override
  public List<NodeInfo> havePodsWithAffinityList() {
    return havePodsWithAffinity.view;
  }

  @Override
  public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
    return havePodsWithRequiredAntiAffinity.view;
  }

  @Override
  public NodeInfo get(String nodeName) {
    NodeInfo n = nodeInfoMap.get(nodeName);
    if (n == null || n.node() == null) {
      throw new SchedulingException("nodeinfo not found for node name \"" + nodeName + "\"");
    }
    return n;
  }

  @Override
  public NodeJournal journal() {
    return this;
  }

  @Override
  public int indexOf(String nodeName) {
    Integer i = listIndex.get(nodeName);
    return i == null ? -1 : i;
  }

  @Override
  public NodeInfo find(String nodeName) {
    NodeInfo n = nodeInfoMap.get(nodeName);
    return n == null || n.node() == null ? null : n;
  }

  /** Returns whether a pod in the snapshot uses the claim {@code namespace/claimName}. */
  public boolean isPvcUsedByPods(String key) {
    return pvcUsers.containsKey(key);
  }

  /** Returns the used claims ({@code namespace/claim}), for tests. */
  Set<String> usedPvcSet() {
    return Set.copyOf(pvcUsers.keySet());
  }

  @Override
  public String toString() {
    return "Snapshot{nodes=" + nodeInfoList.size() + ", generation=" + generation + "}";
  }
}
