package io.kubesched.plugins.sample.reservation;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Registers {@link ResourceReservation} with the plugin registry. */
public final class ResourceReservationProvider implements PluginProvider<NoArgs> {
  @Override
  public String name() {
    return ResourceReservation.NAME;
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
    return ResourceReservation.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new ResourceReservation();
  }
}
