package io.kubesched.plugins.interpodaffinity;

import io.kubesched.framework.AffinityTerm;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.StateData;
import java.util.Map;

/**
 * What PreFilter computes for Filter (kube's {@code preFilterState}): the incoming pod's required
 * terms with namespace selectors resolved, its namespace's labels and the three counters.
 *
 * <p>AddPod and RemovePod change the counters; the framework calls them only on a {@link #copy()}
 * used by a single thread.
 */
final class PreFilterState implements StateData {
  final PodInfo pod;
  final AffinityTerm[] affinityTerms;
  final AffinityTerm[] antiAffinityTerms;
  final Map<String, String> namespaceLabels;
  /** Whether the incoming pod matches all its own required affinity terms. */
  final boolean matchesOwnAffinity;
  /** Existing pods' required anti-affinity terms matching the incoming pod. */
  final TopologyCounts existingAntiAffinity;
  /** Existing pods matching all the incoming pod's required affinity terms, per term. */
  final TopologyCounts affinity;
  /** Existing pods matching the incoming pod's required anti-affinity terms, per term. */
  final TopologyCounts antiAffinity;

  PreFilterState(
      PodInfo pod,
      AffinityTerm[] affinityTerms,
      AffinityTerm[] antiAffinityTerms,
      Map<String, String> namespaceLabels,
      TopologyCounts existingAntiAffinity,
      TopologyCounts affinity,
      TopologyCounts antiAffinity) {
    this.pod = pod;
    this.affinityTerms = affinityTerms;
    this.antiAffinityTerms = antiAffinityTerms;
    this.namespaceLabels = namespaceLabels;
    this.matchesOwnAffinity = InterPodAffinity.matchesAll(affinityTerms, pod);
    this.existingAntiAffinity = existingAntiAffinity;
    this.affinity = affinity;
    this.antiAffinity = antiAffinity;
  }

  @Override
  public PreFilterState copy() {
    return new PreFilterState(
        pod,
        affinityTerms,
        antiAffinityTerms,
        namespaceLabels,
        existingAntiAffinity.copy(),
        affinity.copy(),
        antiAffinity.copy());
  }

  /** Updates the counters as if {@code other} were added ({@code +1}) or removed ({@code -1}). */
  void updateWithPod(PodInfo other, NodeInfo node, int multiplier) {
    Map<String, String> labels = node.labels();
    for (AffinityTerm t : other.requiredAntiAffinityTerms()) {
      if (t.matches(pod, namespaceLabels)) {
        existingAntiAffinity.addForNode(labels, t.topologyKey(), multiplier);
      }
    }
    if (InterPodAffinity.matchesAll(affinityTerms, other)) {
      for (AffinityTerm t : affinityTerms) {
        affinity.addForNode(labels, t.topologyKey(), multiplier);
      }
    }
    for (AffinityTerm t : antiAffinityTerms) {
      if (t.matches(other, null)) {
        antiAffinity.addForNode(labels, t.topologyKey(), multiplier);
      }
    }
  }
}
