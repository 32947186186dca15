package io.kubesched.plugins.nodeports;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link NodePorts}, which takes no arguments. */
public final class NodePortsProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public NodePortsProvider() {}

  @Override
  public String name() {
    return NodePorts.NAME;
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
    return NodePorts.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new NodePorts();
  }
}
