package io.kubesched.core.config;

import io.kubesched.framework.PluginArgs;

/**
 * A {@code pluginConfig} entry with its decoded, defaulted and validated arguments.
 *
 * @param name the plugin name
 * @param args the typed arguments
 */
public record PluginConfig(String name, PluginArgs args) {}
