package io.kubesched.plugins.sample.coscheduling;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of {@link Coscheduling}.
 *
 * @param permitWaitingTimeSeconds how long a member waits at Permit for its group when the PodGroup
 *     sets no {@code scheduleTimeoutSeconds}
 * @param podGroupBackoffSeconds how long a group whose member failed is kept out of scheduling (0:
 *     not at all)
 * @param deniedPGExpirationTimeSeconds the older name of {@code podGroupBackoffSeconds}, accepted
 *     so that configurations written for earlier Coscheduling releases load; used when {@code
 *     podGroupBackoffSeconds} is 0
 */
public record CoschedulingArgs(
    int permitWaitingTimeSeconds, int podGroupBackoffSeconds, int deniedPGExpirationTimeSeconds)
    implements PluginArgs {
  /** Returns the defaults: 60 s waiting, no group backoff. */
  public static CoschedulingArgs defaults() {
    return new CoschedulingArgs(60, 0, 0);
  }

  /** Returns the group backoff in seconds, from either field. */
  public int effectiveBackoffSeconds() {
    return podGroupBackoffSeconds > 0 ? podGroupBackoffSeconds : deniedPGExpirationTimeSeconds;
  }

  @Override
  public List<FieldError> validate(String path) {
    List<FieldError> errors = new ArrayList<>();
    if (permitWaitingTimeSeconds <= 0) {
      errors.add(
          new FieldError(
              path + ".permitWaitingTimeSeconds",
              "must be greater than 0, got " + permitWaitingTimeSeconds));
    }
    if (podGroupBackoffSeconds < 0) {
      errors.add(
          new FieldError(
              path + ".podGroupBackoffSeconds",
              "must not be negative, got " + podGroupBackoffSeconds));
    }
    if (deniedPGExpirationTimeSeconds < 0) {
      errors.add(
          new FieldError(
              path + ".deniedPGExpirationTimeSeconds",
              "must not be negative, got " + deniedPGExpirationTimeSeconds));
    }
    return errors;
  }
}
