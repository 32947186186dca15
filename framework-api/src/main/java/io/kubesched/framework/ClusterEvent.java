package io.kubesched.framework;

import java.util.Objects;

/**
 * A change in the cluster that may make pods schedulable (kube's {@code framework.ClusterEvent}).
 *
 * @param resource the resource, see {@link EventResource}
 * @param actionType the action bits, see {@link ActionType}
 * @param label a name for metrics and logs; derived when {@code null}
 */
public record ClusterEvent(String resource, int actionType, String label) {
  /** The wildcard event: matches every registration and requeues every pod. */
  public static final ClusterEvent WILDCARD =
      new ClusterEvent(EventResource.WILDCARD, ActionType.ALL, "WildCardEvent");

  /** Pods that stayed unschedulable too long are flushed with this wildcard event. */
  public static final ClusterEvent UNSCHEDULABLE_TIMEOUT =
      new ClusterEvent(EventResource.WILDCARD, ActionType.ALL, "UnschedulableTimeout");

  /** Pods activated explicitly (for instance through {@code PodsToActivate}). */
  public static final ClusterEvent FORCE_ACTIVATE =
      new ClusterEvent(EventResource.WILDCARD, ActionType.ALL, "ForceActivate");

  /** Derives the label when none is given. */
  public ClusterEvent {
    Objects.requireNonNull(resource, "resource must not be null");
    if (label == null) {
      label = resource + ActionType.toString(actionType);
    }
  }

  /** Returns the event for {@code resource} and {@code actionType} with a derived label. */
  public static ClusterEvent of(String resource, int actionType) {
    return new ClusterEvent(resource, actionType, null);
  }

  /** Returns whether this is a wildcard event. */
  public boolean isWildcard() {
    return EventResource.WILDCARD.equals(resource) && actionType == ActionType.ALL;
  }

  /**
   * Returns whether this registration matches {@code incoming}: it is the wildcard, or the
   * resources match and the action bits intersect.
   */
  public boolean matches(ClusterEvent incoming) {
    return isWildcard()
        || (EventResource.matches(resource, incoming.resource)
            && (actionType & incoming.actionType) != 0);
  }
}
