package io.kubesched.plugins.nodeaffinity;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link NodeAffinity} configured by {@link NodeAffinityArgs}. */
public final class NodeAffinityProvider implements PluginProvider<NodeAffinityArgs> {
  /** Creates the provider. */
  public NodeAffinityProvider() {}

  @Override
  public String name() {
    return NodeAffinity.NAME;
  }

  @Override
  public Class<NodeAffinityArgs> argsType() {
    return NodeAffinityArgs.class;
  }

  @Override
  public NodeAffinityArgs defaultArgs() {
    return NodeAffinityArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return NodeAffinity.class;
  }

  @Override
  public Plugin create(NodeAffinityArgs args, FrameworkHandle handle) {
    return new NodeAffinity(args);
  }
}
