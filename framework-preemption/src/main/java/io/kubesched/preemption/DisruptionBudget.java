package io.kubesched.preemption;

import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pod disruption budget compiled once per preemption attempt: its namespace, selector, allowed
 * disruptions and the pods whose eviction the API server already counted.
 *
 * @param namespace the budget's namespace
 * @param selector the compiled selector; an empty, missing or invalid selector matches nothing
 * @param disruptionsAllowed {@code status.disruptionsAllowed}
 * @param disruptedPods the names in {@code status.disruptedPods}
 */
public record DisruptionBudget(
    String namespace, LabelSelector selector, int disruptionsAllowed, Set<String> disruptedPods) {

  /** Copies the disrupted pods. */
  public DisruptionBudget {
    namespace = namespace == null ? "" : namespace;
    disruptedPods = Set.copyOf(disruptedPods);
  }

  /** Compiles {@code pdb}. */
  public static DisruptionBudget of(V1PodDisruptionBudget pdb) {
    String ns = pdb.getMetadata() == null ? "" : pdb.getMetadata().getNamespace();
    LabelSelector selector;
    try {
      selector =
          pdb.getSpec() == null
              ? LabelSelector.nothing()
              : LabelSelector.compile(pdb.getSpec().getSelector());
    } catch (IllegalArgumentException e) {
      selector = LabelSelector.nothing();
    }
    // kube treats a budget with an empty selector as selecting no pod
    if (selector.isEverything()) {
      selector = LabelSelector.nothing();
    }
    int allowed = 0;
    Set<String> disrupted = Set.of();
    if (pdb.getStatus() != null) {
      allowed =
          pdb.getStatus().getDisruptionsAllowed() == null
              ? 0
              : pdb.getStatus().getDisruptionsAllowed();
      Map<String, ?> dp = pdb.getStatus().getDisruptedPods();
      disrupted = dp == null ? Set.of() : dp.keySet();
    }
    return new DisruptionBudget(ns, selector, allowed, disrupted);
  }

  /** Compiles every budget of {@code pdbs}; {@code null} gives an empty list. */
  public static List<DisruptionBudget> ofAll(List<V1PodDisruptionBudget> pdbs) {
    if (pdbs == null || pdbs.isEmpty()) {
      return List.of();
    }
    List<DisruptionBudget> out = new ArrayList<>(pdbs.size());
    for (V1PodDisruptionBudget p : pdbs) {
      out.add(of(p));
    }
    return List.copyOf(out);
  }

  /**
   * Splits {@code pods} into those whose eviction would violate a budget and the others, keeping
   * the order of {@code pods} in both (kube's {@code filterPodsWithPDBViolation}). Every pod
   * consumes one allowed disruption of each budget that selects it, unless the budget already lists
   * it among its disrupted pods; a pod that drives a budget below zero is violating.
   */
  public static Split split(List<PodInfo> pods, List<DisruptionBudget> budgets) {
    if (budgets.isEmpty()) {
      // no budget to violate (and no pod's labels to read)
      return new Split(List.of(), List.copyOf(pods));
    }
    int[] allowed = new int[budgets.size()];
    for (int i = 0; i < allowed.length; i++) {
      allowed[i] = budgets.get(i).disruptionsAllowed();
    }
    List<PodInfo> violating = new ArrayList<>();
    List<PodInfo> nonViolating = new ArrayList<>();
    for (PodInfo pod : pods) {
      boolean violated = false;
      // a pod without labels matches no budget
      if (!pod.labels().isEmpty()) {
        for (int i = 0; i < allowed.length; i++) {
          DisruptionBudget b = budgets.get(i);
          if (!b.namespace().equals(pod.namespace())
              || b.selector().isNothing()
              || !b.selector().matches(pod.labels())) {
            continue;
          }
          if (b.disruptedPods().contains(pod.name())) {
            continue;
          }
          allowed[i]--;
          if (allowed[i] < 0) {
            violated = true;
          }
        }
      }
      (violated ? violating : nonViolating).add(pod);
    }
    return new Split(List.copyOf(violating), List.copyOf(nonViolating));
  }

  /**
   * Pods split by whether evicting them violates a budget.
   *
   * @param violating the pods whose eviction violates a budget, in input order
   * @param nonViolating the other pods, in input order
   */
  public record Split(List<PodInfo> violating, List<PodInfo> nonViolating) {}
}
