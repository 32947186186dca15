package io.kubesched.framework;

/**
 * A plugin called before a pod enters the active queue (and, as in kube-scheduler 1.33, before it
 * enters the backoff queue).
 *
 * <h2>Contract</h2>
 *
 * Return {@link Status#success()} to let the pod in. Any other status <em>gates</em> the pod: it
 * waits among the unschedulable pods, marked gated with this plugin's name, until a cluster event
 * this plugin registered (see {@link EnqueueExtensions}) lets PreEnqueue run again. Called on the
 * event-handling path: it must be cheap and must not block.
 */
public interface PreEnqueuePlugin extends Plugin {
  /** Returns whether {@code pod} may enter the queue; never {@code null}. */
  Status preEnqueue(PodInfo pod);
}
