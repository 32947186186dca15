package io.kubesched.core.runtime;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.EngineHooks;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueuedPodInfo;
import java.time.Instant;
import java.util.Set;

/**
 * The runtime's write access to {@link CycleState} and {@link QueuedPodInfo}, which the plugin API
 * exposes read-only (see {@link EngineHooks}). For the framework, the queue and the scheduler loop;
 * not for plugins.
 */
public final class EngineAccess extends EngineHooks {
  private EngineAccess() {}

  /** Sets the plugins whose Filter is skipped this cycle (their PreFilter returned Skip). */
  public static void setSkipFilterPlugins(CycleState state, Set<String> plugins) {
    EngineHooks.setSkipFilterPlugins(state, plugins);
  }

  /** Sets the plugins whose Score is skipped this cycle (their PreScore returned Skip). */
  public static void setSkipScorePlugins(CycleState state, Set<String> plugins) {
    EngineHooks.setSkipScorePlugins(state, plugins);
  }

  /** Sets whether per-plugin metrics are sampled in this cycle. */
  public static void setRecordPluginMetrics(CycleState state, boolean record) {
    EngineHooks.setRecordPluginMetrics(state, record);
  }

  /** Returns what the runtime cached for {@code state} since its last write, or null. */
  public static Object engineCache(CycleState state) {
    return EngineHooks.engineCache(state);
  }

  /** Caches {@code value} for {@code state} until its next write or delete. */
  public static void setEngineCache(CycleState state, Object value) {
    EngineHooks.setEngineCache(state, value);
  }

  /** Replaces the pod of {@code p} (after an update of the pod object). */
  public static void setPodInfo(QueuedPodInfo p, PodInfo podInfo) {
    EngineHooks.setPodInfo(p, podInfo);
  }

  /** Sets when {@code p} was last added to the queue. */
  public static void setTimestamp(QueuedPodInfo p, Instant timestamp) {
    EngineHooks.setTimestamp(p, timestamp);
  }

  /** Sets when {@code p} was first popped for scheduling. */
  public static void setInitialAttemptTimestamp(QueuedPodInfo p, Instant t) {
    EngineHooks.setInitialAttemptTimestamp(p, t);
  }

  /** Sets the number of attempts of {@code p}. */
  public static void setAttempts(QueuedPodInfo p, int attempts) {
    EngineHooks.setAttempts(p, attempts);
  }

  /** Caches the backoff expiration of {@code p} ({@code null} resets it). */
  public static void setBackoffExpiration(QueuedPodInfo p, Instant t) {
    EngineHooks.setBackoffExpiration(p, t);
  }

  /** Marks {@code p} gated by {@code plugin}, or not gated when {@code plugin} is {@code null}. */
  public static void setGatingPlugin(QueuedPodInfo p, String plugin) {
    EngineHooks.setGatingPlugin(p, plugin);
  }

  /** Returns the modifiable set of plugins that rejected {@code p} in its last attempt. */
  public static Set<String> mutableUnschedulablePlugins(QueuedPodInfo p) {
    return EngineHooks.unschedulablePlugins(p);
  }

  /** Returns the modifiable set of plugins that returned Pending in {@code p}'s last attempt. */
  public static Set<String> mutablePendingPlugins(QueuedPodInfo p) {
    return EngineHooks.pendingPlugins(p);
  }
}
