package io.kubesched.core.metrics;

import java.time.Duration;

/**
 * The scheduler's metrics sink: the framework, the queue and the scheduler report to it, and an
 * implementation records or publishes the values (kube's {@code pkg/scheduler/metrics}).
 *
 * <p>Implementations must be thread-safe: Filter and Score durations are reported from worker
 * threads, Permit and binding from the binding threads.
 *
 * <p>{@link PrometheusSchedulerMetrics} publishes kube-scheduler's metrics (what {@code kubesched
 * run} serves on {@code /metrics}); {@link InMemoryMetrics} keeps them inspectable for tests.
 */
public interface SchedulerMetrics {

  /**
   * The sink that ignores everything. Every method of this interface defaults to doing nothing, so
   * an implementation overrides only what it records.
   */
  SchedulerMetrics NOOP =
      new SchedulerMetrics() {
        @Override
        public boolean recordsPluginExecutionDuration() {
          return false;
        }
      };

  /**
   * Whether {@link #pluginExecutionDuration} records anything. When false, the framework does not
   * time the plugin calls of its sampled cycles at all (it still draws the sample, so the random
   * sequence does not depend on the sink). The default is true.
   */
  default boolean recordsPluginExecutionDuration() {
    return true;
  }

  /**
   * Records one scheduling attempt ({@code scheduler_schedule_attempts_total} and {@code
   * scheduler_scheduling_attempt_duration_seconds}).
   *
   * @param result {@code scheduled}, {@code unschedulable} or {@code error}
   * @param profile the profile (scheduler name)
   * @param d the duration of the attempt
   */
  default void scheduleAttempt(String result, String profile, Duration d) {}

  /**
   * Records the duration of one run of an extension point ({@code
   * scheduler_framework_extension_point_duration_seconds}).
   *
   * @param extensionPoint kube's name, e.g. {@code PreFilter}, {@code Filter}, {@code Score}
   * @param status the code of the point's status, e.g. {@code Success}
   * @param profile the profile
   * @param d the duration
   */
  default void extensionPointDuration(
      String extensionPoint, String status, String profile, Duration d) {}

  /**
   * Records one sampled plugin call ({@code scheduler_plugin_execution_duration_seconds}).
   *
   * @param plugin the plugin name
   * @param extensionPoint the extension point, e.g. {@code Filter}
   * @param status the code of the plugin's status
   * @param d the duration
   */
  default void pluginExecutionDuration(
      String plugin, String extensionPoint, String status, Duration d) {}

  /**
   * Sets the number of pending pods in one queue ({@code scheduler_pending_pods}).
   *
   * @param queue {@code active}, {@code backoff}, {@code unschedulable} or {@code gated}
   * @param count the number of pods
   */
  default void pendingPods(String queue, long count) {}

  /** Records the number of attempts a pod needed to be scheduled. */
  default void podSchedulingAttempts(int attempts) {}

  /** Counts one preemption attempt. */
  default void preemptionAttempt() {}

  /** Records the number of victims of one preemption. */
  default void preemptionVictims(int n) {}
}
