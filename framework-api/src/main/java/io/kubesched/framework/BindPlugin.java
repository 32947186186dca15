package io.kubesched.framework;

/**
 * A plugin that binds a pod to a node.
 *
 * <h2>Contract</h2>
 *
 * Bind plugins run in order until one returns something other than {@code Skip}. {@code Skip} means
 * "not my pod"; {@code Success} ends the binding; anything else fails it (Unreserve, retry). If all
 * skip, the binding fails.
 */
public interface BindPlugin extends Plugin {
  /** Binds {@code pod} to {@code nodeName}; never returns {@code null}. */
  Status bind(CycleState state, PodInfo pod, String nodeName);
}
