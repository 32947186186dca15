package io.kubesched.plugins.nodename;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link NodeName}, which takes no arguments. */
public final class NodeNameProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public NodeNameProvider() {}

  @Override
  public String name() {
    return NodeName.NAME;
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
    return NodeName.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new NodeName();
  }
}
