package io.kubesched.framework;

import java.util.List;

/**
 * Declares the custom resources a plugin reads through {@link ClusterClient#listCustomObjects}:
 * implemented by its {@link PluginProvider}, so that a scheduler on a real cluster watches them
 * (with informers, before the first scheduling cycle) for every plugin a profile enables. Without
 * this declaration a plugin sees no custom objects on a real cluster.
 */
public interface CustomResourceUser {
  /** Returns the custom resources the plugin reads; the same list on every call. */
  List<CustomResource> customResources();
}
