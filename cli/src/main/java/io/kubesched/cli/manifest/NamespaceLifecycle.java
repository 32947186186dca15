package io.kubesched.cli.manifest;

import io.kubernetes.client.openapi.models.V1Namespace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The NamespaceLifecycle admission plugin, as far as a simulator can stand in for it: an object in
 * a namespace that does not exist is refused ({@code namespaces "x" not found}), except in the
 * namespaces every cluster has ({@code default}, {@code kube-system}, {@code kube-public}, {@code
 * kube-node-lease}).
 *
 * <p>Whether a namespace exists is known only when the input declares Namespace objects. A dump of
 * namespaced objects alone ({@code kubectl get pods -A -o yaml}) holds none, yet its namespaces do
 * exist; so when the input declares no Namespace at all, each namespace it uses is assumed to exist
 * (labelled only {@code kubernetes.io/metadata.name}, as the API server labels every namespace) and
 * a warning names it. When the input declares some, the declared ones are the cluster's, and an
 * object in any other is refused.
 */
final class NamespaceLifecycle {
  /** The namespaces the API server creates and keeps. */
  static final Set<String> SYSTEM_NAMESPACES =
      Set.of("default", "kube-system", "kube-public", "kube-node-lease");

  /** Each namespaced object read: its namespace and where it was read ("file:line (doc): what"). */
  private final List<Map.Entry<String, String>> uses = new ArrayList<>();

  /** Records that the object read at {@code origin} lives in {@code namespace}. */
  void use(String namespace, String origin) {
    uses.add(Map.entry(namespace, origin));
  }

  /**
   * Checks every recorded object against the {@code declared} namespaces: returns one refusal per
   * object in a missing namespace when the input declares any namespace; otherwise adds to {@code
   * warnings} one note per undeclared namespace used, and returns no refusal.
   */
  List<String> check(List<V1Namespace> declared, List<String> warnings) {
    Map<String, String> known = new LinkedHashMap<>();
    for (V1Namespace ns : declared) {
      if (ns.getMetadata() != null && ns.getMetadata().getName() != null) {
        known.put(ns.getMetadata().getName(), "");
      }
    }
    List<String> refusals = new ArrayList<>();
    Map<String, String> assumed = new LinkedHashMap<>();
    for (Map.Entry<String, String> use : uses) {
      String ns = use.getKey();
      if (SYSTEM_NAMESPACES.contains(ns) || known.containsKey(ns)) {
        continue;
      }
      if (declared.isEmpty()) {
        assumed.putIfAbsent(ns, use.getValue());
      } else {
        refusals.add(use.getValue() + ": namespaces \"" + ns + "\" not found");
      }
    }
    assumed.forEach(
        (ns, first) ->
            warnings.add(
                first
                    + ": namespace \""
                    + ns
                    + "\" is not in the input, which declares no Namespace: assumed to exist,"
                    + " labelled only kubernetes.io/metadata.name="
                    + ns));
    return refusals;
  }
}
