package ${package};

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import java.util.List;

/**
 * The arguments of {@link ${pluginName}}, from {@code pluginConfig[].args} of a configuration.
 *
 * @param labelKey the node label that earns the full score
 */
public record ${pluginName}Args(String labelKey) implements PluginArgs {
  /** The arguments used when the configuration gives none. */
  public static ${pluginName}Args defaults() {
    return new ${pluginName}Args("example.com/preferred");
  }

  @Override
  public List<FieldError> validate(String path) {
    if (labelKey == null || labelKey.isBlank()) {
      return List.of(new FieldError(path + ".labelKey", "Required value: can not be empty"));
    }
    return List.of();
  }
}
