package io.kubesched.framework;

import java.util.List;

/**
 * A plugin called once per scheduling cycle before Filter, typically to precompute data for its
 * Filter into the {@link CycleState}.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li>{@code Success}, optionally with node names: the cycle goes on; the node sets of all
 *       PreFilter plugins are intersected and only those nodes are filtered. An empty intersection
 *       makes the pod {@code UnschedulableAndUnresolvable}.
 *   <li>{@code Skip}: this plugin's Filter and {@link PreFilterExtensions} are not called this
 *       cycle.
 *   <li>{@code UnschedulableAndUnresolvable}: the cycle stops at once; the status' message becomes
 *       the FailedScheduling message.
 *   <li>{@code Unschedulable}: remembered (the last one wins) while the other PreFilter plugins
 *       still run; then the cycle fails.
 *   <li>anything else: the cycle fails with an Error status.
 * </ul>
 *
 * A plugin that implements {@link PreFilterExtensions} too gets AddPod/RemovePod calls to update
 * its state incrementally for preemption and nominated pods.
 */
public interface PreFilterPlugin extends Plugin {
  /**
   * Runs before Filter for {@code pod}.
   *
   * @param state the cycle state
   * @param pod the pod being scheduled
   * @param nodes all nodes of the snapshot, in the scheduler's order
   * @return the status and the nodes to filter; never {@code null}
   */
  PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes);
}
