package io.kubesched.plugins.noderesources;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/**
 * Provides {@link BalancedAllocation} configured by {@link NodeResourcesBalancedAllocationArgs}.
 */
public final class BalancedAllocationProvider
    implements PluginProvider<NodeResourcesBalancedAllocationArgs> {
  /** Creates the provider. */
  public BalancedAllocationProvider() {}

  @Override
  public String name() {
    return BalancedAllocation.NAME;
  }

  @Override
  public Class<NodeResourcesBalancedAllocationArgs> argsType() {
    return NodeResourcesBalancedAllocationArgs.class;
  }

  @Override
  public NodeResourcesBalancedAllocationArgs defaultArgs() {
    return NodeResourcesBalancedAllocationArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return BalancedAllocation.class;
  }

  @Override
  public Plugin create(NodeResourcesBalancedAllocationArgs args, FrameworkHandle handle) {
    return new BalancedAllocation(args);
  }
}
