package io.kubesched.core.config;

import java.util.List;

/**
 * A scheduling profile ({@code profiles[]}): a scheduler name and the plugins it runs.
 *
 * @param schedulerName the name pods select with {@code spec.schedulerName}
 * @param percentageOfNodesToScore the profile's own percentage, or {@code null} for the global
 * @param plugins the plugins after merging the user's sets into the defaults
 * @param pluginConfig the arguments of every enabled plugin that takes arguments
 */
public record Profile(
    String schedulerName,
    Integer percentageOfNodesToScore,
    Plugins plugins,
    List<PluginConfig> pluginConfig) {
  /** Copies the list. */
  public Profile {
    plugins = plugins == null ? Plugins.empty() : plugins;
    pluginConfig = pluginConfig == null ? List.of() : List.copyOf(pluginConfig);
  }
}
