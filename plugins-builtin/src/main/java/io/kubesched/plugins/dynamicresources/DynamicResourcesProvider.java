package io.kubesched.plugins.dynamicresources;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link DynamicResources}, which takes no arguments. */
public final class DynamicResourcesProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public DynamicResourcesProvider() {}

  @Override
  public String name() {
    return DynamicResources.NAME;
  }

  @Override
  public Class<NoArgs> argsType() {
    return NoArgs.class;
  }

  @Override
  public NoArgs defaultArgs() {
    return NoArgs.INSTANCE;
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return DynamicResources.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new DynamicResources(handle);
  }
}
