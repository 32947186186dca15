package io.kubesched.framework;

/**
 * A plugin that decides whether a pod can run on a node.
 *
 * <h2>Contract</h2>
 *
 * Return {@link Status#success()} if the node fits. {@code Unschedulable} means the node does not
 * fit now but preemption there might help; {@code UnschedulableAndUnresolvable} means preemption on
 * this node would not help. Any other code (or an exception) fails the whole cycle with an Error.
 * The first non-success status stops the node's evaluation.
 *
 * <h2>Concurrency</h2>
 *
 * Called in parallel for many nodes. Use only the given {@link NodeInfo}: during preemption and the
 * nominated-pods pass it is a modified copy that is not in the snapshot.
 */
public interface FilterPlugin extends Plugin {
  /** Returns whether {@code node} can run {@code pod}; never {@code null}. */
  Status filter(CycleState state, PodInfo pod, NodeInfo node);
}
