package io.kubesched.plugins.sample.reservation;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import java.time.Duration;

/**
 * Registers {@link ResourceReservation} with the plugin registry. With {@code controller: true} the
 * plugin's {@link ReservationController} watches the profile's cluster from the plugin's creation
 * on.
 */
public final class ResourceReservationProvider implements PluginProvider<ResourceReservationArgs> {
  @Override
  public String name() {
    return ResourceReservation.NAME;
  }

  @Override
  public Class<ResourceReservationArgs> argsType() {
    return ResourceReservationArgs.class;
  }

  @Override
  public ResourceReservationArgs defaultArgs() {
    return ResourceReservationArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return ResourceReservation.class;
  }

  @Override
  public Plugin create(ResourceReservationArgs args, FrameworkHandle handle) {
    if (!args.controller()) {
      return new ResourceReservation(handle.clock());
    }
    ReservationController controller =
        new ReservationController(
            handle.client(), handle.clock(), Duration.ofSeconds(args.reservationTTLSeconds()));
    controller.start();
    return new ResourceReservation(handle.clock(), controller);
  }
}
