package io.kubesched.framework;

import org.jspecify.annotations.Nullable;

/**
 * A cluster event a plugin registers, with an optional hint function.
 *
 * @param event the event
 * @param hint the hint function, or {@code null} to always requeue
 */
public record ClusterEventWithHint(ClusterEvent event, @Nullable QueueingHintFunction hint) {
  /** Returns a registration of {@code resource}/{@code actionType} without hint function. */
  public static ClusterEventWithHint of(String resource, int actionType) {
    return new ClusterEventWithHint(ClusterEvent.of(resource, actionType), null);
  }

  /** Returns a registration of {@code resource}/{@code actionType} with {@code hint}. */
  public static ClusterEventWithHint of(
      String resource, int actionType, QueueingHintFunction hint) {
    return new ClusterEventWithHint(ClusterEvent.of(resource, actionType), hint);
  }
}
