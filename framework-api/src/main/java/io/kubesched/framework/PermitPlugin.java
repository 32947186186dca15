package io.kubesched.framework;

/**
 * A plugin that approves, delays or rejects the binding of a pod after its node was reserved.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li>{@code Success}: this plugin approves.
 *   <li>{@code Wait} with a timeout: the pod waits (off the scheduling thread) until every waiting
 *       plugin {@link WaitingPod#allow allows} it, one {@link WaitingPod#reject rejects} it, or a
 *       timeout rejects it with "rejected due to timeout after waiting &lt;d&gt; at plugin
 *       &lt;p&gt;". Timeouts are capped at 15 minutes.
 *   <li>a rejection: Unreserve runs and the pod is retried.
 *   <li>anything else: an Error.
 * </ul>
 */
public interface PermitPlugin extends Plugin {
  /** Decides on binding {@code pod} to {@code nodeName}; never returns {@code null}. */
  PermitResult permit(CycleState state, PodInfo pod, String nodeName);
}
