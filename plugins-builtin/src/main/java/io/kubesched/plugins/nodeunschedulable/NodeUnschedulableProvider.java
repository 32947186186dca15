package io.kubesched.plugins.nodeunschedulable;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link NodeUnschedulable}, which takes no arguments. */
public final class NodeUnschedulableProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public NodeUnschedulableProvider() {}

  @Override
  public String name() {
    return NodeUnschedulable.NAME;
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
    return NodeUnschedulable.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new NodeUnschedulable();
  }
}
