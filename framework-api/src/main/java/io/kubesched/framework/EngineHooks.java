package io.kubesched.framework;

import java.time.Instant;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The framework runtime's write access to the values plugins only read: the skip sets and metrics
 * flag of a {@link CycleState}, the queueing history of a {@link QueuedPodInfo}.
 *
 * <p><strong>Not for plugins.</strong> The methods are {@code protected static}: only a subclass
 * can call them, and the one subclass is the runtime's ({@code
 * io.kubesched.core.runtime.EngineAccess}). They may change in any release.
 */
public abstract class EngineHooks {
  /** For the runtime's subclass only. */
  protected EngineHooks() {}

  /** Sets the plugins whose Filter is skipped this cycle (their PreFilter returned Skip). */
  protected static void setSkipFilterPlugins(CycleState state, Set<String> plugins) {
    state.setSkipFilterPlugins(plugins);
  }

  /** Sets the plugins whose Score is skipped this cycle (their PreScore returned Skip). */
  protected static void setSkipScorePlugins(CycleState state, Set<String> plugins) {
    state.setSkipScorePlugins(plugins);
  }

  /** Sets whether per-plugin metrics are sampled in this cycle. */
  protected static void setRecordPluginMetrics(CycleState state, boolean record) {
    state.setRecordPluginMetrics(record);
  }

  /** Returns what the runtime cached for {@code state} since its last write, or null. */
  protected static @Nullable Object engineCache(CycleState state) {
    return state.engineCache();
  }

  /** Caches {@code value} for {@code state} until its next write or delete. */
  protected static void setEngineCache(CycleState state, @Nullable Object value) {
    state.setEngineCache(value);
  }

  /** Replaces the pod of {@code p} (after an update of the pod object). */
  protected static void setPodInfo(QueuedPodInfo p, PodInfo podInfo) {
    p.setPodInfo(podInfo);
  }

  /** Sets when {@code p} was last added to the queue. */
  protected static void setTimestamp(QueuedPodInfo p, Instant timestamp) {
    p.setTimestamp(timestamp);
  }

  /** Sets when {@code p} was first popped for scheduling. */
  protected static void setInitialAttemptTimestamp(QueuedPodInfo p, Instant t) {
    p.setInitialAttemptTimestamp(t);
  }

  /** Sets the number of attempts of {@code p}. */
  protected static void setAttempts(QueuedPodInfo p, int attempts) {
    p.setAttempts(attempts);
  }

  /** Caches the backoff expiration of {@code p} ({@code null} resets it). */
  protected static void setBackoffExpiration(QueuedPodInfo p, @Nullable Instant t) {
    p.setBackoffExpiration(t);
  }

  /** Marks {@code p} gated by {@code plugin}, or not gated when {@code plugin} is {@code null}. */
  protected static void setGatingPlugin(QueuedPodInfo p, @Nullable String plugin) {
    p.setGatingPlugin(plugin);
  }

  /** Returns the modifiable set of plugins that rejected {@code p} in its last attempt. */
  protected static Set<String> unschedulablePlugins(QueuedPodInfo p) {
    return p.mutableUnschedulablePlugins();
  }

  /** Returns the modifiable set of plugins that returned Pending in {@code p}'s last attempt. */
  protected static Set<String> pendingPlugins(QueuedPodInfo p) {
    return p.mutablePendingPlugins();
  }
}
