package io.kubesched.plugins.noderesources;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link Fit} configured by {@link NodeResourcesFitArgs}. */
public final class FitProvider implements PluginProvider<NodeResourcesFitArgs> {
  /** Creates the provider. */
  public FitProvider() {}

  @Override
  public String name() {
    return Fit.NAME;
  }

  @Override
  public Class<NodeResourcesFitArgs> argsType() {
    return NodeResourcesFitArgs.class;
  }

  @Override
  public NodeResourcesFitArgs defaultArgs() {
    return NodeResourcesFitArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return Fit.class;
  }

  @Override
  public Plugin create(NodeResourcesFitArgs args, FrameworkHandle handle) {
    return new Fit(args);
  }
}
