package io.kubesched.cli.run;

import io.kubesched.core.metrics.SchedulerMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * Scheduler metrics kept in memory and rendered in the Prometheus text exposition format (version
 * 0.0.4), with kube-scheduler's metric names under the {@code scheduler_} prefix. Durations are
 * exposed as summaries without quantiles ({@code _sum} and {@code _count}).
 *
 * <p>Thread-safe.
 */
public final class PrometheusTextMetrics implements SchedulerMetrics {
  private record Family(String name, String type, String help) {}

  private static final Family ATTEMPTS =
      new Family(
          "scheduler_schedule_attempts_total",
          "counter",
          "Number of attempts to schedule pods, by the result.");
  private static final Family ATTEMPT_DURATION =
      new Family(
          "scheduler_scheduling_attempt_duration_seconds",
          "summary",
          "Scheduling attempt latency in seconds (scheduling algorithm + binding).");
  private static final Family EXTENSION_POINT =
      new Family(
          "scheduler_framework_extension_point_duration_seconds",
          "summary",
          "Latency for running all plugins of a specific extension point.");
  private static final Family PLUGIN =
      new Family(
          "scheduler_plugin_execution_duration_seconds",
          "summary",
          "Duration for running a plugin at a specific extension point.");
  private static final Family PENDING =
      new Family("scheduler_pending_pods", "gauge", "Number of pending pods, by the queue type.");
  private static final Family POD_ATTEMPTS =
      new Family(
          "scheduler_pod_scheduling_attempts",
          "summary",
          "Number of attempts to successfully schedule a pod.");
  private static final Family PREEMPTION_ATTEMPTS =
      new Family(
          "scheduler_preemption_attempts_total", "counter", "Total preemption attempts so far.");
  private static final Family PREEMPTION_VICTIMS =
      new Family(
          "scheduler_preemption_victims", "summary", "Number of selected preemption victims.");

  private static final Family[] FAMILIES = {
    ATTEMPTS,
    ATTEMPT_DURATION,
    EXTENSION_POINT,
    PLUGIN,
    PENDING,
    POD_ATTEMPTS,
    PREEMPTION_ATTEMPTS,
    PREEMPTION_VICTIMS
  };

  /** Series name with labels (e.g. {@code x_sum{a="b"}}) → value, by family. */
  private final ConcurrentMap<Family, ConcurrentMap<String, DoubleAdder>> values =
      new ConcurrentHashMap<>();

  private final ConcurrentMap<String, Double> gauges = new ConcurrentHashMap<>();

  /** Creates empty metrics. */
  public PrometheusTextMetrics() {}

  private static String labels(String... kv) {
    if (kv.length == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < kv.length; i += 2) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(kv[i]).append("=\"").append(escape(kv[i + 1])).append('"');
    }
    return sb.append('}').toString();
  }

  private static String escape(String v) {
    return (v == null ? "" : v).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private void add(Family f, String series, double v) {
    values
        .computeIfAbsent(f, k -> new ConcurrentHashMap<>())
        .computeIfAbsent(series, k -> new DoubleAdder())
        .add(v);
  }

  private void observe(Family f, String labels, double v) {
    add(f, f.name() + "_sum" + labels, v);
    add(f, f.name() + "_count" + labels, 1);
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  @Override
  public void scheduleAttempt(String result, String profile, Duration d) {
    String l = labels("profile", profile, "result", result);
    add(ATTEMPTS, ATTEMPTS.name() + l, 1);
    observe(ATTEMPT_DURATION, l, seconds(d));
  }

  @Override
  public void extensionPointDuration(
      String extensionPoint, String status, String profile, Duration d) {
    observe(
        EXTENSION_POINT,
        labels("extension_point", extensionPoint, "profile", profile, "status", status),
        seconds(d));
  }

  @Override
  public void pluginExecutionDuration(
      String plugin, String extensionPoint, String status, Duration d) {
    observe(
        PLUGIN,
        labels("extension_point", extensionPoint, "plugin", plugin, "status", status),
        seconds(d));
  }

  @Override
  public void pendingPods(String queue, long count) {
    gauges.put(PENDING.name() + labels("queue", queue), (double) count);
  }

  @Override
  public void podSchedulingAttempts(int attempts) {
    observe(POD_ATTEMPTS, "", attempts);
  }

  @Override
  public void preemptionAttempt() {
    add(PREEMPTION_ATTEMPTS, PREEMPTION_ATTEMPTS.name(), 1);
  }

  @Override
  public void preemptionVictims(int n) {
    observe(PREEMPTION_VICTIMS, "", n);
  }

  /** Returns every metric in the Prometheus text format, families in a fixed order. */
  public String render() {
    StringBuilder sb = new StringBuilder();
    for (Family f : FAMILIES) {
      Map<String, Double> series = new TreeMap<>();
      if (f == PENDING) {
        series.putAll(gauges);
      } else {
        values.getOrDefault(f, new ConcurrentHashMap<>()).forEach((k, v) -> series.put(k, v.sum()));
      }
      sb.append("# HELP ").append(f.name()).append(' ').append(f.help()).append('\n');
      sb.append("# TYPE ").append(f.name()).append(' ').append(f.type()).append('\n');
      series.forEach((k, v) -> sb.append(k).append(' ').append(format(v)).append('\n'));
    }
    return sb.toString();
  }

  private static String format(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
