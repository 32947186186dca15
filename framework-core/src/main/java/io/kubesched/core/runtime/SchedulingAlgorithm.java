package io.kubesched.core.runtime;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeJournal;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the node for a pod (kube's {@code schedulePod}, {@code findNodesThatFitPod}, {@code
 * findNodesThatPassFilters}, {@code numFeasibleNodesToFind}, {@code prioritizeNodes} and {@code
 * selectHost}).
 *
 * <p>One instance serves every profile and keeps the rotating start index of the feasible-node
 * search, so that successive pods start their search where the previous one stopped. Called from
 * the single scheduling thread; not thread-safe.
 */
public final class SchedulingAlgorithm {
  private static final Logger log = LoggerFactory.getLogger(SchedulingAlgorithm.class);

  /** Below this many nodes every node is evaluated (kube's {@code minFeasibleNodesToFind}). */
  public static final int MIN_FEASIBLE_NODES_TO_FIND = 100;

  /** The lowest adaptive percentage (kube's {@code minFeasibleNodesPercentageToFind}). */
  public static final int MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

  /** How many best nodes {@link #selectHost} collects at least (for reporting). */
  public static final int NUMBER_OF_HIGHEST_SCORED_NODES_TO_REPORT = 3;

  private final Random random;
  private int nextStartNodeIndex;
  private final OpportunisticBatch batch = new OpportunisticBatch();
  // findNodesThatPassFilters' rejections by walk position, reused (all null between cycles)
  private Status[] failuresScratch = new Status[0];
  // selectHost's weighted totals of a score table, reused
  private long[] totalsScratch = new long[0];
  // the Filter phase's working arrays of each thread (the scheduling thread and the workers)
  private final ThreadLocal<FilterScratch> filterScratch =
      ThreadLocal.withInitial(FilterScratch::new);

  /** Creates the algorithm; {@code random} breaks ties between best-scored nodes. */
  public SchedulingAlgorithm(Random random) {
    this.random = Objects.requireNonNull(random, "random must not be null");
  }

  /** Returns the index in the node list where the next feasible-node search starts. */
  public int nextStartNodeIndex() {
    return nextStartNodeIndex;
  }

  /** Sets the start index of the next search (tests). */
  void setNextStartNodeIndex(int index) {
    this.nextStartNodeIndex = index;
  }

  /**
   * Schedules {@code pod} with the plugins of {@code fwk} on {@code snapshot}: PreFilter, the
   * nominated node first, Filter over enough nodes, then (with more than one feasible node)
   * PreScore, Score and a random pick among the best.
   *
   * @return the chosen node, the evaluated and feasible counts, the scores and node statuses
   * @throws NoNodesAvailableException when the snapshot has no node
   * @throws FitError when no node fits
   * @throws SchedulingException with kube's message on an internal error (a plugin's Error)
   */
  public ScheduleResult schedulePod(
      Framework fwk, CycleState state, PodInfo pod, NodeInfoLister snapshot) throws FitError {
    return schedulePod(fwk, state, pod, snapshot, null, null);
  }

  /**
   * Schedules {@code pod} as {@link #schedulePod(Framework, CycleState, PodInfo, NodeInfoLister)}
   * does, with opportunistic batching when the {@code OpportunisticBatching} gate is on: a pod
   * whose signature ({@link Framework#signPod}) equals the previous pod's reuses that pod's
   * feasible nodes and raw scores, re-checking only the nodes that changed since ({@link
   * OpportunisticBatch}).
   *
   * @param changes what changed in {@code snapshot} between cycles
   * @param anyNominated whether any pod is nominated to a node now (batching is off then)
   */
  public ScheduleResult schedulePod(
      Framework fwk,
      CycleState state,
      PodInfo pod,
      NodeInfoLister snapshot,
      NodeChanges changes,
      boolean anyNominated)
      throws FitError {
    if (changes == null || !fwk.featureGates().enabled(FeatureGates.OPPORTUNISTIC_BATCHING)) {
      batch.clear();
      return schedulePod(fwk, state, pod, snapshot, null, null);
    }
    String nominated = pod.nominatedNodeName();
    Optional<PodSignature> signature =
        nominated == null || nominated.isEmpty() ? fwk.signPod(pod) : Optional.empty();
    if (signature.isEmpty()) {
      batch.clear();
      return schedulePod(fwk, state, pod, snapshot, null, null);
    }
    ScheduleResult batched =
        batch.schedule(this, fwk, state, pod, signature.get(), snapshot, changes, anyNominated);
    if (batched != null) {
      return batched;
    }
    RawScores raw = new RawScores();
    List<List<NodeInfo>> feasible = new ArrayList<>(1);
    ScheduleResult result = schedulePod(fwk, state, pod, snapshot, raw, feasible);
    if (!anyNominated && !feasible.isEmpty()) {
      batch.start(fwk, signature.get(), feasible.get(0), raw, result.suggestedHost(), changes);
    }
    return result;
  }

  /** Returns whether a batch is held (tests). */
  boolean batchActive() {
    return batch.active();
  }

  private ScheduleResult schedulePod(
      Framework fwk,
      CycleState state,
      PodInfo pod,
      NodeInfoLister snapshot,
      RawScores keepRaw,
      List<List<NodeInfo>> feasibleOut)
      throws FitError {
    List<NodeInfo> allNodes = snapshot.list();
    if (allNodes.isEmpty()) {
      throw new NoNodesAvailableException();
    }
    Diagnosis diagnosis = new Diagnosis();
    List<NodeInfo> feasible = findNodesThatFitPod(fwk, state, pod, snapshot, allNodes, diagnosis);
    NodeToStatus statuses = diagnosis.nodeToStatus();
    if (feasible.isEmpty()) {
      throw new FitError(pod, allNodes.size(), diagnosis);
    }
    if (feasible.size() == 1) {
      return new ScheduleResult(
          feasible.get(0).name(), 1 + statuses.size(), 1, List.of(), statuses);
    }
    List<NodePluginScores> scores = prioritizeNodes(fwk, state, pod, feasible, keepRaw);
    if (feasibleOut != null && fwk.extenders().isEmpty()) {
      feasibleOut.add(feasible);
    }
    String host = selectHost(scores, NUMBER_OF_HIGHEST_SCORED_NODES_TO_REPORT);
    return new ScheduleResult(
        host, feasible.size() + statuses.size(), feasible.size(), scores, statuses);
  }

  /**
   * Returns the nodes that pass PreFilter and Filter (kube's {@code findNodesThatFitPod}),
   * recording the rejections in {@code diagnosis}.
   */
  List<NodeInfo> findNodesThatFitPod(
      Framework fwk,
      CycleState state,
      PodInfo pod,
      NodeInfoLister snapshot,
      List<NodeInfo> allNodes,
      Diagnosis diagnosis) {
    Framework.PreFilterOutcome pre = fwk.runPreFilterPlugins(state, pod, allNodes);
    diagnosis.addUnschedulablePlugins(pre.unschedulablePlugins());
    Status s = pre.status();
    if (!s.isSuccess()) {
      if (!s.isRejected()) {
        throw toException(s);
      }
      diagnosis.nodeToStatus().setAbsentNodesStatus(s);
      diagnosis.setPreFilterMsg(s.message());
      log.atTrace()
          .setMessage("status after running PreFilter plugins for pod")
          .addKeyValue("pod", pod.key())
          .addKeyValue("status", s)
          .log();
      diagnosis.addPluginStatus(s);
      return List.of();
    }

    String nominated = pod.nominatedNodeName();
    if (nominated != null && !nominated.isEmpty()) {
      NodeInfo n = snapshot.find(nominated);
      if (n == null) {
        log.atWarn()
            .setMessage("evaluation failed on nominated node: node not found")
            .addKeyValue("pod", pod.key())
            .addKeyValue("node", nominated)
            .log();
      } else {
        try {
          List<NodeInfo> feasible =
              findNodesThatPassFilters(fwk, state, pod, diagnosis, List.of(n));
          feasible = findNodesThatPassExtenders(fwk, pod, feasible, diagnosis.nodeToStatus());
          if (!feasible.isEmpty()) {
            return feasible;
          }
        } catch (SchedulingException e) {
          log.atWarn()
              .setMessage("evaluation failed on nominated node")
              .addKeyValue("pod", pod.key())
              .addKeyValue("node", nominated)
              .setCause(e)
              .log();
        }
      }
    }

    List<NodeInfo> nodes = allNodes;
    if (!pre.allNodes()) {
      // Kube walks the result's set (a map, in random order); walking the snapshot instead keeps
      // the node-tree order, so runs are reproducible, and drops unknown names the same way.
      nodes = nodesInListOrder(snapshot, allNodes, pre.nodeNames());
      diagnosis
          .nodeToStatus()
          .setAbsentNodesStatus(
              Status.unresolvable(
                  "node(s) didn't satisfy plugin(s) "
                      + Framework.goList(new java.util.TreeSet<>(pre.unschedulablePlugins()))));
    }
    List<NodeInfo> feasible = null;
    try {
      feasible =
          findNodesThatPassFilters(
              fwk,
              state,
              pod,
              diagnosis,
              nodes,
              nodes == allNodes && allNodes == snapshot.list() ? snapshot.columns() : null,
              snapshot.journal());
    } finally {
      int processed = (feasible == null ? 0 : feasible.size()) + diagnosis.nodeToStatus().size();
      nextStartNodeIndex = (nextStartNodeIndex + processed) % allNodes.size();
    }
    List<NodeInfo> afterExtenders =
        findNodesThatPassExtenders(fwk, pod, feasible, diagnosis.nodeToStatus());
    if (afterExtenders.size() != feasible.size()) {
      diagnosis.addUnschedulablePlugin(Framework.EXTENDER_NAME);
    }
    return afterExtenders;
  }

  private static boolean hasExtenderFilters(Framework fwk) {
    for (SchedulerExtender e : fwk.extenders()) {
      if (e.isFilter()) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasScoring(Framework fwk) {
    if (fwk.hasScorePlugins()) {
      return true;
    }
    for (SchedulerExtender e : fwk.extenders()) {
      if (e.isPrioritizer()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs the interested extenders' filters one after the other on the remaining feasible nodes
   * (kube's {@code findNodesThatPassExtenders}); rejected nodes get a status in {@code statuses}.
   *
   * @throws SchedulingException when a non-ignorable extender fails
   */
  static List<NodeInfo> findNodesThatPassExtenders(
      Framework fwk, PodInfo pod, List<NodeInfo> feasible, NodeToStatus statuses) {
    for (SchedulerExtender e : fwk.extenders()) {
      if (feasible.isEmpty()) {
        break;
      }
      // An extender without filter verb passes every node (kube's HTTPExtender.Filter).
      if (!e.isFilter() || !e.isInterested(pod)) {
        continue;
      }
      SchedulerExtender.FilterResult r;
      try {
        r = e.filter(pod, feasible);
      } catch (SchedulingException ex) {
        if (e.isIgnorable()) {
          log.atInfo()
              .setMessage("skipping extender as it returned error and has ignorable flag set")
              .addKeyValue("pod", pod.key())
              .addKeyValue("extender", e.name())
              .addKeyValue("err", ex.getMessage())
              .log();
          continue;
        }
        throw ex;
      }
      r.failedAndUnresolvable()
          .forEach((node, msg) -> statuses.set(node, Status.unresolvable(msg)));
      r.failed()
          .forEach(
              (node, msg) -> {
                if (!r.failedAndUnresolvable().containsKey(node)) {
                  statuses.set(node, Status.unschedulable(msg));
                }
              });
      feasible = r.feasible();
    }
    return feasible;
  }

  /**
   * Returns the nodes of {@code allNodes} (the snapshot's list) named in {@code wanted}, in list
   * order, unknown names dropped. A few names (a DaemonSet pod's node, say) are looked up by
   * position instead of walking every node of the cluster.
   */
  static List<NodeInfo> nodesInListOrder(
      NodeInfoLister snapshot, List<NodeInfo> allNodes, Set<String> wanted) {
    NodeJournal positions = snapshot.journal();
    if (positions != null && snapshot.list() == allNodes && wanted.size() * 8L < allNodes.size()) {
      int[] at = new int[wanted.size()];
      int found = 0;
      for (String name : wanted) {
        int i = positions.indexOf(name);
        if (i >= 0 && i < allNodes.size() && allNodes.get(i).name().equals(name)) {
          at[found++] = i;
        }
      }
      Arrays.sort(at, 0, found);
      List<NodeInfo> out = new ArrayList<>(found);
      for (int k = 0; k < found; k++) {
        out.add(allNodes.get(at[k]));
      }
      return out;
    }
    List<NodeInfo> out = new ArrayList<>(Math.min(wanted.size(), allNodes.size()));
    for (NodeInfo n : allNodes) {
      if (wanted.contains(n.name())) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * Filters {@code nodes} from the rotating start index, in parallel, until enough feasible nodes
   * are found (kube's {@code findNodesThatPassFilters}); failures go to {@code diagnosis}.
   *
   * @throws SchedulingException when a Filter plugin returned an Error
   */
  List<NodeInfo> findNodesThatPassFilters(
      Framework fwk, CycleState state, PodInfo pod, Diagnosis diagnosis, List<NodeInfo> nodes) {
    return findNodesThatPassFilters(fwk, state, pod, diagnosis, nodes, null, null);
  }

  /**
   * The same, with {@code columns} the flat values of {@code nodes} when {@code nodes} is the
   * snapshot's own list (row {@code i} for {@code nodes.get(i)}), else {@code null}, and {@code
   * rows} the snapshot's names to rows (or {@code null}).
   */
  private List<NodeInfo> findNodesThatPassFilters(
      Framework fwk,
      CycleState state,
      PodInfo pod,
      Diagnosis diagnosis,
      List<NodeInfo> nodes,
      NodeColumns snapshotColumns,
      NodeJournal rows) {
    int numAllNodes = nodes.size();
    NodeColumns columns =
        snapshotColumns != null && snapshotColumns.size() == numAllNodes ? snapshotColumns : null;
    int numNodesToFind =
        numFeasibleNodesToFind(
            fwk.percentageOfNodesToScore(), fwk.globalPercentageOfNodesToScore(), numAllNodes);
    if (!hasExtenderFilters(fwk) && !hasScoring(fwk)) {
      numNodesToFind = 1;
    }
    int start = nextStartNodeIndex;
    if (!fwk.hasFilterPlugins()) {
      List<NodeInfo> out = new ArrayList<>(numNodesToFind);
      for (int i = 0; i < numNodesToFind && numAllNodes > 0; i++) {
        out.add(nodes.get((start + i) % numAllNodes));
      }
      return out;
    }

    long begin = System.nanoTime();
    NodeInfo[] feasible = new NodeInfo[numNodesToFind];
    int[] feasibleRows = columns == null ? null : new int[numNodesToFind];
    // the rejections by walk position, in an array kept between cycles (all null between them):
    // the walk touches only the positions below `walked`
    Status[] failures =
        failuresScratch.length >= numAllNodes ? failuresScratch : new Status[numAllNodes];
    failuresScratch = new Status[0]; // taken; given back clean below
    AtomicInteger walked = new AtomicInteger();
    AtomicInteger feasibleLen = new AtomicInteger();
    AtomicReference<Status> error = new AtomicReference<>();
    int toFind = numNodesToFind;
    // the nominated pods of every node, read once for the phase; null asks node by node, which is
    // cheaper for a few nodes (the nominated node's own evaluation) than resolving every nomination
    Map<String, List<PodInfo>> nominated =
        numAllNodes < FEW_NODES ? null : fwk.nominator().nominatedPodsByNode();
    // with the snapshot's rows, the nominated pods by row: the walk then looks a node up by row
    // instead of hashing every node's name
    List<PodInfo>[] nominatedByRow =
        nominated == null || nominated.isEmpty() || columns == null || rows == null
            ? null
            : nominatedByRow(nominated, rows, numAllNodes);
    if (fwk.parallelizer().parallelism() <= 1) {
      // One worker: the same walk as the parallel loop's (it, too, goes on after the last node
      // needed until one more fits, recording the rejections met on the way), without its atomics,
      // a block of nodes at a time. A block holds at most as many nodes as successes are still
      // needed to stop, so the walk can only stop at its last node or at an Error (after which no
      // plugin runs on the block's later nodes): the plugins see exactly the calls of the walk
      // node by node.
      int found = 0;
      FilterScratch scratch = filterScratch.get();
      Status[] block = scratch.block;
      walk:
      for (int i = 0; i < numAllNodes; ) {
        int size = Math.min(numAllNodes - i, Math.min(toFind - found + 1, MAX_FILTER_BLOCK));
        walked.set(i + size);
        filterBlock(
            fwk,
            state,
            pod,
            nodes,
            columns,
            start,
            i,
            size,
            nominated,
            nominatedByRow,
            block,
            scratch);
        for (int k = 0; k < size; k++, i++) {
          Status s = block[k];
          if (s.code() == Status.Code.ERROR) {
            error.set(s);
            break walk;
          }
          if (s.isSuccess()) {
            if (found == toFind) {
              break walk;
            }
            int row = scratch.blockRows[k];
            if (feasibleRows != null) {
              feasibleRows[found] = row;
            }
            feasible[found++] = columns != null ? columns.node(row) : nodes.get(row);
          } else {
            failures[i] = s;
          }
        }
      }
      feasibleLen.set(found);
    } else {
      AtomicBoolean cancelled = new AtomicBoolean();
      int blocks = (numAllNodes + PARALLEL_FILTER_BLOCK - 1) / PARALLEL_FILTER_BLOCK;
      fwk.parallel(
          blocks,
          b -> {
            int from = b * PARALLEL_FILTER_BLOCK;
            int size = Math.min(PARALLEL_FILTER_BLOCK, numAllNodes - from);
            walked.accumulateAndGet(from + size, Math::max);
            FilterScratch scratch = filterScratch.get();
            Status[] block = scratch.block;
            filterBlock(
                fwk,
                state,
                pod,
                nodes,
                columns,
                start,
                from,
                size,
                nominated,
                nominatedByRow,
                block,
                scratch);
            for (int k = 0; k < size; k++) {
              int i = from + k;
              Status s = block[k];
              if (s.code() == Status.Code.ERROR) {
                error.compareAndSet(null, s);
                cancelled.set(true);
                return;
              }
              if (s.isSuccess()) {
                if (cancelled.get()) {
                  return;
                }
                int length = feasibleLen.incrementAndGet();
                if (length > toFind) {
                  cancelled.set(true);
                  feasibleLen.decrementAndGet();
                  return;
                } else {
                  int row = scratch.blockRows[k];
                  if (feasibleRows != null) {
                    feasibleRows[length - 1] = row;
                  }
                  feasible[length - 1] = columns != null ? columns.node(row) : nodes.get(row);
                }
              } else {
                failures[i] = s;
              }
            }
          },
          cancelled::get);
    }
    int len = feasibleLen.get();
    List<NodeInfo> out =
        new FeasibleNodes(
            len == feasible.length ? feasible : Arrays.copyOf(feasible, len),
            columns,
            feasibleRows == null || len == feasibleRows.length
                ? feasibleRows
                : Arrays.copyOf(feasibleRows, len));
    int hi = Math.min(numAllNodes, walked.get());
    int rejected = 0;
    for (int i = 0; i < hi; i++) {
      Status s = failures[i];
      if (s != null) {
        rejected++;
        diagnosis.addPluginStatus(s);
      }
    }
    if (rejected > 0) {
      diagnosis.nodeToStatus().setAll(nodes, start, Arrays.copyOf(failures, hi));
      Arrays.fill(failures, 0, hi, null);
    }
    failuresScratch = failures;
    if (feasibleLen.get() == 0) {
      // the pod fails this cycle: its statuses will be read (FitError, PostFilter), build them
      // while the snapshot's node list is the one they index
      diagnosis.nodeToStatus().materialize();
    }
    Status err = error.get();
    fwk.metrics()
        .extensionPointDuration(
            "Filter",
            err == null ? "Success" : "Error",
            fwk.profileName(),
            Duration.ofNanos(System.nanoTime() - begin));
    if (err != null) {
      throw toException(err);
    }
    return out;
  }

  /**
   * Returns how many feasible nodes to find among {@code numAllNodes} (kube's {@code
   * numFeasibleNodesToFind}): all below 100 nodes; else the profile's percentage, or the global
   * one, or when 0 the adaptive {@code max(5, 50 - n/125)}; never fewer than 100.
   */
  public static int numFeasibleNodesToFind(
      Integer profilePercentage, int globalPercentage, int numAllNodes) {
    if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) {
      return numAllNodes;
    }
    int percentage = profilePercentage != null ? profilePercentage : globalPercentage;
    if (percentage == 0) {
      percentage = 50 - numAllNodes / 125;
      if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) {
        percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
      }
    }
    int numNodes = (int) ((long) numAllNodes * percentage / 100);
    return Math.max(numNodes, MIN_FEASIBLE_NODES_TO_FIND);
  }

  /**
   * Scores the feasible nodes (kube's {@code prioritizeNodes}): without Score plugins every node
   * scores 1; else PreScore then Score.
   *
   * @throws SchedulingException on a PreScore or Score error
   */
  List<NodePluginScores> prioritizeNodes(
      Framework fwk, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return prioritizeNodes(fwk, state, pod, nodes, null);
  }

  private List<NodePluginScores> prioritizeNodes(
      Framework fwk, CycleState state, PodInfo pod, List<NodeInfo> nodes, RawScores keepRaw) {
    if (fwk.extenders().isEmpty() && !fwk.hasScorePlugins()) {
      List<NodePluginScores> out = new ArrayList<>(nodes.size());
      for (NodeInfo n : nodes) {
        out.add(new NodePluginScores(n.name(), null, 1));
      }
      return out;
    }
    Status pre = fwk.runPreScorePlugins(state, pod, nodes);
    if (!pre.isSuccess()) {
      throw toException(pre);
    }
    FeasibleNodes rows = nodes instanceof FeasibleNodes f && f.columns() != null ? f : null;
    Framework.ScoreOutcome scored =
        fwk.runScorePlugins(
            state,
            pod,
            nodes,
            null,
            null,
            keepRaw,
            rows == null ? null : rows.columns(),
            rows == null ? null : rows.rows());
    if (!scored.status().isSuccess()) {
      throw toException(scored.status());
    }
    if (log.isTraceEnabled()) {
      for (NodePluginScores ns : scored.scores()) {
        ns.scores()
            .forEach(
                (plugin, score) ->
                    log.atTrace()
                        .setMessage("plugin scored node for pod")
                        .addKeyValue("pod", pod.key())
                        .addKeyValue("plugin", plugin)
                        .addKeyValue("node", ns.name())
                        .addKeyValue("score", score)
                        .log());
      }
    }
    List<NodePluginScores> result = scored.scores();
    if (!fwk.extenders().isEmpty() && !nodes.isEmpty()) {
      result = addExtenderScores(fwk, pod, nodes, result);
    }
    return result;
  }

  /**
   * Adds the interested extenders' scores, each {@code score * weight * (100 / 10)}; an extender
   * that fails is ignored, as in kube.
   */
  private static List<NodePluginScores> addExtenderScores(
      Framework fwk, PodInfo pod, List<NodeInfo> nodes, List<NodePluginScores> pluginScores) {
    Map<String, Map<String, Long>> byNode = new LinkedHashMap<>();
    Map<String, Long> totals = new HashMap<>();
    // An extender without prioritize verb gives every node 0 (kube's HTTPExtender.Prioritize).
    List<SchedulerExtender> prioritizers = new ArrayList<>();
    for (SchedulerExtender e : fwk.extenders()) {
      if (e.isPrioritizer() && e.isInterested(pod)) {
        prioritizers.add(e);
      }
    }
    // the extenders are asked in parallel, as kube does; their scores are added in config order
    java.util.concurrent.atomic.AtomicReferenceArray<Map<String, Long>> answers =
        new java.util.concurrent.atomic.AtomicReferenceArray<>(prioritizers.size());
    fwk.parallel(
        prioritizers.size(),
        i -> {
          SchedulerExtender e = prioritizers.get(i);
          try {
            answers.set(i, e.prioritize(pod, nodes));
          } catch (RuntimeException ex) {
            log.atDebug()
                .setMessage("failed to run extender's priority function; no score given by it")
                .addKeyValue("pod", pod.key())
                .addKeyValue("extender", e.name())
                .addKeyValue("err", ex.getMessage())
                .log();
          }
        },
        () -> false);
    for (int i = 0; i < prioritizers.size(); i++) {
      SchedulerExtender e = prioritizers.get(i);
      Map<String, Long> prioritized = answers.get(i);
      if (prioritized == null) {
        continue;
      }
      long factor =
          e.weight()
              * (io.kubesched.framework.ScorePlugin.MAX_NODE_SCORE
                  / SchedulerExtender.MAX_EXTENDER_PRIORITY);
      prioritized.forEach(
          (node, score) -> {
            long finalScore = score * factor;
            byNode
                .computeIfAbsent(node, k -> new LinkedHashMap<>())
                .merge(e.name(), finalScore, Long::sum);
            totals.merge(node, finalScore, Long::sum);
          });
    }
    List<NodePluginScores> out = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      String name = nodes.get(i).name();
      NodePluginScores base =
          i < pluginScores.size() ? pluginScores.get(i) : new NodePluginScores(name, null, 0);
      Map<String, Long> extra = byNode.get(name);
      if (extra == null) {
        out.add(base);
        continue;
      }
      Map<String, Long> scores = new LinkedHashMap<>(base.scores());
      scores.putAll(extra);
      out.add(new NodePluginScores(name, scores, base.totalScore() + totals.get(name)));
    }
    return out;
  }

  /**
   * Picks the node with the highest total score (kube's {@code selectHost}); ties are broken by
   * reservoir sampling with the injected {@link Random}, so each tied node has the same chance. The
   * nodes are visited best first (ties in list order) until the best ones are exhausted and at
   * least {@code count} nodes were seen.
   *
   * @throws SchedulingException when {@code scores} is empty
   */
  String selectHost(List<NodePluginScores> scores, int count) {
    if (scores.isEmpty()) {
      throw new SchedulingException("empty priorityList");
    }
    // Equivalent to visiting a stable best-first sort: only the best-scored nodes matter, in list
    // order, each after the first drawing once; done in two linear passes without sorting.
    if (scores instanceof ScoreTable table) {
      return selectHost(table);
    }
    long best = Long.MIN_VALUE;
    for (int i = 0; i < scores.size(); i++) {
      best = Math.max(best, scores.get(i).totalScore());
    }
    int cntOfMaxScore = 0;
    NodePluginScores selected = null;
    for (int i = 0; i < scores.size(); i++) {
      NodePluginScores ns = scores.get(i);
      if (ns.totalScore() != best) {
        continue;
      }
      cntOfMaxScore++;
      if (cntOfMaxScore == 1 || random.nextInt(cntOfMaxScore) == 0) {
        selected = ns;
      }
    }
    return selected.name();
  }

  /** {@link #selectHost(List, int)} over a table's totals: the same node, the same draws. */
  private String selectHost(ScoreTable table) {
    int n = table.size();
    if (totalsScratch.length < n) {
      totalsScratch = new long[n];
    }
    long[] totals = totalsScratch;
    table.totals(totals);
    long best = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      best = Math.max(best, totals[i]);
    }
    int cntOfMaxScore = 0;
    int selected = -1;
    for (int i = 0; i < n; i++) {
      if (totals[i] != best) {
        continue;
      }
      cntOfMaxScore++;
      if (cntOfMaxScore == 1 || random.nextInt(cntOfMaxScore) == 0) {
        selected = i;
      }
    }
    return table.name(selected);
  }

  private static SchedulingException toException(Status s) {
    SchedulingException e = s.asException();
    return e != null ? e : new SchedulingException(s.message());
  }

  /** Below this many nodes the Filter phase asks for the nominated pods node by node. */
  private static final int FEW_NODES = 8;

  /** The most nodes the one-worker Filter walk filters at once. */
  private static final int MAX_FILTER_BLOCK = FilterScratch.BLOCK;

  /** The nodes a parallel Filter piece filters at once. */
  private static final int PARALLEL_FILTER_BLOCK = 32;

  /**
   * Filters the {@code size} nodes from walk position {@code from} (node {@code (start + from) % n}
   * first) into {@code out}: the nodes holding nominated pods one by one with those pods, the
   * others together ({@link Framework#runFilterPlugins(CycleState, PodInfo, NodeInfo[], int,
   * Status[])}).
   */
  private static void filterBlock(
      Framework fwk,
      CycleState state,
      PodInfo pod,
      List<NodeInfo> nodes,
      NodeColumns columns,
      int start,
      int from,
      int size,
      Map<String, List<PodInfo>> nominated,
      List<PodInfo>[] nominatedByRow,
      Status[] out,
      FilterScratch scratch) {
    int n = nodes.size();
    if (nominated == null) {
      for (int k = 0; k < size; k++) {
        scratch.blockRows[k] = (start + from + k) % n;
        out[k] = filterWithNominated(fwk, state, pod, nodes.get(scratch.blockRows[k]), null);
        if (out[k].code() == Status.Code.ERROR) {
          Arrays.fill(out, k + 1, size, out[k]);
          return;
        }
      }
      return;
    }
    NodeInfo[] plain = scratch.plain;
    int[] at = scratch.at;
    int[] rows = scratch.rows;
    int[] blockRows = scratch.blockRows;
    int count = 0;
    boolean anyNominated = !nominated.isEmpty();
    int row = (start + from) % n;
    for (int k = 0; k < size; k++, row = row + 1 == n ? 0 : row + 1) {
      blockRows[k] = row;
      NodeInfo node = columns != null ? columns.node(row) : nodes.get(row);
      List<PodInfo> onNode =
          !anyNominated
              ? null
              : nominatedByRow != null ? nominatedByRow[row] : nominated.get(node.name());
      if (onNode != null && !onNode.isEmpty()) {
        out[k] = fwk.runFilterPluginsWithNominatedPods(state, pod, node, onNode);
        if (out[k].code() == Status.Code.ERROR) {
          // the walk stops here: the later nodes are not filtered
          Arrays.fill(out, k + 1, size, out[k]);
          size = k + 1;
          break;
        }
      } else {
        plain[count] = node;
        rows[count] = row;
        at[count++] = k;
      }
    }
    if (count == size) {
      fwk.runFilterPlugins(
          state, pod, plain, count, columns, columns == null ? null : rows, out, scratch);
    } else {
      Status[] statuses = scratch.statuses;
      fwk.runFilterPlugins(
          state, pod, plain, count, columns, columns == null ? null : rows, statuses, scratch);
      for (int j = 0; j < count; j++) {
        out[at[j]] = statuses[j];
      }
      Arrays.fill(statuses, 0, count, null);
    }
    Arrays.fill(plain, 0, count, null);
  }

  /**
   * Returns the nominated pods by row of the snapshot's node list (null where none), from {@code
   * nominated} by node name; names not in the list are left out, as the walk never meets them.
   */
  @SuppressWarnings("unchecked")
  private List<PodInfo>[] nominatedByRow(
      Map<String, List<PodInfo>> nominated, NodeJournal rows, int numAllNodes) {
    List<PodInfo>[] byRow = new List[numAllNodes];
    for (Map.Entry<String, List<PodInfo>> e : nominated.entrySet()) {
      int row = rows.indexOf(e.getKey());
      if (row >= 0 && row < numAllNodes) {
        byRow[row] = e.getValue();
      }
    }
    return byRow;
  }

  private static Status filterWithNominated(
      Framework fwk,
      CycleState state,
      PodInfo pod,
      NodeInfo node,
      Map<String, List<PodInfo>> nominated) {
    return nominated == null
        ? fwk.runFilterPluginsWithNominatedPods(state, pod, node)
        : fwk.runFilterPluginsWithNominatedPods(
            state, pod, node, nominated.getOrDefault(node.name(), List.of()));
  }
}
