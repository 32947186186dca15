package io.kubesched.plugins.sample.coscheduling;

import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code status} of a PodGroup as scheduler-plugins keeps it ({@code phase}, {@code scheduled},
 * {@code running}, {@code succeeded}, {@code failed}, {@code occupiedBy}, {@code
 * scheduleStartTime}), computed from the group's member pods.
 *
 * <p>Phases, in the order they are judged: {@code Pending} while fewer than {@code minMember}
 * members exist; {@code Finished} when {@code minMember} succeeded; {@code Failed} when one failed
 * and failed, running and succeeded reach {@code minMember}; {@code Running} when running and
 * succeeded reach it; {@code Scheduled} when {@code minMember} are bound; {@code Scheduling} when
 * some are; else {@code PreScheduling}.
 *
 * @param phase the phase
 * @param scheduled members bound to a node
 * @param running members in phase Running
 * @param succeeded members in phase Succeeded
 * @param failed members in phase Failed
 * @param occupiedBy {@code namespace/name} of the first member's owner, or {@code null}
 * @param scheduleStartTime when the group left {@code Pending}, or {@code null}
 */
public record PodGroupStatus(
    String phase,
    int scheduled,
    int running,
    int succeeded,
    int failed,
    String occupiedBy,
    Instant scheduleStartTime) {
  /**
   * Computes the status of {@code group} from its members.
   *
   * @param members the group's pods (namespace and label already matched)
   * @param previous the status stored now, or {@code null}
   * @param now the time to stamp {@code scheduleStartTime} with when the group leaves Pending
   */
  public static PodGroupStatus of(
      PodGroup group, List<V1Pod> members, PodGroupStatus previous, Instant now) {
    int scheduled = 0;
    int running = 0;
    int succeeded = 0;
    int failed = 0;
    String occupiedBy = previous == null ? null : previous.occupiedBy();
    for (V1Pod p : members) {
      if (p.getSpec() != null && p.getSpec().getNodeName() != null) {
        scheduled++;
      }
      String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
      if ("Running".equals(phase)) {
        running++;
      } else if ("Succeeded".equals(phase)) {
        succeeded++;
      } else if ("Failed".equals(phase)) {
        failed++;
      }
      List<V1OwnerReference> owners = p.getMetadata().getOwnerReferences();
      if (occupiedBy == null && owners != null && !owners.isEmpty()) {
        occupiedBy = p.getMetadata().getNamespace() + "/" + owners.get(0).getName();
      }
    }
    int min = group.minMember();
    String phase;
    if (members.size() < min) {
      phase = "Pending";
    } else if (succeeded >= min) {
      phase = "Finished";
    } else if (failed != 0 && failed + running + succeeded >= min) {
      phase = "Failed";
    } else if (running + succeeded >= min) {
      phase = "Running";
    } else if (scheduled >= min) {
      phase = "Scheduled";
    } else if (scheduled > 0) {
      phase = "Scheduling";
    } else {
      phase = "PreScheduling";
    }
    Instant start = previous == null ? null : previous.scheduleStartTime();
    if (start == null && !phase.equals("Pending")) {
      start = now.truncatedTo(ChronoUnit.SECONDS);
    }
    return new PodGroupStatus(phase, scheduled, running, succeeded, failed, occupiedBy, start);
  }

  /** Reads the {@code status} of a PodGroup's generic map; {@code null} when it has none. */
  public static PodGroupStatus fromMap(Map<String, Object> obj) {
    if (!(obj.get("status") instanceof Map<?, ?> s) || s.get("phase") == null) {
      return null;
    }
    Instant start = null;
    if (s.get("scheduleStartTime") instanceof String t && !t.isEmpty()) {
      try {
        start = Instant.parse(t);
      } catch (java.time.format.DateTimeParseException e) {
        start = null;
      }
    }
    return new PodGroupStatus(
        String.valueOf(s.get("phase")),
        count(s.get("scheduled")),
        count(s.get("running")),
        count(s.get("succeeded")),
        count(s.get("failed")),
        s.get("occupiedBy") == null ? null : String.valueOf(s.get("occupiedBy")),
        start);
  }

  private static int count(Object v) {
    return v instanceof Number n ? n.intValue() : 0;
  }

  /** Returns the {@code status} map written to the PodGroup. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("phase", phase);
    if (occupiedBy != null) {
      m.put("occupiedBy", occupiedBy);
    }
    m.put("scheduled", scheduled);
    m.put("running", running);
    m.put("succeeded", succeeded);
    m.put("failed", failed);
    if (scheduleStartTime != null) {
      m.put("scheduleStartTime", scheduleStartTime.toString());
    }
    return m;
  }
}
