package io.kubesched.plugins.volumerestrictions;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link VolumeRestrictions}, which takes no arguments. */
public final class VolumeRestrictionsProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public VolumeRestrictionsProvider() {}

  @Override
  public String name() {
    return VolumeRestrictions.NAME;
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
    return VolumeRestrictions.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new VolumeRestrictions(handle.client(), handle::snapshot);
  }
}
