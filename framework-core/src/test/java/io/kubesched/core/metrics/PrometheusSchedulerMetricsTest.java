package io.kubesched.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

final class PrometheusSchedulerMetricsTest {

  private static String text(PrometheusSchedulerMetrics m) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, m.registry().scrape());
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Returns the classic bucket bounds (without +Inf) of every histogram, by name. */
  private static Map<String, List<Double>> bounds(PrometheusSchedulerMetrics m) {
    Map<String, List<Double>> out = new TreeMap<>();
    for (MetricSnapshot s : m.registry().scrape()) {
      if (s instanceof HistogramSnapshot h) {
        ClassicHistogramBuckets b = h.getDataPoints().get(0).getClassicBuckets();
        List<Double> le = new ArrayList<>();
        for (int i = 0; i < b.size() - 1; i++) {
          le.add(b.getUpperBound(i));
        }
        out.put(h.getMetadata().getPrometheusName(), le);
      }
    }
    return out;
  }

  /** Unlabelled metrics are exported from the start (at zero), labelled ones once observed. */
  @Test
  void rendersCountersGaugesAndHistogramsWithKubesNamesHelpAndBuckets() throws IOException {
    PrometheusSchedulerMetrics m = new PrometheusSchedulerMetrics();

    m.preemptionAttempt();
    m.preemptionAttempt();
    m.pendingPods("active", 3);
    m.pendingPods("active", 2);
    m.preemptionVictims(3);

    assertThat(text(m))
        .isEqualTo(
            """
            # HELP scheduler_pending_pods Number of pending pods, by the queue type. 'active' \
            means number of pods in activeQ; 'backoff' means number of pods in backoffQ; \
            'unschedulable' means number of pods in unschedulablePods that the scheduler \
            attempted to schedule and failed; 'gated' is the number of unschedulable pods that \
            the scheduler never attempted to schedule because they are gated.
            # TYPE scheduler_pending_pods gauge
            scheduler_pending_pods{queue="active"} 2.0
            # HELP scheduler_pod_scheduling_attempts Number of attempts to successfully schedule \
            a pod.
            # TYPE scheduler_pod_scheduling_attempts histogram
            scheduler_pod_scheduling_attempts_bucket{le="1.0"} 0
            scheduler_pod_scheduling_attempts_bucket{le="2.0"} 0
            scheduler_pod_scheduling_attempts_bucket{le="4.0"} 0
            scheduler_pod_scheduling_attempts_bucket{le="8.0"} 0
            scheduler_pod_scheduling_attempts_bucket{le="16.0"} 0
            scheduler_pod_scheduling_attempts_bucket{le="+Inf"} 0
            scheduler_pod_scheduling_attempts_count 0
            scheduler_pod_scheduling_attempts_sum 0.0
            # HELP scheduler_preemption_attempts_total Total preemption attempts in the cluster \
            till now
            # TYPE scheduler_preemption_attempts_total counter
            scheduler_preemption_attempts_total 2.0
            # HELP scheduler_preemption_victims Number of selected preemption victims
            # TYPE scheduler_preemption_victims histogram
            scheduler_preemption_victims_bucket{le="1.0"} 0
            scheduler_preemption_victims_bucket{le="2.0"} 0
            scheduler_preemption_victims_bucket{le="4.0"} 1
            scheduler_preemption_victims_bucket{le="8.0"} 1
            scheduler_preemption_victims_bucket{le="16.0"} 1
            scheduler_preemption_victims_bucket{le="32.0"} 1
            scheduler_preemption_victims_bucket{le="64.0"} 1
            scheduler_preemption_victims_bucket{le="+Inf"} 1
            scheduler_preemption_victims_count 1
            scheduler_preemption_victims_sum 3.0
            """);
  }

  @Test
  void labelsAreKubesAndDurationsAreSeconds() throws IOException {
    PrometheusSchedulerMetrics m = new PrometheusSchedulerMetrics();

    m.scheduleAttempt("scheduled", "default-scheduler", Duration.ofMillis(250));
    m.scheduleAttempt("scheduled", "default-scheduler", Duration.ofMillis(500));
    m.scheduleAttempt("unschedulable", "default-scheduler", Duration.ofSeconds(1));
    m.extensionPointDuration("Filter", "Success", "default-scheduler", Duration.ofNanos(150_000));
    m.pluginExecutionDuration("NodeResourcesFit", "Filter", "Success", Duration.ofMillis(1));
    m.podSchedulingAttempts(2);

    assertThat(text(m))
        .contains(
            "scheduler_schedule_attempts_total{profile=\"default-scheduler\","
                + "result=\"scheduled\"} 2.0\n",
            "scheduler_schedule_attempts_total{profile=\"default-scheduler\","
                + "result=\"unschedulable\"} 1.0\n",
            "scheduler_scheduling_attempt_duration_seconds_bucket{profile=\"default-scheduler\","
                + "result=\"scheduled\",le=\"0.256\"} 1\n",
            "scheduler_scheduling_attempt_duration_seconds_bucket{profile=\"default-scheduler\","
                + "result=\"scheduled\",le=\"0.512\"} 2\n",
            "scheduler_scheduling_attempt_duration_seconds_sum{profile=\"default-scheduler\","
                + "result=\"scheduled\"} 0.75\n",
            "scheduler_framework_extension_point_duration_seconds_bucket{extension_point="
                + "\"Filter\",profile=\"default-scheduler\",status=\"Success\",le=\"1.0E-4\"} 0\n",
            "scheduler_framework_extension_point_duration_seconds_bucket{extension_point="
                + "\"Filter\",profile=\"default-scheduler\",status=\"Success\",le=\"2.0E-4\"} 1\n",
            "scheduler_framework_extension_point_duration_seconds_bucket{extension_point="
                + "\"Filter\",profile=\"default-scheduler\",status=\"Success\",le=\"0.2048\"} 1\n",
            "scheduler_plugin_execution_duration_seconds_count{extension_point=\"Filter\","
                + "plugin=\"NodeResourcesFit\",status=\"Success\"} 1\n",
            "scheduler_plugin_execution_duration_seconds_sum{extension_point=\"Filter\","
                + "plugin=\"NodeResourcesFit\",status=\"Success\"} 0.001\n",
            "scheduler_pod_scheduling_attempts_bucket{le=\"2.0\"} 1\n");
  }

  @Test
  void histogramBucketsAreKubeSchedulers() {
    PrometheusSchedulerMetrics m = new PrometheusSchedulerMetrics();
    m.scheduleAttempt("scheduled", "p", Duration.ZERO);
    m.extensionPointDuration("Filter", "Success", "p", Duration.ZERO);
    m.pluginExecutionDuration("A", "Filter", "Success", Duration.ZERO);
    m.podSchedulingAttempts(1);
    m.preemptionVictims(1);

    Map<String, List<Double>> bounds = bounds(m);

    assertThat(bounds)
        .containsOnlyKeys(
            "scheduler_scheduling_attempt_duration_seconds",
            "scheduler_framework_extension_point_duration_seconds",
            "scheduler_plugin_execution_duration_seconds",
            "scheduler_pod_scheduling_attempts",
            "scheduler_preemption_victims");
    // ExponentialBuckets(0.001, 2, 15)
    assertThat(bounds.get("scheduler_scheduling_attempt_duration_seconds"))
        .hasSize(15)
        .startsWith(0.001, 0.002, 0.004)
        .endsWith(16.384);
    // ExponentialBuckets(0.0001, 2, 12)
    assertThat(bounds.get("scheduler_framework_extension_point_duration_seconds"))
        .hasSize(12)
        .startsWith(0.0001, 0.0002)
        .endsWith(0.2048);
    // ExponentialBuckets(0.00001, 1.5, 20)
    List<Double> plugin = bounds.get("scheduler_plugin_execution_duration_seconds");
    assertThat(plugin).hasSize(20).startsWith(0.00001);
    assertThat(plugin.get(1)).isCloseTo(0.000015, within(1e-12));
    assertThat(plugin.get(19)).isCloseTo(0.00001 * Math.pow(1.5, 19), within(1e-12));
    // ExponentialBuckets(1, 2, 5) and ExponentialBuckets(1, 2, 7)
    assertThat(bounds.get("scheduler_pod_scheduling_attempts"))
        .containsExactly(1.0, 2.0, 4.0, 8.0, 16.0);
    assertThat(bounds.get("scheduler_preemption_victims"))
        .containsExactly(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0);
  }

  @Test
  void bucketBoundsAreGosRepeatedMultiplication() {
    double[] b = PrometheusSchedulerMetrics.exponentialBuckets(0.00001, 1.5, 3);

    assertThat(b).containsExactly(0.00001, 0.00001 * 1.5, 0.00001 * 1.5 * 1.5);
  }

  @Test
  void registersInTheGivenRegistryOnlyOnce() {
    PrometheusRegistry registry = new PrometheusRegistry();
    PrometheusSchedulerMetrics m = new PrometheusSchedulerMetrics(registry);

    assertThat(m.registry()).isSameAs(registry);
    assertThatThrownBy(() -> new PrometheusSchedulerMetrics(registry))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
