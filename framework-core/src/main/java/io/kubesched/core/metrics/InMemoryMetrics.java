package io.kubesched.core.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A metrics sink that keeps counters and duration sums in memory, keyed by metric name and label
 * values, so that tests can read them back. It publishes nothing: {@code /metrics} is {@link
 * PrometheusSchedulerMetrics}.
 *
 * <p>Keys are {@code name{label1,label2,...}} with the label values in the order of the
 * corresponding {@link SchedulerMetrics} method, e.g. {@code
 * framework_extension_point_duration_seconds{Filter,Success,default-scheduler}}. Thread-safe.
 */
public final class InMemoryMetrics implements SchedulerMetrics {
  /** The name of the schedule-attempt counter and duration. */
  public static final String SCHEDULE_ATTEMPTS = "schedule_attempts_total";

  /** The name of the extension-point duration histogram. */
  public static final String EXTENSION_POINT_DURATION =
      "framework_extension_point_duration_seconds";

  /** The name of the plugin execution duration histogram. */
  public static final String PLUGIN_EXECUTION_DURATION = "plugin_execution_duration_seconds";

  /** The name of the pending-pods gauge. */
  public static final String PENDING_PODS = "pending_pods";

  /** The name of the pod-scheduling-attempts histogram. */
  public static final String POD_SCHEDULING_ATTEMPTS = "pod_scheduling_attempts";

  /** The name of the preemption-attempts counter. */
  public static final String PREEMPTION_ATTEMPTS = "preemption_attempts_total";

  /** The name of the preemption-victims histogram. */
  public static final String PREEMPTION_VICTIMS = "preemption_victims";

  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> sums = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();

  /** Creates an empty sink. */
  public InMemoryMetrics() {}

  private static String key(String name, String... labels) {
    return name + "{" + String.join(",", labels) + "}";
  }

  private void observe(String key, long value) {
    counts.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
    sums.computeIfAbsent(key, k -> new AtomicLong()).addAndGet(value);
  }

  @Override
  public void scheduleAttempt(String result, String profile, Duration d) {
    observe(key(SCHEDULE_ATTEMPTS, result, profile), d.toNanos());
  }

  @Override
  public void extensionPointDuration(
      String extensionPoint, String status, String profile, Duration d) {
    observe(key(EXTENSION_POINT_DURATION, extensionPoint, status, profile), d.toNanos());
  }

  @Override
  public void pluginExecutionDuration(
      String plugin, String extensionPoint, String status, Duration d) {
    observe(key(PLUGIN_EXECUTION_DURATION, plugin, extensionPoint, status), d.toNanos());
  }

  @Override
  public void pendingPods(String queue, long count) {
    gauges.computeIfAbsent(key(PENDING_PODS, queue), k -> new AtomicLong()).set(count);
  }

  @Override
  public void podSchedulingAttempts(int attempts) {
    observe(key(POD_SCHEDULING_ATTEMPTS), attempts);
  }

  @Override
  public void preemptionAttempt() {
    observe(key(PREEMPTION_ATTEMPTS), 1);
  }

  @Override
  public void preemptionVictims(int n) {
    observe(key(PREEMPTION_VICTIMS), n);
  }

  /**
   * Returns how many observations were recorded under {@code name} with exactly {@code labels} (for
   * counters: the count), or 0.
   */
  public long count(String name, String... labels) {
    AtomicLong v = counts.get(key(name, labels));
    return v == null ? 0 : v.get();
  }

  /**
   * Returns the sum of the observations under {@code name} with {@code labels}: nanoseconds for
   * durations, the values for the other histograms; 0 when none.
   */
  public long sum(String name, String... labels) {
    AtomicLong v = sums.get(key(name, labels));
    return v == null ? 0 : v.get();
  }

  /** Returns the last value of the gauge {@code name} with {@code labels}, or 0. */
  public long gauge(String name, String... labels) {
    AtomicLong v = gauges.get(key(name, labels));
    return v == null ? 0 : v.get();
  }

  /** Returns every observation count by key, sorted by key; a copy. */
  public Map<String, Long> counts() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  /** Returns the keys of every series observed under {@code name}, sorted. */
  public List<String> series(String name) {
    return counts.keySet().stream().filter(k -> k.startsWith(name + "{")).sorted().toList();
  }

  /** Forgets everything. */
  public void reset() {
    counts.clear();
    sums.clear();
    gauges.clear();
  }
}
