package io.kubesched.plugins.tainttoleration;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link TaintToleration}, which takes no arguments. */
public final class TaintTolerationProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public TaintTolerationProvider() {}

  @Override
  public String name() {
    return TaintToleration.NAME;
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
    return TaintToleration.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new TaintToleration();
  }
}
