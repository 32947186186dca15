package io.kubesched.preemption;

import io.kubesched.framework.PodInfo;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** How preemption ranks pods: by priority, then by how long they have been running. */
public final class PodImportance {
  private PodImportance() {}

  /** Returns the pod's start time, or {@code now} when it has not started yet. */
  public static Instant startTime(PodInfo pod, Instant now) {
    OffsetDateTime t = pod.startTime();
    return t == null ? now : t.toInstant();
  }

  /**
   * Returns whether {@code a} is more important than {@code b}: higher priority, or equal priority
   * and an earlier start (kube's {@code util.MoreImportantPod}).
   */
  public static boolean moreImportant(PodInfo a, PodInfo b, Instant now) {
    if (a.priority() != b.priority()) {
      return a.priority() > b.priority();
    }
    return startTime(a, now).isBefore(startTime(b, now));
  }

  /**
   * Returns {@code moreImportant(a, b)} as kube-scheduler evaluates it: there, a pod that has not
   * started gets the current time from a fresh {@code time.Now()} call, first for {@code a} then
   * for {@code b}, so of two equal-priority pods that have not started, {@code a} always counts as
   * the earlier one. Not a consistent order; use it only with {@link GoSort}, which calls it as Go
   * does.
   */
  public static boolean moreImportantAsKube(PodInfo a, PodInfo b, Instant now) {
    if (a.priority() != b.priority()) {
      return a.priority() > b.priority();
    }
    if (a.startTime() == null && b.startTime() == null) {
      return true;
    }
    return startTime(a, now).isBefore(startTime(b, now));
  }

  /**
   * Sorts {@code pods} most important first exactly as kube-scheduler's {@code sort.Slice(pods,
   * MoreImportantPod)} does, equal pods included.
   */
  public static void sortAsKube(List<PodInfo> pods, Instant now) {
    int n = pods.size();
    if (n < 2) {
      return;
    }
    // each pod's priority and start are read once, not at every comparison; the comparisons are
    // the same, so the sort makes the same moves
    List<Ranked> ranked = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ranked.add(Ranked.of(pods.get(i), now));
    }
    GoSort.slice(ranked, Ranked::moreImportantAsKube);
    for (int i = 0; i < n; i++) {
      pods.set(i, ranked.get(i).pod());
    }
  }

  /**
   * A pod with what {@link #moreImportantAsKube} reads of it: the priority, whether it has started,
   * and its start time ({@code now} when it has not started) in epoch seconds and nanoseconds.
   */
  private record Ranked(PodInfo pod, int priority, boolean started, long seconds, int nanos) {
    static Ranked of(PodInfo pod, Instant now) {
      OffsetDateTime t = pod.startTime();
      Instant start = t == null ? now : t.toInstant();
      return new Ranked(pod, pod.priority(), t != null, start.getEpochSecond(), start.getNano());
    }

    /** {@link PodImportance#moreImportantAsKube} on the values read. */
    boolean moreImportantAsKube(Ranked b) {
      if (priority != b.priority) {
        return priority > b.priority;
      }
      if (!started && !b.started) {
        return true;
      }
      return seconds < b.seconds || (seconds == b.seconds && nanos < b.nanos);
    }
  }

  /** Returns the order that puts the most important pods first. */
  public static Comparator<PodInfo> mostImportantFirst(Instant now) {
    return (a, b) -> moreImportant(a, b, now) ? -1 : moreImportant(b, a, now) ? 1 : 0;
  }

  /**
   * Returns the earliest start time among the highest-priority pods of {@code victims}, or {@code
   * null} when there are none (kube's {@code util.GetEarliestPodStartTime}).
   */
  public static Instant earliestStartTimeOfHighestPriority(List<PodInfo> victims, Instant now) {
    if (victims.isEmpty()) {
      return null;
    }
    Instant earliest = startTime(victims.get(0), now);
    int maxPriority = victims.get(0).priority();
    for (PodInfo p : victims) {
      if (p.priority() == maxPriority) {
        Instant t = startTime(p, now);
        if (t.isBefore(earliest)) {
          earliest = t;
        }
      } else if (p.priority() > maxPriority) {
        maxPriority = p.priority();
        earliest = startTime(p, now);
      }
    }
    return earliest;
  }
}
