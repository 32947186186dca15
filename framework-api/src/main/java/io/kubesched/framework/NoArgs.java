package io.kubesched.framework;

/** The arguments of a plugin that takes none. */
public enum NoArgs implements PluginArgs {
  /** The single value. */
  INSTANCE
}
