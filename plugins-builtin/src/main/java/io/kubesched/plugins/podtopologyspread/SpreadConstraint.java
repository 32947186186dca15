package io.kubesched.plugins.podtopologyspread;

import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Taint;
import io.kubesched.framework.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A topology spread constraint with its selector compiled and the API defaults applied (kube's
 * internal {@code topologySpreadConstraint}).
 *
 * @param maxSkew the maximum permitted skew
 * @param topologyKey the node label defining the domains (interned)
 * @param selector the selector of the pods that count, {@code matchLabelKeys} merged in
 * @param minDomains the minimum number of eligible domains, 1 when unset
 * @param honorNodeAffinity whether nodes that fail the pod's node affinity/selector are excluded
 * @param honorNodeTaints whether nodes with untolerated NoSchedule/NoExecute taints are excluded
 */
record SpreadConstraint(
    int maxSkew,
    String topologyKey,
    LabelSelector selector,
    int minDomains,
    boolean honorNodeAffinity,
    boolean honorNodeTaints) {

  static final String DO_NOT_SCHEDULE = "DoNotSchedule";
  static final String SCHEDULE_ANYWAY = "ScheduleAnyway";
  static final String HONOR = "Honor";

  /** Returns the same constraint with another selector. */
  SpreadConstraint withSelector(LabelSelector s) {
    return new SpreadConstraint(
        maxSkew, topologyKey, s, minDomains, honorNodeAffinity, honorNodeTaints);
  }

  /**
   * Converts the API constraints whose {@code whenUnsatisfiable} is {@code action} (kube's {@code
   * filterTopologySpreadConstraints}); {@code matchLabelKeys} are merged into the selectors only
   * when {@code enableMatchLabelKeys} (the {@code MatchLabelKeysInPodTopologySpread} gate).
   *
   * @throws IllegalArgumentException when a label selector does not parse
   */
  static List<SpreadConstraint> convert(
      List<V1TopologySpreadConstraint> constraints,
      Map<String, String> podLabels,
      String action,
      boolean enableMatchLabelKeys) {
    List<SpreadConstraint> out = new ArrayList<>(constraints.size());
    for (V1TopologySpreadConstraint c : constraints) {
      if (!action.equals(c.getWhenUnsatisfiable())) {
        continue;
      }
      LabelSelector selector = LabelSelector.compile(c.getLabelSelector());
      List<String> matchLabelKeys = c.getMatchLabelKeys();
      if (enableMatchLabelKeys && matchLabelKeys != null && !matchLabelKeys.isEmpty()) {
        Map<String, String> matchLabels = new LinkedHashMap<>();
        for (String key : matchLabelKeys) {
          String v = podLabels.get(key);
          if (v != null) {
            matchLabels.put(key, v);
          }
        }
        if (!matchLabels.isEmpty()) {
          selector = mergeLabelSet(matchLabels, selector);
        }
      }
      String key = canonical(c.getTopologyKey());
      out.add(
          new SpreadConstraint(
              c.getMaxSkew() == null ? 0 : c.getMaxSkew(),
              key,
              selector,
              c.getMinDomains() == null ? 1 : c.getMinDomains(),
              c.getNodeAffinityPolicy() == null || HONOR.equals(c.getNodeAffinityPolicy()),
              HONOR.equals(c.getNodeTaintsPolicy())));
    }
    return out;
  }

  /**
   * Returns {@code key} interned (topology keys are compared with the labels' keys, and an
   * identical string compares fastest), the common keys without a look-up in the JVM's string
   * table.
   */
  private static String canonical(String key) {
    if (key == null) {
      return "";
    }
    if (PodTopologySpread.LABEL_HOSTNAME.equals(key)) {
      return PodTopologySpread.LABEL_HOSTNAME;
    }
    if (PodTopologySpread.LABEL_ZONE.equals(key)) {
      return PodTopologySpread.LABEL_ZONE;
    }
    return key.intern();
  }

  /**
   * Returns the selector of {@code matchLabels} with the requirements of {@code selector} added; a
   * selector that selects nothing has no requirements to add (as kube's {@code
   * mergeLabelSetWithSelector}).
   */
  static LabelSelector mergeLabelSet(Map<String, String> matchLabels, LabelSelector selector) {
    LabelSelector merged = LabelSelector.ofLabels(matchLabels);
    if (selector.isNothing()) {
      return merged;
    }
    List<LabelSelector.Requirement> reqs = selector.requirements();
    if (reqs.isEmpty()) {
      return merged;
    }
    List<LabelSelector.Requirement> all = new ArrayList<>(reqs);
    matchLabels.forEach(
        (k, v) -> all.add(new LabelSelector.Requirement(k, LabelSelector.Operator.IN, Set.of(v))));
    return LabelSelector.everything().and(all);
  }

  /** Returns whether {@code node} has every topology key of {@code constraints}. */
  static boolean nodeHasAllKeys(Map<String, String> nodeLabels, SpreadConstraint[] constraints) {
    for (SpreadConstraint c : constraints) {
      if (!nodeLabels.containsKey(c.topologyKey)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns whether {@code node} is eligible under the node inclusion policies for {@code pod}
   * (kube's {@code matchNodeInclusionPolicies}).
   */
  boolean matchesNodeInclusionPolicies(PodInfo pod, NodeInfo node) {
    if (honorNodeAffinity && !matchesRequiredNodeAffinity(pod, node)) {
      return false;
    }
    if (honorNodeTaints) {
      for (Taint t : node.taints()) {
        if ((Taint.NO_SCHEDULE.equals(t.effect()) || Taint.NO_EXECUTE.equals(t.effect()))
            && !Toleration.anyTolerates(pod.tolerations(), t)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Returns whether {@code node} satisfies the pod's node selector and required node affinity. */
  static boolean matchesRequiredNodeAffinity(PodInfo pod, NodeInfo node) {
    Map<String, String> labels = node.labels();
    if (!pod.nodeSelector().isEmpty()) {
      for (Map.Entry<String, String> e : pod.nodeSelector().entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
    }
    return pod.requiredNodeAffinity() == null
        || pod.requiredNodeAffinity().matches(node.name(), labels);
  }

  /**
   * Counts the pods of {@code node} in {@code namespace}, not terminating, matching the selector.
   */
  int countMatching(NodeInfo node, String namespace) {
    List<PodInfo> pods = node.pods();
    int n = 0;
    for (int i = 0, size = pods.size(); i < size; i++) {
      PodInfo p = pods.get(i);
      if (p.isTerminating() || !p.namespace().equals(namespace)) {
        continue;
      }
      if (selector.matches(p.labels())) {
        n++;
      }
    }
    return n;
  }
}
