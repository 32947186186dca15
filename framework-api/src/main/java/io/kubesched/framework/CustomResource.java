package io.kubesched.framework;

import java.util.Objects;

/**
 * A custom resource a plugin reads, as its CustomResourceDefinition names it.
 *
 * @param group the API group, e.g. {@code scheduling.x-k8s.io}
 * @param version the version, e.g. {@code v1alpha1}
 * @param plural the resource (plural) name in URLs, e.g. {@code podgroups}
 * @param kind the kind of its objects, e.g. {@code PodGroup}
 * @param namespaced whether its objects live in namespaces
 */
public record CustomResource(
    String group, String version, String plural, String kind, boolean namespaced) {
  /** Checks that no name is missing. */
  public CustomResource {
    Objects.requireNonNull(group, "group must not be null");
    Objects.requireNonNull(version, "version must not be null");
    Objects.requireNonNull(plural, "plural must not be null");
    Objects.requireNonNull(kind, "kind must not be null");
  }

  /** Returns {@code group/version}, the {@code apiVersion} of its objects. */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }
}
