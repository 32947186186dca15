package io.kubesched.plugins.schedulinggates;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link SchedulingGates}, which takes no arguments. */
public final class SchedulingGatesProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public SchedulingGatesProvider() {}

  @Override
  public String name() {
    return SchedulingGates.NAME;
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
    return SchedulingGates.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new SchedulingGates();
  }
}
