package io.kubesched.core.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Objects;

/**
 * The metrics sink that publishes kube-scheduler v1.33's metrics ({@code
 * pkg/scheduler/metrics/metrics.go}) on the Prometheus Java client: the same names, help texts,
 * label names and histogram bucket bounds, so that kube-scheduler's dashboards and alerts work
 * unchanged. This is the one implementation behind {@code kubesched run}'s {@code /metrics}.
 *
 * <table>
 *   <caption>The metrics</caption>
 *   <tr><th>Name</th><th>Type</th><th>Labels</th><th>Buckets</th></tr>
 *   <tr><td>{@code scheduler_schedule_attempts_total}</td><td>counter</td>
 *       <td>{@code result}, {@code profile}</td><td></td></tr>
 *   <tr><td>{@code scheduler_scheduling_attempt_duration_seconds}</td><td>histogram</td>
 *       <td>{@code result}, {@code profile}</td><td>1 ms ×2, 15</td></tr>
 *   <tr><td>{@code scheduler_framework_extension_point_duration_seconds}</td><td>histogram</td>
 *       <td>{@code extension_point}, {@code status}, {@code profile}</td>
 *       <td>0.1 ms ×2, 12</td></tr>
 *   <tr><td>{@code scheduler_plugin_execution_duration_seconds}</td><td>histogram</td>
 *       <td>{@code plugin}, {@code extension_point}, {@code status}</td>
 *       <td>10 µs ×1.5, 20</td></tr>
 *   <tr><td>{@code scheduler_pending_pods}</td><td>gauge</td><td>{@code queue}</td><td></td></tr>
 *   <tr><td>{@code scheduler_pod_scheduling_attempts}</td><td>histogram</td><td></td>
 *       <td>1 ×2, 5</td></tr>
 *   <tr><td>{@code scheduler_preemption_attempts_total}</td><td>counter</td><td></td><td></td></tr>
 *   <tr><td>{@code scheduler_preemption_victims}</td><td>histogram</td><td></td>
 *       <td>1 ×2, 7</td></tr>
 * </table>
 *
 * <p>Histograms are classic ones only (no native buckets), as kube's. The metrics are registered in
 * the {@link PrometheusRegistry} given to the constructor, which an exporter scrapes. Thread-safe.
 */
public final class PrometheusSchedulerMetrics implements SchedulerMetrics {
  private final PrometheusRegistry registry;
  private final Counter scheduleAttempts;
  private final Histogram schedulingLatency;
  private final Histogram extensionPointDuration;
  private final Histogram pluginExecutionDuration;
  private final Gauge pendingPods;
  private final Histogram podSchedulingAttempts;
  private final Counter preemptionAttempts;
  private final Histogram preemptionVictims;

  /** Creates the metrics in a registry of their own ({@link #registry()}). */
  public PrometheusSchedulerMetrics() {
    this(new PrometheusRegistry());
  }

  /**
   * Creates the metrics and registers them in {@code registry}.
   *
   * @throws IllegalArgumentException when {@code registry} already holds one of the names
   */
  public PrometheusSchedulerMetrics(PrometheusRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    scheduleAttempts =
        Counter.builder()
            .name("scheduler_schedule_attempts_total")
            .help(
                "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod"
                    + " could not be scheduled, while 'error' means an internal scheduler"
                    + " problem.")
            .labelNames("result", "profile")
            .register(registry);
    schedulingLatency =
        histogram(
                "scheduler_scheduling_attempt_duration_seconds",
                "Scheduling attempt latency in seconds (scheduling algorithm + binding)",
                exponentialBuckets(0.001, 2, 15))
            .labelNames("result", "profile")
            .register(registry);
    extensionPointDuration =
        histogram(
                "scheduler_framework_extension_point_duration_seconds",
                "Latency for running all plugins of a specific extension point.",
                exponentialBuckets(0.0001, 2, 12))
            .labelNames("extension_point", "status", "profile")
            .register(registry);
    pluginExecutionDuration =
        histogram(
                "scheduler_plugin_execution_duration_seconds",
                "Duration for running a plugin at a specific extension point.",
                exponentialBuckets(0.00001, 1.5, 20))
            .labelNames("plugin", "extension_point", "status")
            .register(registry);
    pendingPods =
        Gauge.builder()
            .name("scheduler_pending_pods")
            .help(
                "Number of pending pods, by the queue type. 'active' means number of pods in"
                    + " activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable'"
                    + " means number of pods in unschedulablePods that the scheduler attempted to"
                    + " schedule and failed; 'gated' is the number of unschedulable pods that the"
                    + " scheduler never attempted to schedule because they are gated.")
            .labelNames("queue")
            .register(registry);
    podSchedulingAttempts =
        histogram(
                "scheduler_pod_scheduling_attempts",
                "Number of attempts to successfully schedule a pod.",
                exponentialBuckets(1, 2, 5))
            .register(registry);
    preemptionAttempts =
        Counter.builder()
            .name("scheduler_preemption_attempts_total")
            .help("Total preemption attempts in the cluster till now")
            .register(registry);
    // kube: "#victims>64 is pretty rare, therefore [64, +Inf) is considered a single bucket".
    preemptionVictims =
        histogram(
                "scheduler_preemption_victims",
                "Number of selected preemption victims",
                exponentialBuckets(1, 2, 7))
            .register(registry);
  }

  private static Histogram.Builder histogram(String name, String help, double[] buckets) {
    return Histogram.builder().name(name).help(help).classicOnly().classicUpperBounds(buckets);
  }

  /**
   * Returns {@code count} bucket bounds: {@code start}, then each {@code factor} times the last,
   * computed as Go's {@code prometheus.ExponentialBuckets} (repeated multiplication) so that the
   * bounds print as kube-scheduler's.
   */
  static double[] exponentialBuckets(double start, double factor, int count) {
    double[] b = new double[count];
    double v = start;
    for (int i = 0; i < count; i++) {
      b[i] = v;
      v *= factor;
    }
    return b;
  }

  /** Returns the registry the metrics are registered in. */
  public PrometheusRegistry registry() {
    return registry;
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  @Override
  public void scheduleAttempt(String result, String profile, Duration d) {
    scheduleAttempts.labelValues(result, profile).inc();
    schedulingLatency.labelValues(result, profile).observe(seconds(d));
  }

  @Override
  public void extensionPointDuration(
      String extensionPoint, String status, String profile, Duration d) {
    extensionPointDuration.labelValues(extensionPoint, status, profile).observe(seconds(d));
  }

  @Override
  public void pluginExecutionDuration(
      String plugin, String extensionPoint, String status, Duration d) {
    pluginExecutionDuration.labelValues(plugin, extensionPoint, status).observe(seconds(d));
  }

  @Override
  public void pendingPods(String queue, long count) {
    pendingPods.labelValues(queue).set(count);
  }

  @Override
  public void podSchedulingAttempts(int attempts) {
    podSchedulingAttempts.observe(attempts);
  }

  @Override
  public void preemptionAttempt() {
    preemptionAttempts.inc();
  }

  @Override
  public void preemptionVictims(int n) {
    preemptionVictims.observe(n);
  }
}
