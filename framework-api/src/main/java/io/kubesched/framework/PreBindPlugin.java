package io.kubesched.framework;

/**
 * A plugin that prepares a binding (provisions volumes, for instance), in the binding cycle.
 *
 * <h2>Contract</h2>
 *
 * A non-success status aborts the binding: Unreserve runs and the pod is retried. Long-running work
 * must honour thread interruption.
 */
public interface PreBindPlugin extends Plugin {
  /** Prepares binding {@code pod} to {@code nodeName}; never returns {@code null}. */
  Status preBind(CycleState state, PodInfo pod, String nodeName);
}
