package io.kubesched.plugins.sample.reservation;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import java.util.List;

/**
 * The arguments of {@link ResourceReservation}.
 *
 * @param controller whether the plugin also runs the {@link ReservationController}, which writes a
 *     reservation when a bound pod with a controller owner is deleted and removes it when the
 *     replacement is bound, when it expires or when the owner is gone
 * @param reservationTTLSeconds how long a reservation written by the controller holds, in seconds
 *     of the scheduler's clock ({@code reserve.expires/<uid>})
 */
public record ResourceReservationArgs(boolean controller, long reservationTTLSeconds)
    implements PluginArgs {
  /** The default TTL: 300 seconds. */
  public static final long DEFAULT_TTL_SECONDS = 300;

  /** Returns the defaults: no controller, a 300-second TTL. */
  public static ResourceReservationArgs defaults() {
    return new ResourceReservationArgs(false, DEFAULT_TTL_SECONDS);
  }

  @Override
  public List<FieldError> validate(String path) {
    if (reservationTTLSeconds <= 0) {
      return List.of(
          new FieldError(
              path + ".reservationTTLSeconds",
              "must be greater than 0, got " + reservationTTLSeconds));
    }
    return List.of();
  }
}
