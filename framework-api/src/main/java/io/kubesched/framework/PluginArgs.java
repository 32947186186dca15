package io.kubesched.framework;

import java.util.List;

/**
 * The typed arguments of a plugin, decoded from a {@code pluginConfig[].args} entry of the
 * configuration. Implementations are records whose component names are the YAML field names.
 *
 * <p>The configuration loader starts from the provider's {@link PluginProvider#defaultArgs()},
 * overlays the user's fields (maps merge, lists and scalars replace) and decodes the result; then
 * it calls {@link #validate(String)} and reports every error with its path.
 */
public interface PluginArgs {
  /**
   * Returns every problem with these arguments; empty when they are valid.
   *
   * @param path the path of the args object, e.g. {@code profiles[0].pluginConfig[1].args}
   */
  default List<FieldError> validate(String path) {
    return List.of();
  }
}
