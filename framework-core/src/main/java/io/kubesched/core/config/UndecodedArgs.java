package io.kubesched.core.config;

import io.kubesched.framework.PluginArgs;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The arguments of a {@code pluginConfig} entry naming a plugin the registry does not know, kept as
 * decoded from YAML. kube-scheduler keeps such args as {@code runtime.Unknown} and ignores them
 * unless the plugin is enabled, in which case building the profile fails.
 *
 * @param raw the YAML mapping, read-only
 */
public record UndecodedArgs(Map<String, Object> raw) implements PluginArgs {
  /** Copies the map. */
  public UndecodedArgs {
    raw = raw == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(raw));
  }
}
