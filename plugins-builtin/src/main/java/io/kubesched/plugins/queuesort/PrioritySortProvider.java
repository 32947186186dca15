package io.kubesched.plugins.queuesort;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link PrioritySort}, which takes no arguments. */
public final class PrioritySortProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public PrioritySortProvider() {}

  @Override
  public String name() {
    return PrioritySort.NAME;
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
    return PrioritySort.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new PrioritySort();
  }
}
