package io.kubesched.framework;

import java.util.Optional;

/**
 * A pod's scheduling signature (kube's opportunistic batching, KEP-5598, {@code
 * OpportunisticBatching} gate), implemented next to a PreFilter, Filter, PreScore or Score plugin.
 *
 * <p>The contract: two pods whose fragments are equal get the same PreFilter, Filter, PreScore and
 * raw Score results from this plugin on every node of the same snapshot, and placing such a pod on
 * a node changes, for this plugin, nothing on any other node for the next pod of the signature.
 * Return {@link Optional#empty()} (unsignable) when that cannot be promised for this pod, for
 * instance because the result depends on other pods' placement in a topology domain.
 *
 * <p>With the gate on, a pod is batched only when every enabled PreFilter, Filter, PreScore and
 * Score plugin implements this interface and signs it; one plugin without it (or returning empty)
 * turns batching off for that pod, as upstream. Called on the scheduling thread, once per pod per
 * attempt; must be cheap and must not throw (a throw counts as unsignable).
 */
public interface SignPlugin extends Plugin {
  /**
   * Returns this plugin's fragment of {@code pod}'s signature: the pod's properties that decide
   * this plugin's results (for example its requests, tolerations or node selector), as a string;
   * {@code ""} when none do; empty when the pod cannot share results with another pod.
   */
  Optional<String> signPod(PodInfo pod);
}
