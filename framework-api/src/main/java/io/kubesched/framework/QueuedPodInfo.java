package io.kubesched.framework;

import java.time.Instant;
import java.util.Collections;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A pod in the scheduling queue with its queueing history (kube's {@code framework.QueuedPodInfo}).
 * The queue owns and updates it (through {@link EngineHooks}); plugins read it (QueueSort compares
 * two of them).
 */
public final class QueuedPodInfo {
  private volatile PodInfo podInfo;
  private volatile Instant timestamp;
  private volatile Instant initialAttemptTimestamp;
  private volatile int attempts;
  private volatile Instant backoffExpiration;
  private final Set<String> unschedulablePlugins = new HashSet<>();
  private final Set<String> pendingPlugins = new HashSet<>();
  private final Set<String> unschedulableView = Collections.unmodifiableSet(unschedulablePlugins);
  private final Set<String> pendingView = Collections.unmodifiableSet(pendingPlugins);
  private volatile boolean gated;
  private volatile String gatingPlugin;

  /** Creates the queue entry of {@code podInfo} enqueued at {@code timestamp}. */
  public QueuedPodInfo(PodInfo podInfo, Instant timestamp) {
    this.podInfo = Objects.requireNonNull(podInfo);
    this.timestamp = Objects.requireNonNull(timestamp);
  }

  /** Returns the pod. */
  public PodInfo podInfo() {
    return podInfo;
  }

  /** Replaces the pod (after an update of the pod object). */
  void setPodInfo(PodInfo podInfo) {
    this.podInfo = Objects.requireNonNull(podInfo);
  }

  /** Returns when the pod was last added to the queue. */
  public Instant timestamp() {
    return timestamp;
  }

  /** Sets when the pod was last added to the queue. */
  void setTimestamp(Instant timestamp) {
    this.timestamp = timestamp;
  }

  /** Returns when the pod was first popped for scheduling, or {@code null}. */
  public @Nullable Instant initialAttemptTimestamp() {
    return initialAttemptTimestamp;
  }

  /** Sets when the pod was first added to the active queue. */
  void setInitialAttemptTimestamp(@Nullable Instant t) {
    this.initialAttemptTimestamp = t;
  }

  /** Returns how many times the pod was popped for scheduling. */
  public int attempts() {
    return attempts;
  }

  /** Sets the number of attempts. */
  void setAttempts(int attempts) {
    this.attempts = attempts;
  }

  /** Returns the cached backoff expiration, or {@code null} when not computed. */
  public @Nullable Instant backoffExpiration() {
    return backoffExpiration;
  }

  /** Caches the backoff expiration ({@code null} resets it). */
  void setBackoffExpiration(@Nullable Instant t) {
    this.backoffExpiration = t;
  }

  /** Returns the plugins that rejected the pod in its last attempt (a read-only view). */
  public Set<String> unschedulablePlugins() {
    return unschedulableView;
  }

  /** Returns the plugins that returned Pending in its last attempt (a read-only view). */
  public Set<String> pendingPlugins() {
    return pendingView;
  }

  Set<String> mutableUnschedulablePlugins() {
    return unschedulablePlugins;
  }

  Set<String> mutablePendingPlugins() {
    return pendingPlugins;
  }

  /** Returns whether a PreEnqueue plugin keeps the pod out of the active queue. */
  public boolean gated() {
    return gated;
  }

  /** Returns the PreEnqueue plugin that gates the pod, or {@code null}. */
  public @Nullable String gatingPlugin() {
    return gatingPlugin;
  }

  /** Marks the pod gated by {@code plugin}, or not gated when {@code plugin} is {@code null}. */
  void setGatingPlugin(@Nullable String plugin) {
    this.gatingPlugin = plugin;
    this.gated = plugin != null;
  }

  @Override
  public String toString() {
    return "QueuedPodInfo{" + podInfo.key() + ", attempts=" + attempts + "}";
  }
}
