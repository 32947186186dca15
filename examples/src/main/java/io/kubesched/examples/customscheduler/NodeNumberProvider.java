package io.kubesched.examples.customscheduler;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Makes {@link NodeNumber} available to the registry through ServiceLoader. */
public final class NodeNumberProvider implements PluginProvider<NoArgs> {
  @Override
  public String name() {
    return NodeNumber.NAME;
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
    return NodeNumber.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new NodeNumber();
  }
}
