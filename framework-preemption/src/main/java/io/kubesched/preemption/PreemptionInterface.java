package io.kubesched.preemption;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * The policy half of preemption that a preemption plugin supplies to the {@link Evaluator} (kube's
 * {@code preemption.Interface}).
 */
public interface PreemptionInterface {
  /**
   * Chooses where the dry run starts among {@code numNodes} potential nodes and how many candidates
   * it should look for.
   *
   * @param numNodes the number of potential nodes, at least 1
   */
  Window offsetAndNumCandidates(int numNodes);

  /**
   * Returns why {@code pod} may not preempt other pods, or empty when it may.
   *
   * @param pod the preemptor, as currently stored in the cluster
   * @param nominatedNodeStatus the filter status of the pod's nominated node (the absent-nodes
   *     status when it has none)
   */
  Optional<String> podEligibleToPreemptOthers(PodInfo pod, Status nominatedNodeStatus);

  /**
   * Finds the smallest set of pods on {@code node} whose eviction lets {@code pod} fit. Both {@code
   * state} and {@code node} are copies the method may modify; {@code node} is this call's own, and
   * so is {@code state} unless {@link #changesStateOnlyThroughExtensions()} says that it may be
   * shared (see there).
   *
   * @param pdbs the pod disruption budgets of the cluster
   */
  VictimSelection selectVictimsOnNode(
      CycleState state, PodInfo pod, NodeInfo node, List<DisruptionBudget> pdbs);

  /**
   * Returns whether {@link #selectVictimsOnNode} changes its {@code state} only through {@link
   * io.kubesched.framework.FrameworkHandle#runPreFilterExtensionAddPod} and {@link
   * io.kubesched.framework.FrameworkHandle#runPreFilterExtensionRemovePod}, and otherwise only
   * reads it (and hands it to the handle's Filter runs, which only read it).
   *
   * <p>When it does and no PreFilter extension is active in the cycle ({@link
   * io.kubesched.framework.FrameworkHandle#preFilterExtensionsActive}), those calls leave the state
   * as it is, so the dry run gives each of its workers one copy of the state for all the nodes the
   * worker tries instead of a copy per node (a copy that was written to, {@link
   * CycleState#revision()}, is replaced before the next node). The default, {@code false}, keeps a
   * copy per node.
   */
  default boolean changesStateOnlyThroughExtensions() {
    return false;
  }

  /**
   * Returns the outcome {@link #selectVictimsOnNode} would have on {@code node} when it is known
   * without copying the node and the state (typically: no pod there could be a victim), else empty.
   * The dry run asks this first for every potential node; an answer must equal what {@code
   * selectVictimsOnNode} would return. {@code node} is the snapshot's and must not be modified. The
   * default knows nothing.
   *
   * @param pod the preemptor
   * @param node the potential node, read-only
   */
  default Optional<VictimSelection> selectVictimsWithoutCopy(PodInfo pod, NodeInfo node) {
    return Optional.empty();
  }

  /**
   * Returns the score functions that choose among candidate nodes, applied in order while more than
   * one node has the highest score; empty selects kube-scheduler's default criteria.
   *
   * @param nodesToVictims the candidates by node name
   */
  default List<ToLongFunction<String>> orderedScoreFuncs(Map<String, Candidate> nodesToVictims) {
    return List.of();
  }

  /**
   * Where the dry run starts and how many candidates it looks for.
   *
   * @param offset the index of the first potential node to try
   * @param numCandidates the number of candidates that is enough
   */
  record Window(int offset, int numCandidates) {}
}
