package io.kubesched.plugins.podtopologyspread;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeJournal;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PodInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Matching-pod counts of a set of spread constraints, per node and per topology value, kept from
 * one scheduling cycle to the next so that only the nodes that changed are counted again.
 *
 * <p>A node's entry is reused while the node list holds the very same {@link NodeInfo} object with
 * the same {@link NodeInfo#generation()}: a node info changes its generation on every change of its
 * node or pods, and pods are immutable, so the entry (eligibility, topology values, count) is
 * exactly what counting again would give. The memo is only used for constraints whose node
 * eligibility does not depend on anything but the {@link Key} (namespace, selectors, topology keys,
 * and the pod's node selector, required node affinity and tolerations when a policy honours them).
 *
 * <p>The totals per topology value are rebuilt, by adding the nodes in list order exactly as a
 * fresh count would, whenever a node's eligibility or topology value changed or the list changed
 * size; otherwise only the count deltas of changed nodes are applied, which keeps the table's
 * layout (and so its iteration order) identical to a fresh count.
 *
 * <p>When the nodes are the lister's whole list and the lister keeps a {@link NodeJournal}, the
 * nodes to look at again are the ones the journal names since the last update, not every node. Not
 * thread-safe: callers lock.
 */
final class CountMemo {
  /** The number of memos kept per plugin instance (least recently used are dropped). */
  private static final int MAX_MEMOS = 32;

  /**
   * What the memoised counts depend on.
   *
   * @param score whether the counts are PreScore's (hostname constraints skipped)
   * @param requireAll whether a node lacking any topology key is ineligible
   * @param namespace the namespace of the counted pods
   * @param shapes per constraint: topology key, selector requirements and node policies
   * @param eligibility the pod's node selector, required node affinity and tolerations, when a node
   *     inclusion policy honours them
   */
  record Key(
      boolean score,
      boolean requireAll,
      String namespace,
      List<Object> shapes,
      List<Object> eligibility) {}

  /** Returns the key for counting {@code cs} for {@code pod}. */
  static Key keyOf(boolean score, boolean requireAll, PodInfo pod, SpreadConstraint[] cs) {
    List<Object> shapes = new ArrayList<>(cs.length * 5);
    boolean honorAffinity = false;
    boolean honorTaints = false;
    for (SpreadConstraint c : cs) {
      LabelSelector s = c.selector();
      shapes.add(c.topologyKey());
      shapes.add(s.isNothing());
      shapes.add(s.requirements());
      shapes.add(c.honorNodeAffinity());
      shapes.add(c.honorNodeTaints());
      honorAffinity |= c.honorNodeAffinity();
      honorTaints |= c.honorNodeTaints();
    }
    List<Object> eligibility = new ArrayList<>(3);
    if (honorAffinity) {
      eligibility.add(pod.nodeSelector());
      V1Affinity a = pod.pod().getSpec() == null ? null : pod.pod().getSpec().getAffinity();
      V1NodeAffinity na = a == null ? null : a.getNodeAffinity();
      // Rendered to a string: the key must not change if the API object is mutated later.
      eligibility.add(
          na == null || na.getRequiredDuringSchedulingIgnoredDuringExecution() == null
              ? ""
              : na.getRequiredDuringSchedulingIgnoredDuringExecution().toString());
    }
    if (honorTaints) {
      eligibility.add(pod.tolerations());
    }
    return new Key(score, requireAll, pod.namespace(), shapes, eligibility);
  }

  /** A bounded, least-recently-used map of memos. Not thread-safe: callers lock. */
  static final class Store {
    private final LinkedHashMap<Key, CountMemo> memos =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, CountMemo> eldest) {
            return size() > MAX_MEMOS;
          }
        };

    /** Returns the memo of {@code key}, creating an empty one. */
    CountMemo get(Key key) {
      return memos.computeIfAbsent(key, k -> new CountMemo());
    }
  }

  private NodeInfo[] refs = new NodeInfo[0];
  private long[] gens = new long[0];

  /** Per node and constraint: the topology value, {@code null} when not eligible. */
  private String[] values = new String[0];

  /** Per node and constraint: the matching pods, -1 when not eligible. */
  private int[] counts = new int[0];

  /**
   * Per node and hostname constraint (PreScore only): the matching pods when the node has the key,
   * else 0, whatever the node's eligibility.
   */
  private int[] own = new int[0];

  /** Where each node name was last seen in the list: a hint, always checked before use. */
  private final HashMap<String, Integer> positions = new HashMap<>();

  private ValueCounts[] totals;
  private int[] changed = new int[16];

  // The lister's journal and where it stood at the last update, when that update covered the
  // lister's whole list: the next update then counts only the nodes the journal names.
  private @Nullable NodeJournal journal;
  private long journalStructure;
  private long journalPosition;

  /**
   * Brings the memo up to date with {@code nodes} and returns the totals per constraint: for each
   * eligible node in list order, its topology value with its matching-pod count added (the table a
   * fresh count builds). The returned tables belong to the memo; copy before changing them.
   *
   * @param lister the lister {@code nodes} come from: when they are its whole list and it keeps a
   *     {@link NodeJournal}, only the nodes the journal names since the last update are looked at
   * @param requireAll whether a node lacking any topology key of {@code cs} is ineligible
   * @param skipHostname whether constraints on the hostname key are left empty
   */
  ValueCounts[] update(
      NodeInfoLister lister,
      List<NodeInfo> nodes,
      PodInfo pod,
      SpreadConstraint[] cs,
      boolean requireAll,
      boolean skipHostname,
      Parallelizer parallelizer) {
    int n = nodes.size();
    int nc = cs.length;
    boolean resized = refs.length != n;
    if (resized) {
      refs = Arrays.copyOf(refs, n);
      gens = Arrays.copyOf(gens, n);
      values = Arrays.copyOf(values, n * nc);
      counts = Arrays.copyOf(counts, n * nc);
      own = Arrays.copyOf(own, n * nc);
      positions.clear();
    }
    NodeJournal jn = nodes == lister.list() ? lister.journal() : null;
    int numChanged = -1;
    if (!resized && totals != null && jn != null) {
      numChanged = changedFromJournal(jn, nodes);
    }
    if (numChanged < 0) {
      numChanged = 0;
      for (int i = 0; i < n; i++) {
        NodeInfo node = nodes.get(i);
        if (refs[i] != node || gens[i] != node.generation() || resized) {
          numChanged = addChanged(numChanged, i);
        }
      }
    }
    journal = jn;
    if (jn != null) {
      journalStructure = jn.structuralChanges();
      journalPosition = jn.position();
    }
    if (numChanged == 0 && totals != null) {
      return totals;
    }
    String namespace = pod.namespace();
    String[] newValues = new String[numChanged * nc];
    int[] newCounts = new int[numChanged * nc];
    int[] newOwn = new int[numChanged * nc];
    int[] changedAt = changed;
    parallelizer.until(
        numChanged,
        k -> {
          NodeInfo node = nodes.get(changedAt[k]);
          Map<String, String> labels = node.labels();
          boolean all = !requireAll || SpreadConstraint.nodeHasAllKeys(labels, cs);
          for (int j = 0; j < nc; j++) {
            int at = k * nc + j;
            newCounts[at] = -1;
            if (skipHostname && PodTopologySpread.LABEL_HOSTNAME.equals(cs[j].topologyKey())) {
              newOwn[at] =
                  labels.containsKey(cs[j].topologyKey())
                      ? cs[j].countMatching(node, namespace)
                      : 0;
              continue;
            }
            if (!all || !cs[j].matchesNodeInclusionPolicies(pod, node)) {
              continue;
            }
            newValues[at] = labels.getOrDefault(cs[j].topologyKey(), "");
            newCounts[at] = cs[j].countMatching(node, namespace);
          }
        });
    boolean rebuild = resized || totals == null;
    for (int k = 0; k < numChanged && !rebuild; k++) {
      int base = changedAt[k] * nc;
      for (int j = 0; j < nc; j++) {
        if ((counts[base + j] < 0) != (newCounts[k * nc + j] < 0)
            || (newCounts[k * nc + j] >= 0 && !values[base + j].equals(newValues[k * nc + j]))) {
          rebuild = true;
          break;
        }
      }
    }
    for (int k = 0; k < numChanged; k++) {
      int i = changedAt[k];
      NodeInfo node = nodes.get(i);
      refs[i] = node;
      gens[i] = node.generation();
      positions.put(node.name(), i);
      for (int j = 0; j < nc; j++) {
        int at = i * nc + j;
        own[at] = newOwn[k * nc + j];
        int c = newCounts[k * nc + j];
        if (!rebuild && c >= 0 && c != counts[at]) {
          totals[j].add(values[at], c - counts[at]);
        }
        values[at] = newValues[k * nc + j];
        counts[at] = c;
      }
    }
    if (rebuild) {
      totals = new ValueCounts[nc];
      for (int j = 0; j < nc; j++) {
        boolean hostname = PodTopologySpread.LABEL_HOSTNAME.equals(cs[j].topologyKey());
        totals[j] = new ValueCounts(hostname && !skipHostname ? n : 8);
      }
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < nc; j++) {
          int c = counts[i * nc + j];
          if (c >= 0) {
            totals[j].add(values[i * nc + j], c);
          }
        }
      }
    }
    return totals;
  }

  private int addChanged(int numChanged, int i) {
    if (numChanged == changed.length) {
      changed = Arrays.copyOf(changed, numChanged * 2);
    }
    changed[numChanged] = i;
    return numChanged + 1;
  }

  /**
   * Puts in {@code changed} the positions of the nodes that differ from the memo's, as the journal
   * names them (each once), and returns how many; {@code -1} when the journal cannot tell (another
   * journal, the list changed shape, or it no longer reaches back to the last update).
   */
  private int changedFromJournal(NodeJournal j, List<NodeInfo> nodes) {
    if (j != journal || j.structuralChanges() != journalStructure) {
      return -1;
    }
    List<String> names = j.changedSince(journalPosition);
    if (names == null) {
      return -1;
    }
    int numChanged = 0;
    for (String name : names) {
      int i = j.indexOf(name);
      if (i < 0 || i >= nodes.size()) {
        continue;
      }
      NodeInfo node = nodes.get(i);
      if (refs[i] != node || gens[i] != node.generation()) {
        refs[i] = null; // counted below; also marks it so a repeated name is listed once
        numChanged = addChanged(numChanged, i);
      }
    }
    return numChanged;
  }

  /**
   * Returns, for hostname constraint {@code j} of the last {@link #update} in PreScore mode, the
   * pods of {@code node} matching it when the node has the key, else 0: from the memo when it holds
   * this very node info at this generation, counted otherwise.
   */
  int hostnameCount(NodeInfo node, int j, SpreadConstraint[] cs, String namespace) {
    Integer at = positions.get(node.name());
    if (at != null && at < refs.length && refs[at] == node && gens[at] == node.generation()) {
      return own[at * cs.length + j];
    }
    return node.labels().containsKey(cs[j].topologyKey())
        ? cs[j].countMatching(node, namespace)
        : 0;
  }
}
