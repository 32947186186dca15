package io.kubesched.plugins.volumezone;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link VolumeZone}, which takes no arguments. */
public final class VolumeZoneProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public VolumeZoneProvider() {}

  @Override
  public String name() {
    return VolumeZone.NAME;
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
    return VolumeZone.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new VolumeZone(handle.client());
  }
}
