package io.kubesched.plugins.nodevolumelimits;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link NodeVolumeLimits}, which takes no arguments. */
public final class NodeVolumeLimitsProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public NodeVolumeLimitsProvider() {}

  @Override
  public String name() {
    return NodeVolumeLimits.NAME;
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
    return NodeVolumeLimits.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new NodeVolumeLimits(handle.client());
  }
}
