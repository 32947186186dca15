package io.kubesched.core.runtime;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Opportunistic batching (kube's KEP-5598, {@code OpportunisticBatching} gate): the feasible nodes
 * and raw scores of the last pod, reused by the next pod of the same signature.
 *
 * <p>A batch starts from a pod scheduled the usual way (its feasible nodes, and each Score plugin's
 * raw scores on them). The next pod with the same signature, in the same profile, reuses them when
 * the only nodes that changed in the snapshot since are nodes the batch placed pods on (its own
 * assumes, their bindings): those nodes are filtered and scored again for the new pod (dropped when
 * they no longer fit), the scores they change are weighed again ({@link ScoreRunner}: a plugin with
 * NormalizeScore is normalised again over the batch's nodes only when one of its raw scores
 * changed), and the host is picked among the best as usual. Anything else ends the batch: another
 * node changed, the node list changed, a pod is nominated somewhere, another signature or an
 * unsignable pod came, or no node is left. Unlike upstream's first version (which keeps a batch
 * only while each pod fills its node), the chosen node is scored again rather than the batch
 * dropped, so batches last while pods share nodes.
 *
 * <p>Where placements differ from batching off: the batch keeps the first pod's sample of feasible
 * nodes (with {@code percentageOfNodesToScore} below 100 the search does not rotate on through the
 * node list for batched pods), so batched pods pack onto that sample instead of the next nodes of
 * the list; with a full scan they are the same nodes and, with the same random tie-breaking, the
 * same choices. Every placement still passed every Filter plugin on the node's current state.
 *
 * <p>Used by the single scheduling thread; not thread-safe.
 */
final class OpportunisticBatch {
  private Framework fwk;
  private PodSignature signature;
  // The batch's nodes over an array that the score tables handed out share (they read only the
  // nodes' names): a node info is replaced in place by a newer one of the same node, a removal
  // makes a new array.
  private FeasibleNodes nodes;
  private RawScores raw;
  private long structuralChanges;
  private long position;
  private final Set<String> placed = new HashSet<>();
  // Each batch node's position in nodes, by name; null after a removal until asked again.
  private Map<String, Integer> positions;

  /** Forgets the batch. */
  void clear() {
    fwk = null;
    signature = null;
    nodes = null;
    raw = null;
    positions = null;
    placed.clear();
  }

  /** Returns whether a batch is held (for tests). */
  boolean active() {
    return nodes != null;
  }

  /**
   * Starts a batch from a pod scheduled the usual way on {@code host}, with {@code feasible} nodes
   * and their raw scores {@code raw}.
   */
  void start(
      Framework fwk,
      PodSignature signature,
      List<NodeInfo> feasible,
      RawScores raw,
      String host,
      NodeChanges changes) {
    clear();
    if (raw == null || raw.plugins.isEmpty() || feasible.size() < 2) {
      return;
    }
    this.fwk = fwk;
    this.signature = signature;
    this.nodes = new FeasibleNodes(feasible.toArray(new NodeInfo[0]), null, null);
    this.raw = raw;
    this.structuralChanges = changes.structuralChanges();
    this.position = changes.position();
    placed.add(host);
  }

  /**
   * Schedules {@code pod} from the batch, or returns {@code null} (and forgets the batch) when the
   * batch does not apply; the caller then schedules the pod the usual way.
   */
  ScheduleResult schedule(
      SchedulingAlgorithm algorithm,
      Framework fwk,
      CycleState state,
      PodInfo pod,
      PodSignature signature,
      NodeInfoLister snapshot,
      NodeChanges changes,
      boolean anyNominated) {
    if (nodes == null
        || fwk != this.fwk
        || !signature.equals(this.signature)
        || anyNominated
        || changes.structuralChanges() != structuralChanges) {
      clear();
      return null;
    }
    List<String> changed = changes.changedSince(position);
    if (changed == null) {
      clear();
      return null;
    }
    int count = changed.size();
    for (int c = 0; c < count; c++) {
      if (!placed.contains(changed.get(c))) {
        clear();
        return null;
      }
    }
    Framework.PreFilterOutcome pre = fwk.runPreFilterPlugins(state, pod, snapshot.list());
    if (!pre.status().isSuccess()) {
      clear();
      return null;
    }
    // The changed nodes of the batch (each once): current NodeInfo, Filter again, drop or score
    // again. A batched pod changes a node or two, so duplicates are found by scanning.
    int[] rescore = new int[count];
    int rescored = 0;
    for (int c = 0; c < count; c++) {
      String name = changed.get(c);
      if (changed.subList(0, c).contains(name)) {
        continue;
      }
      int i = indexOf(name);
      if (i < 0) {
        continue;
      }
      NodeInfo fresh = snapshot.find(name);
      if (fresh == null) {
        clear();
        return null;
      }
      Status s = fwk.runFilterPluginsWithNominatedPods(state, pod, fresh);
      if (s.code() == Status.Code.ERROR) {
        clear();
        return null;
      }
      if (s.isSuccess()) {
        nodes.array()[i] = fresh;
        rescore[rescored++] = i;
      } else {
        NodeInfo[] left = new NodeInfo[nodes.size() - 1];
        System.arraycopy(nodes.array(), 0, left, 0, i);
        System.arraycopy(nodes.array(), i + 1, left, i, left.length - i);
        nodes = new FeasibleNodes(left, null, null);
        positions = null;
        raw.remove(i);
        for (int k = 0; k < rescored; k++) {
          if (rescore[k] > i) {
            rescore[k]--;
          }
        }
      }
    }
    if (nodes.size() < 2) {
      clear();
      return null;
    }
    Status preScore = fwk.runPreScorePlugins(state, pod, nodes);
    if (!preScore.isSuccess()) {
      clear();
      return null;
    }
    int[] again = rescored == count ? rescore : Arrays.copyOf(rescore, rescored);
    RawScores next = new RawScores();
    Framework.ScoreOutcome scored = fwk.runScorePlugins(state, pod, nodes, raw, again, next);
    if (!scored.status().isSuccess()) {
      clear();
      return null;
    }
    String host =
        algorithm.selectHost(
            scored.scores(), SchedulingAlgorithm.NUMBER_OF_HIGHEST_SCORED_NODES_TO_REPORT);
    raw = next;
    position = changes.position();
    placed.add(host);
    return new ScheduleResult(
        host, nodes.size(), nodes.size(), scored.scores(), new NodeToStatus());
  }

  /** Returns the position of node {@code name} in the batch, or -1 (a map, not a scan). */
  private int indexOf(String name) {
    if (positions == null) {
      positions = new HashMap<>(nodes.size() * 2);
      for (int i = 0; i < nodes.size(); i++) {
        positions.put(nodes.get(i).name(), i);
      }
    }
    Integer i = positions.get(name);
    return i == null ? -1 : i;
  }
}
