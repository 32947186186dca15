package io.kubesched.core.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A metrics sink that keeps kube-scheduler's metrics with their names, labels and histogram buckets
 * and renders them in the Prometheus text exposition format ({@link #scrape()}), without any
 * dependency; an HTTP endpoint can serve the text as is.
 *
 * <p>Names carry the {@code scheduler_} prefix; buckets are kube's ({@code
 * framework_extension_point_duration_seconds}: 0.1 ms doubling 12 times, {@code
 * plugin_execution_duration_seconds}: 10 µs ×1.5, 20 buckets, ...). Thread-safe.
 */
public final class PrometheusTextMetrics implements SchedulerMetrics {
  private final Family scheduleAttempts =
      Family.counter(
          "scheduler_schedule_attempts_total",
          "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could"
              + " not be scheduled, while 'error' means an internal scheduler problem.",
          "result",
          "profile");
  private final Family attemptDuration =
      Family.histogram(
          "scheduler_scheduling_attempt_duration_seconds",
          "Scheduling attempt latency in seconds (scheduling algorithm + binding)",
          exponential(0.001, 2, 15),
          "result",
          "profile");
  private final Family extensionPoint =
      Family.histogram(
          "scheduler_framework_extension_point_duration_seconds",
          "Latency for running all plugins of a specific extension point.",
          exponential(0.0001, 2, 12),
          "extension_point",
          "status",
          "profile");
  private final Family pluginDuration =
      Family.histogram(
          "scheduler_plugin_execution_duration_seconds",
          "Duration for running a plugin at a specific extension point.",
          exponential(0.00001, 1.5, 20),
          "plugin",
          "extension_point",
          "status");
  private final Family pending =
      Family.gauge(
          "scheduler_pending_pods",
          "Number of pending pods, by the queue type. 'active' means number of pods in activeQ;"
              + " 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods"
              + " in unschedulablePods that the scheduler attempted to schedule and failed;"
              + " 'gated' is the number of unschedulable pods that the scheduler never attempted"
              + " to schedule because they are gated.",
          "queue");
  private final Family attempts =
      Family.histogram(
          "scheduler_pod_scheduling_attempts",
          "Number of attempts to successfully schedule a pod.",
          exponential(1, 2, 5));
  private final Family preemptionAttempts =
      Family.counter(
          "scheduler_preemption_attempts_total",
          "Total preemption attempts in the cluster till now");
  private final Family preemptionVictims =
      Family.histogram(
          "scheduler_preemption_victims",
          "Number of selected preemption victims",
          exponential(1, 2, 7));

  private final List<Family> families =
      List.of(
          attemptDuration,
          extensionPoint,
          pending,
          attempts,
          pluginDuration,
          preemptionAttempts,
          preemptionVictims,
          scheduleAttempts);

  /** Creates an empty sink. */
  public PrometheusTextMetrics() {}

  /**
   * Returns {@code count} buckets starting at {@code start}, each {@code factor} times the last.
   */
  static double[] exponential(double start, double factor, int count) {
    double[] b = new double[count];
    double v = start;
    for (int i = 0; i < count; i++) {
      b[i] = v;
      v *= factor;
    }
    return b;
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  @Override
  public void scheduleAttempt(String result, String profile, Duration d) {
    scheduleAttempts.add(1, result, profile);
    attemptDuration.observe(seconds(d), result, profile);
  }

  @Override
  public void extensionPointDuration(
      String extensionPoint, String status, String profile, Duration d) {
    this.extensionPoint.observe(seconds(d), extensionPoint, status, profile);
  }

  @Override
  public void pluginExecutionDuration(
      String plugin, String extensionPoint, String status, Duration d) {
    pluginDuration.observe(seconds(d), plugin, extensionPoint, status);
  }

  @Override
  public void pendingPods(String queue, long count) {
    pending.set(count, queue);
  }

  @Override
  public void podSchedulingAttempts(int attempts) {
    this.attempts.observe(attempts);
  }

  @Override
  public void preemptionAttempt() {
    preemptionAttempts.add(1);
  }

  @Override
  public void preemptionVictims(int n) {
    preemptionVictims.observe(n);
  }

  /**
   * Returns every metric in the Prometheus text format (version 0.0.4): families sorted by name,
   * series by label values, labels in alphabetical order.
   */
  public String scrape() {
    StringBuilder sb = new StringBuilder();
    List<Family> sorted = new ArrayList<>(families);
    sorted.sort((a, b) -> a.name.compareTo(b.name));
    for (Family f : sorted) {
      f.render(sb);
    }
    return sb.toString();
  }

  /** One metric family: its kind, label names, buckets and series. */
  private static final class Family {
    private final String name;
    private final String help;
    private final String type;
    private final String[] labels;
    private final double[] buckets;
    private final Map<List<String>, Series> series = new ConcurrentHashMap<>();

    private Family(String name, String help, String type, double[] buckets, String... labels) {
      this.name = name;
      this.help = help;
      this.type = type;
      this.buckets = buckets;
      this.labels = labels;
    }

    static Family counter(String name, String help, String... labels) {
      return new Family(name, help, "counter", null, labels);
    }

    static Family gauge(String name, String help, String... labels) {
      return new Family(name, help, "gauge", null, labels);
    }

    static Family histogram(String name, String help, double[] buckets, String... labels) {
      return new Family(name, help, "histogram", buckets, labels);
    }

    private Series series(String... values) {
      return series.computeIfAbsent(
          List.of(values), k -> new Series(buckets == null ? 0 : buckets.length));
    }

    void add(double v, String... values) {
      Series s = series(values);
      synchronized (s) {
        s.value += v;
      }
    }

    void set(double v, String... values) {
      Series s = series(values);
      synchronized (s) {
        s.value = v;
      }
    }

    void observe(double v, String... values) {
      Series s = series(values);
      synchronized (s) {
        s.count++;
        s.sum += v;
        for (int i = 0; i < buckets.length; i++) {
          if (v <= buckets[i]) {
            s.buckets[i]++;
          }
        }
      }
    }

    void render(StringBuilder sb) {
      if (series.isEmpty()) {
        return;
      }
      sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
      sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
      Map<String, Map.Entry<List<String>, Series>> ordered = new TreeMap<>();
      for (Map.Entry<List<String>, Series> e : series.entrySet()) {
        ordered.put(String.join("\u0000", e.getKey()), e);
      }
      for (Map.Entry<List<String>, Series> e : ordered.values()) {
        List<String> values = e.getKey();
        Series s = e.getValue();
        synchronized (s) {
          if (buckets == null) {
            sb.append(name).append(labelText(values, null)).append(' ');
            sb.append(number(s.value)).append('\n');
            continue;
          }
          for (int i = 0; i < buckets.length; i++) {
            sb.append(name).append("_bucket").append(labelText(values, number(buckets[i])));
            sb.append(' ').append(s.buckets[i]).append('\n');
          }
          sb.append(name).append("_bucket").append(labelText(values, "+Inf"));
          sb.append(' ').append(s.count).append('\n');
          sb.append(name).append("_sum").append(labelText(values, null));
          sb.append(' ').append(number(s.sum)).append('\n');
          sb.append(name).append("_count").append(labelText(values, null));
          sb.append(' ').append(s.count).append('\n');
        }
      }
    }

    private String labelText(List<String> values, String le) {
      Map<String, String> pairs = new TreeMap<>();
      for (int i = 0; i < labels.length; i++) {
        pairs.put(labels[i], values.get(i));
      }
      if (le != null) {
        // The Go client writes the bucket bound after the sorted labels.
        pairs = new java.util.LinkedHashMap<>(pairs);
        pairs.put("le", le);
      }
      if (pairs.isEmpty()) {
        return "";
      }
      StringBuilder sb = new StringBuilder("{");
      pairs.forEach(
          (k, v) -> {
            if (sb.length() > 1) {
              sb.append(',');
            }
            sb.append(k).append("=\"").append(escape(v)).append('"');
          });
      return sb.append('}').toString();
    }

    private static String escape(String v) {
      return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String number(double v) {
      return goFloat(v);
    }
  }

  /**
   * Formats {@code v} as Go's {@code strconv.FormatFloat(v, 'g', -1, 64)}, which the Prometheus
   * text format uses: the shortest digits, in exponent form when the exponent is below -4 or at
   * least 6 ({@code 1e-05}, {@code 0.0001}, {@code 1.5e+06}).
   */
  static String goFloat(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return "0";
    }
    java.math.BigDecimal bd =
        new java.math.BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
    String digits = bd.unscaledValue().toString();
    int exp = digits.length() - 1 - bd.scale();
    StringBuilder sb = new StringBuilder(v < 0 ? "-" : "");
    if (exp < -4 || exp >= 6) {
      sb.append(digits.charAt(0));
      if (digits.length() > 1) {
        sb.append('.').append(digits, 1, digits.length());
      }
      sb.append('e').append(exp < 0 ? '-' : '+');
      int a = Math.abs(exp);
      if (a < 10) {
        sb.append('0');
      }
      return sb.append(a).toString();
    }
    return sb.append(bd.toPlainString()).toString();
  }

  /** One labelled series: a counter or gauge value, or a histogram's count, sum and buckets. */
  private static final class Series {
    private double value;
    private long count;
    private double sum;
    private final long[] buckets;

    Series(int buckets) {
      this.buckets = new long[buckets];
    }

    @Override
    public String toString() {
      return value + " " + count + " " + sum + " " + Arrays.toString(buckets);
    }
  }
}
