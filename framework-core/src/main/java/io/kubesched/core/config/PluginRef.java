package io.kubesched.core.config;

/**
 * A plugin named in a {@code plugins.<extensionPoint>.enabled/disabled} list.
 *
 * @param name the plugin name, or {@code "*"} in a disabled list for all plugins
 * @param weight the Score weight, or {@code null} when not given (Score and MultiPoint only)
 */
public record PluginRef(String name, Integer weight) {
  /** Returns a reference without weight. */
  public static PluginRef of(String name) {
    return new PluginRef(name, null);
  }

  /** Returns a reference with a weight. */
  public static PluginRef of(String name, int weight) {
    return new PluginRef(name, weight);
  }
}
