package io.kubesched.core.queue;

import io.kubesched.core.runtime.EngineAccess;
import io.kubesched.framework.QueuedPodInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The backoff queue (kube 1.33's {@code backoffQueue} with PopFromBackoffQ): pods rejected by
 * plugins in one heap, pods that failed with an error in another, both ordered by backoff expiry;
 * rejected pods with the same expiry window are ordered like the active queue. Not thread-safe; the
 * scheduling queue guards it.
 */
final class BackoffQueue {
  /** The ordering window: expiries are truncated to it and the flush runs at its pace. */
  static final Duration WINDOW = Duration.ofSeconds(1);

  /** The expiry of a pod that was never attempted: no backoff at all. */
  static final Instant NO_BACKOFF = Instant.MIN;

  private final Clock clock;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final PodHeap rejected;
  private final PodHeap errors;

  /** Creates a backoff queue whose heaps report each changed entry's key to {@code changed}. */
  BackoffQueue(
      Clock clock,
      Duration initialBackoff,
      Duration maxBackoff,
      Comparator<QueuedPodInfo> order,
      Consumer<String> changed) {
    this.clock = clock;
    this.initialBackoff = initialBackoff;
    this.maxBackoff = maxBackoff;
    Comparator<QueuedPodInfo> byExpiry = (a, b) -> backoffTime(a).compareTo(backoffTime(b));
    this.rejected = new PodHeap(byExpiry.thenComparing(order), changed);
    this.errors = new PodHeap(byExpiry, changed);
  }

  /** Truncates {@code t} to the ordering window (the second). */
  static Instant alignToWindow(Instant t) {
    return t.truncatedTo(ChronoUnit.SECONDS);
  }

  /** Returns the backoff after {@code attempts} attempts: {@code min(max, initial*2^(n-1))}. */
  Duration backoffDuration(int attempts) {
    if (attempts == 0) {
      return Duration.ZERO;
    }
    Duration d = initialBackoff;
    for (int i = 1; i < attempts; i++) {
      if (d.compareTo(maxBackoff.minus(d)) > 0) {
        return maxBackoff;
      }
      d = d.plus(d);
    }
    return d;
  }

  /**
   * Returns the pod's backoff expiry aligned to the window, computed once per attempt and cached on
   * the pod ({@link #NO_BACKOFF} for a pod never attempted).
   */
  Instant backoffTime(QueuedPodInfo p) {
    if (p.attempts() == 0) {
      return NO_BACKOFF;
    }
    Instant exp = p.backoffExpiration();
    if (exp == null) {
      exp = alignToWindow(p.timestamp().plus(backoffDuration(p.attempts())));
      EngineAccess.setBackoffExpiration(p, exp);
    }
    return exp;
  }

  /** Returns whether the pod is still backing off: its expiry is not before the current window. */
  boolean isBackingOff(QueuedPodInfo p) {
    return !backoffTime(p).isBefore(alignToWindow(clock.instant()));
  }

  /** Adds the pod to the heap for its kind: rejected (has rejector plugins) or error. */
  void add(QueuedPodInfo p) {
    String key = PodHeap.key(p);
    if (p.unschedulablePlugins().isEmpty() && p.pendingPlugins().isEmpty()) {
      errors.addOrUpdate(p);
      rejected.delete(key);
    } else {
      rejected.addOrUpdate(p);
      errors.delete(key);
    }
  }

  /** Restores the order after the pod's object was replaced. */
  void update(QueuedPodInfo p) {
    if (rejected.has(PodHeap.key(p))) {
      rejected.addOrUpdate(p);
    } else {
      errors.addOrUpdate(p);
    }
  }

  boolean has(String key) {
    return rejected.has(key) || errors.has(key);
  }

  QueuedPodInfo get(String key) {
    QueuedPodInfo p = rejected.get(key);
    return p != null ? p : errors.get(key);
  }

  boolean delete(String key) {
    boolean a = rejected.delete(key);
    boolean b = errors.delete(key);
    return a || b;
  }

  /** Returns whether a rejected pod can be popped (PopFromBackoffQ never pops error pods). */
  boolean hasRejected() {
    return !rejected.isEmpty();
  }

  /** Pops the head of the rejected-pods heap, or {@code null}. */
  QueuedPodInfo popRejected() {
    return rejected.pop();
  }

  /** Pops every pod whose backoff completed: rejected pods first, then error pods. */
  List<QueuedPodInfo> popCompleted() {
    List<QueuedPodInfo> out = new ArrayList<>();
    for (PodHeap heap : List.of(rejected, errors)) {
      while (true) {
        QueuedPodInfo head = heap.peek();
        if (head == null || isBackingOff(head)) {
          break;
        }
        heap.pop();
        out.add(head);
      }
    }
    return out;
  }

  /**
   * Returns the earliest instant at which {@link #popCompleted()} returns a pod: the window after a
   * head's aligned expiry (now for a pod without backoff); empty when both heaps are empty.
   */
  Optional<Instant> nextCompletion() {
    Instant best = null;
    for (PodHeap heap : List.of(rejected, errors)) {
      QueuedPodInfo head = heap.peek();
      if (head == null) {
        continue;
      }
      Instant exp = backoffTime(head);
      Instant at = exp == NO_BACKOFF ? clock.instant() : exp.plus(WINDOW);
      if (best == null || at.isBefore(best)) {
        best = at;
      }
    }
    return Optional.ofNullable(best);
  }

  int size() {
    return rejected.size() + errors.size();
  }

  /** Returns the rejected pods then the error pods, each in expiry order. */
  List<QueuedPodInfo> sorted() {
    List<QueuedPodInfo> out = new ArrayList<>(rejected.sorted());
    out.addAll(errors.sorted());
    return out;
  }
}
