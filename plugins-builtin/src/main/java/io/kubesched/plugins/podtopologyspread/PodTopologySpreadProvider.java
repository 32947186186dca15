package io.kubesched.plugins.podtopologyspread;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link PodTopologySpread} with {@link PodTopologySpreadArgs}. */
public final class PodTopologySpreadProvider implements PluginProvider<PodTopologySpreadArgs> {
  /** Creates the provider. */
  public PodTopologySpreadProvider() {}

  @Override
  public String name() {
    return PodTopologySpread.NAME;
  }

  @Override
  public Class<PodTopologySpreadArgs> argsType() {
    return PodTopologySpreadArgs.class;
  }

  @Override
  public PodTopologySpreadArgs defaultArgs() {
    return PodTopologySpreadArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return PodTopologySpread.class;
  }

  @Override
  public Plugin create(PodTopologySpreadArgs args, FrameworkHandle handle) {
    var errors = args.validate("args");
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(errors.toString());
    }
    return new PodTopologySpread(args, handle);
  }
}
