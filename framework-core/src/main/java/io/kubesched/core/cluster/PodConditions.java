package io.kubesched.core.cluster;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodStatus;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Pod status helpers of {@link InMemoryCluster}: kube's {@code UpdatePodCondition}. */
final class PodConditions {
  private PodConditions() {}

  /**
   * Applies kube's {@code UpdatePodCondition} to {@code pod} (a revision the caller may modify):
   * adds or replaces the condition of the same type, keeping the last transition time when the
   * status does not change (a new transition is stamped from {@code clock}); returns whether
   * anything changed.
   */
  static boolean set(V1Pod pod, V1PodCondition condition, Clock clock) {
    V1PodStatus status = status(pod);
    List<V1PodCondition> conditions =
        status.getConditions() == null
            ? new ArrayList<>()
            : new ArrayList<>(status.getConditions());
    int index = -1;
    for (int i = 0; i < conditions.size(); i++) {
      if (Objects.equals(conditions.get(i).getType(), condition.getType())) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      if (condition.getLastTransitionTime() == null) {
        condition.setLastTransitionTime(now(clock));
      }
      conditions.add(condition);
      status.setConditions(conditions);
      return true;
    }
    V1PodCondition old = conditions.get(index);
    if (Objects.equals(old.getStatus(), condition.getStatus())) {
      condition.setLastTransitionTime(old.getLastTransitionTime());
    } else if (condition.getLastTransitionTime() == null) {
      condition.setLastTransitionTime(now(clock));
    }
    boolean same =
        Objects.equals(old.getStatus(), condition.getStatus())
            && Objects.equals(emptyToNull(old.getReason()), emptyToNull(condition.getReason()))
            && Objects.equals(emptyToNull(old.getMessage()), emptyToNull(condition.getMessage()))
            && Objects.equals(old.getLastProbeTime(), condition.getLastProbeTime())
            && Objects.equals(old.getLastTransitionTime(), condition.getLastTransitionTime());
    conditions.set(index, condition);
    status.setConditions(conditions);
    return !same;
  }

  /** Returns the pod's status, adding an empty one when it has none. */
  static V1PodStatus status(V1Pod pod) {
    if (pod.getStatus() == null) {
      pod.setStatus(new V1PodStatus());
    }
    return pod.getStatus();
  }

  /** The time of {@code clock} as a UTC timestamp. */
  static OffsetDateTime now(Clock clock) {
    // what OffsetDateTime.ofInstant(instant, UTC) gives, without the zone rules it makes per call
    java.time.Instant now = clock.instant();
    return OffsetDateTime.of(
        java.time.LocalDateTime.ofEpochSecond(now.getEpochSecond(), now.getNano(), ZoneOffset.UTC),
        ZoneOffset.UTC);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
