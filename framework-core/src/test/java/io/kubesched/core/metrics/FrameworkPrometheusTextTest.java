package io.kubesched.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class FrameworkPrometheusTextTest {

  static Stream<Arguments> floats() {
    return Stream.of(
        argumentSet("zero", 0.0, "0"),
        argumentSet("one", 1.0, "1"),
        argumentSet("an integer", 64.0, "64"),
        argumentSet("a small decimal", 0.0001, "0.0001"),
        argumentSet("below 1e-4 uses an exponent", 0.00001, "1e-05"),
        argumentSet("a fraction with exponent", 0.000015, "1.5e-05"),
        argumentSet("a million uses an exponent", 1_500_000.0, "1.5e+06"),
        argumentSet("below a million stays plain", 999_999.0, "999999"),
        argumentSet("negative", -0.25, "-0.25"),
        argumentSet("infinity", Double.POSITIVE_INFINITY, "+Inf"));
  }

  @ParameterizedTest
  @MethodSource("floats")
  void formatsFloatsAsGo(double v, String expected) {
    assertThat(PrometheusTextMetrics.goFloat(v)).isEqualTo(expected);
  }

  @Test
  void rendersCountersGaugesAndHistogramsWithKubesNamesAndBuckets() {
    PrometheusTextMetrics m = new PrometheusTextMetrics();

    m.preemptionAttempt();
    m.preemptionAttempt();
    m.pendingPods("active", 3);
    m.preemptionVictims(3);

    assertThat(m.scrape())
        .isEqualTo(
            """
            # HELP scheduler_pending_pods Number of pending pods, by the queue type. 'active' \
            means number of pods in activeQ; 'backoff' means number of pods in backoffQ; \
            'unschedulable' means number of pods in unschedulablePods that the scheduler \
            attempted to schedule and failed; 'gated' is the number of unschedulable pods that \
            the scheduler never attempted to schedule because they are gated.
            # TYPE scheduler_pending_pods gauge
            scheduler_pending_pods{queue="active"} 3
            # HELP scheduler_preemption_attempts_total Total preemption attempts in the cluster \
            till now
            # TYPE scheduler_preemption_attempts_total counter
            scheduler_preemption_attempts_total 2
            # HELP scheduler_preemption_victims Number of selected preemption victims
            # TYPE scheduler_preemption_victims histogram
            scheduler_preemption_victims_bucket{le="1"} 0
            scheduler_preemption_victims_bucket{le="2"} 0
            scheduler_preemption_victims_bucket{le="4"} 1
            scheduler_preemption_victims_bucket{le="8"} 1
            scheduler_preemption_victims_bucket{le="16"} 1
            scheduler_preemption_victims_bucket{le="32"} 1
            scheduler_preemption_victims_bucket{le="64"} 1
            scheduler_preemption_victims_bucket{le="+Inf"} 1
            scheduler_preemption_victims_sum 3
            scheduler_preemption_victims_count 1
            """);
  }

  @Test
  void labelsAreSortedAndBucketsFollowKube() {
    PrometheusTextMetrics m = new PrometheusTextMetrics();

    m.extensionPointDuration("Filter", "Success", "default-scheduler", Duration.ofNanos(150_000));

    assertThat(m.scrape())
        .contains(
            "scheduler_framework_extension_point_duration_seconds_bucket{extension_point=\"Filter\",profile=\"default-scheduler\",status=\"Success\",le=\"0.0001\"}"
                + " 0\n")
        .contains(
            "scheduler_framework_extension_point_duration_seconds_bucket{extension_point=\"Filter\",profile=\"default-scheduler\",status=\"Success\",le=\"0.0002\"}"
                + " 1\n")
        .contains(
            "scheduler_framework_extension_point_duration_seconds_bucket{extension_point=\"Filter\",profile=\"default-scheduler\",status=\"Success\",le=\"0.2048\"}"
                + " 1\n")
        .contains(
            "scheduler_framework_extension_point_duration_seconds_sum{extension_point=\"Filter\","
                + "profile=\"default-scheduler\",status=\"Success\"} 0.00015\n");
  }
}
