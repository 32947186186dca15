package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A parsed pod (anti-)affinity term (kube's {@code framework.AffinityTerm}).
 *
 * @param namespaces the namespaces named by the term; the owning pod's namespace when the term
 *     names none and has no namespace selector
 * @param selector the compiled label selector ({@code null} selects nothing)
 * @param topologyKey the node label that defines the topology domain
 * @param namespaceSelector the compiled namespace selector ({@code null} selects nothing, empty
 *     selects every namespace)
 */
public record AffinityTerm(
    Set<String> namespaces,
    @Nullable LabelSelector selector,
    String topologyKey,
    @Nullable LabelSelector namespaceSelector) {

  /** Copies the namespaces. */
  public AffinityTerm {
    namespaces = Set.copyOf(namespaces);
  }

  /**
   * Parses {@code term} of a pod in namespace {@code podNamespace}.
   *
   * @throws IllegalArgumentException when a selector does not parse
   */
  public static AffinityTerm parse(String podNamespace, V1PodAffinityTerm term) {
    LabelSelector selector = LabelSelector.compile(term.getLabelSelector());
    Set<String> namespaces;
    if ((term.getNamespaces() == null || term.getNamespaces().isEmpty())
        && term.getNamespaceSelector() == null) {
      namespaces = Set.of(podNamespace);
    } else {
      namespaces = term.getNamespaces() == null ? Set.of() : Set.copyOf(term.getNamespaces());
    }
    LabelSelector nsSelector = LabelSelector.compile(term.getNamespaceSelector());
    return new AffinityTerm(namespaces, selector, term.getTopologyKey(), nsSelector);
  }

  /**
   * Returns whether {@code pod} matches: its namespace is named or selected (by {@code
   * namespaceLabels}), and its labels match the selector.
   */
  public boolean matches(PodInfo pod, Map<String, String> namespaceLabels) {
    if (namespaces.contains(pod.namespace()) || namespaceSelector.matches(namespaceLabels)) {
      return selector.matches(pod.labels());
    }
    return false;
  }

  /** Returns a copy whose namespace selector is replaced by {@code namespaces} (resolved). */
  public AffinityTerm withResolvedNamespaces(Set<String> resolved) {
    return new AffinityTerm(resolved, selector, topologyKey, LabelSelector.nothing());
  }
}
