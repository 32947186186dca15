package ${package};

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/**
 * Makes {@link ${pluginName}} available to kubesched: listed in
 * {@code META-INF/services/io.kubesched.framework.PluginProvider}, found by {@code ServiceLoader}.
 */
public final class ${pluginName}Provider implements PluginProvider<${pluginName}Args> {
  @Override
  public String name() {
    return ${pluginName}.NAME;
  }

  @Override
  public Class<${pluginName}Args> argsType() {
    return ${pluginName}Args.class;
  }

  @Override
  public ${pluginName}Args defaultArgs() {
    return ${pluginName}Args.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return ${pluginName}.class;
  }

  @Override
  public Plugin create(${pluginName}Args args, FrameworkHandle handle) {
    return new ${pluginName}(args);
  }
}
