package io.kubesched.core.config;

import java.util.List;

/**
 * The plugins enabled and disabled at one extension point.
 *
 * @param enabled the enabled plugins, in order
 * @param disabled the disabled plugins ({@code "*"} disables all defaults)
 */
public record PluginSet(List<PluginRef> enabled, List<PluginRef> disabled) {
  private static final PluginSet EMPTY = new PluginSet(List.of(), List.of());

  /** Copies the lists. */
  public PluginSet {
    enabled = enabled == null ? List.of() : List.copyOf(enabled);
    disabled = disabled == null ? List.of() : List.copyOf(disabled);
  }

  /** Returns the empty set. */
  public static PluginSet empty() {
    return EMPTY;
  }

  /** Returns a set enabling {@code plugins}. */
  public static PluginSet enabled(PluginRef... plugins) {
    return new PluginSet(List.of(plugins), List.of());
  }
}
