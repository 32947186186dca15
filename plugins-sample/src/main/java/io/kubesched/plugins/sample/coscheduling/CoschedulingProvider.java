package io.kubesched.plugins.sample.coscheduling;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Registers {@link Coscheduling} with the plugin registry. */
public final class CoschedulingProvider implements PluginProvider<CoschedulingArgs> {
  @Override
  public String name() {
    return Coscheduling.NAME;
  }

  @Override
  public Class<CoschedulingArgs> argsType() {
    return CoschedulingArgs.class;
  }

  @Override
  public CoschedulingArgs defaultArgs() {
    return CoschedulingArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return Coscheduling.class;
  }

  @Override
  public Plugin create(CoschedulingArgs args, FrameworkHandle handle) {
    return new Coscheduling(args, handle);
  }
}
