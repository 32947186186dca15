package io.kubesched.plugins.interpodaffinity;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeJournal;
import io.kubesched.framework.Parallelizer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The sum over a node list of per-node {@link TopologyCounts}, kept from one scheduling cycle to
 * the next so that only the nodes that changed are computed again.
 *
 * <p>A node's contribution is a pure function of the node info's content and of the memo's key (the
 * caller keys memos by everything else the function reads). It is reused while the list holds the
 * very same {@link NodeInfo} object with the same {@link NodeInfo#generation()} (a node info
 * changes generation on every change of its node or pods; pods are immutable). The sum is patched
 * by subtracting a node's old contribution and adding the new one; a second table counts, per pair,
 * the contributions holding it, so the number of pairs a fresh merge would have created is known
 * exactly.
 *
 * <p>When the nodes are the lister's whole list and the lister keeps a {@link NodeJournal}, the
 * nodes to look at again are the ones the journal names since the last update, not every node. Not
 * thread-safe: callers lock.
 */
final class PairMemo {
  private static final int MAX_MEMOS = 32;

  /** A bounded, least-recently-used map of memos by key. Not thread-safe: callers lock. */
  static final class Store {
    private final LinkedHashMap<List<Object>, PairMemo> memos =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<List<Object>, PairMemo> eldest) {
            return size() > MAX_MEMOS;
          }
        };

    /** Returns the memo of {@code key}, creating an empty one. */
    PairMemo get(List<Object> key) {
      return memos.computeIfAbsent(key, k -> new PairMemo());
    }
  }

  private static final class Entry {
    NodeInfo ref;
    long gen;
    TopologyCounts local;
    long epoch;
  }

  private Entry[] byPos = new Entry[0];

  /** Per list position: the node info and generation {@code byPos} was computed for. */
  private NodeInfo[] posRef = new NodeInfo[0];

  private long[] posGen = new long[0];
  private final HashMap<String, Entry> byName = new HashMap<>();
  private TopologyCounts sum = new TopologyCounts();
  private TopologyCounts refs = new TopologyCounts();
  private long epoch;
  private int[] changed = new int[16];

  // The lister's journal and where it stood at the last update, when that update covered the
  // lister's whole list: the next update then computes only the nodes the journal names.
  private @Nullable NodeJournal journal;
  private long journalStructure;
  private long journalPosition;

  /**
   * Brings the memo up to date with {@code nodes} and returns a new copy of the sum of {@code
   * compute} over them, equal (counts, emptiness, pairs created) to merging the contributions in a
   * fresh table; {@code compute} returns {@code null} for a node contributing nothing.
   */
  TopologyCounts update(
      NodeInfoLister lister,
      List<NodeInfo> nodes,
      Function<NodeInfo, TopologyCounts> compute,
      Parallelizer parallelizer) {
    int n = nodes.size();
    NodeJournal jn = nodes == lister.list() ? lister.journal() : null;
    if (jn != null
        && jn == journal
        && jn.structuralChanges() == journalStructure
        && byPos.length == n
        && byName.size() == n) {
      List<String> names = jn.changedSince(journalPosition);
      if (names != null) {
        journalPosition = jn.position();
        updateNamed(jn, names, nodes, compute, parallelizer);
        return sum.copyWithCreated(refs.nonZeroCount());
      }
    }
    journal = null;
    TopologyCounts out = updateByScan(nodes, compute, parallelizer);
    if (jn != null) {
      journal = jn;
      journalStructure = jn.structuralChanges();
      journalPosition = jn.position();
    }
    return out;
  }

  /**
   * Computes again the nodes the journal names (the others are, by the journal's contract, the very
   * node infos the memo holds) and patches the sum.
   */
  private void updateNamed(
      NodeJournal jn,
      List<String> names,
      List<NodeInfo> nodes,
      Function<NodeInfo, TopologyCounts> compute,
      Parallelizer parallelizer) {
    int numChanged = 0;
    for (String name : names) {
      int i = jn.indexOf(name);
      if (i < 0 || i >= nodes.size()) {
        continue;
      }
      NodeInfo node = nodes.get(i);
      if (posRef[i] != node || posGen[i] != node.generation()) {
        posRef[i] = null; // computed below; also marks it so a repeated name is listed once
        if (numChanged == changed.length) {
          changed = Arrays.copyOf(changed, numChanged * 2);
        }
        changed[numChanged++] = i;
      }
    }
    int[] changedAt = changed;
    TopologyCounts[] locals = new TopologyCounts[numChanged];
    parallelizer.until(numChanged, k -> locals[k] = compute.apply(nodes.get(changedAt[k])));
    for (int k = 0; k < numChanged; k++) {
      int i = changedAt[k];
      NodeInfo node = nodes.get(i);
      Entry e = byPos[i];
      replace(e, node, locals[k]);
      posRef[i] = node;
      posGen[i] = e.gen;
    }
  }

  private TopologyCounts updateByScan(
      List<NodeInfo> nodes, Function<NodeInfo, TopologyCounts> compute, Parallelizer parallelizer) {
    int n = nodes.size();
    if (byPos.length != n) {
      byPos = Arrays.copyOf(byPos, n);
      posRef = Arrays.copyOf(posRef, n);
      posGen = Arrays.copyOf(posGen, n);
    }
    NodeInfo[] seenRefs = posRef;
    long[] seenGens = posGen;
    int numChanged = 0;
    for (int i = 0; i < n; i++) {
      NodeInfo node = nodes.get(i);
      if (seenRefs[i] != node || seenGens[i] != node.generation() || byPos[i] == null) {
        Entry e = byName.get(node.name());
        if (e != null && e.ref == node && e.gen == node.generation()) {
          byPos[i] = e;
          seenRefs[i] = node;
          seenGens[i] = e.gen;
          continue;
        }
        if (numChanged == changed.length) {
          changed = Arrays.copyOf(changed, numChanged * 2);
        }
        changed[numChanged++] = i;
        byPos[i] = null;
      }
    }
    if (numChanged > 0 || byName.size() != n) {
      int[] changedAt = changed;
      TopologyCounts[] locals = new TopologyCounts[numChanged];
      parallelizer.until(numChanged, k -> locals[k] = compute.apply(nodes.get(changedAt[k])));
      for (int k = 0; k < numChanged; k++) {
        NodeInfo node = nodes.get(changedAt[k]);
        Entry e = byName.get(node.name());
        if (e == null) {
          e = new Entry();
          byName.put(node.name(), e);
        }
        replace(e, node, locals[k]);
        byPos[changedAt[k]] = e;
        seenRefs[changedAt[k]] = node;
        seenGens[changedAt[k]] = e.gen;
      }
      epoch++;
      for (int i = 0; i < n; i++) {
        Entry e = byPos[i];
        if (e.epoch == epoch) {
          // Two list positions share a name: the memo cannot tell them apart.
          reset();
          return fresh(nodes, compute, parallelizer);
        }
        e.epoch = epoch;
      }
      if (byName.size() != n) {
        for (Iterator<Entry> it = byName.values().iterator(); it.hasNext(); ) {
          Entry e = it.next();
          if (e.epoch != epoch) {
            if (e.local != null) {
              sum.addAll(e.local, -1, refs);
            }
            it.remove();
          }
        }
      }
    }
    return sum.copyWithCreated(refs.nonZeroCount());
  }

  /** Takes {@code e}'s contribution out of the sum and puts {@code local}, for {@code node}, in. */
  private void replace(Entry e, NodeInfo node, TopologyCounts local) {
    if (e.local != null) {
      sum.addAll(e.local, -1, refs);
    }
    e.ref = node;
    e.gen = node.generation();
    e.local = local;
    if (local != null) {
      sum.addAll(local, 1, refs);
    }
  }

  /** Returns the sum of {@code compute} over {@code nodes}, merged in list order, without memo. */
  static TopologyCounts fresh(
      List<NodeInfo> nodes, Function<NodeInfo, TopologyCounts> compute, Parallelizer parallelizer) {
    TopologyCounts[] locals = new TopologyCounts[nodes.size()];
    parallelizer.until(nodes.size(), i -> locals[i] = compute.apply(nodes.get(i)));
    TopologyCounts result = new TopologyCounts();
    for (TopologyCounts c : locals) {
      if (c != null) {
        result.merge(c);
      }
    }
    return result;
  }

  private void reset() {
    Arrays.fill(byPos, null);
    Arrays.fill(posRef, null);
    byName.clear();
    sum = new TopologyCounts();
    refs = new TopologyCounts();
  }
}
