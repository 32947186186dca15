package io.kubesched.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class FrameworkMetricsTest {

  @Test
  void countsAndSumsObservationsBySeries() {
    InMemoryMetrics m = new InMemoryMetrics();

    m.extensionPointDuration("Filter", "Success", "default-scheduler", Duration.ofMillis(2));
    m.extensionPointDuration("Filter", "Success", "default-scheduler", Duration.ofMillis(3));
    m.extensionPointDuration("Score", "Error", "default-scheduler", Duration.ofMillis(1));
    m.scheduleAttempt("scheduled", "default-scheduler", Duration.ofMillis(7));
    m.preemptionAttempt();
    m.preemptionVictims(3);
    m.podSchedulingAttempts(2);

    assertThat(
            List.of(
                m.count(
                    InMemoryMetrics.EXTENSION_POINT_DURATION,
                    "Filter",
                    "Success",
                    "default-scheduler"),
                m.sum(
                    InMemoryMetrics.EXTENSION_POINT_DURATION,
                    "Filter",
                    "Success",
                    "default-scheduler"),
                m.count(InMemoryMetrics.SCHEDULE_ATTEMPTS, "scheduled", "default-scheduler"),
                m.count(InMemoryMetrics.PREEMPTION_ATTEMPTS),
                m.sum(InMemoryMetrics.PREEMPTION_VICTIMS),
                m.sum(InMemoryMetrics.POD_SCHEDULING_ATTEMPTS)))
        .containsExactly(2L, 5_000_000L, 1L, 1L, 3L, 2L);
    assertThat(m.series(InMemoryMetrics.EXTENSION_POINT_DURATION))
        .containsExactly(
            "framework_extension_point_duration_seconds{Filter,Success,default-scheduler}",
            "framework_extension_point_duration_seconds{Score,Error,default-scheduler}");
  }

  @Test
  void gaugesKeepTheLastValueAndResetForgets() {
    InMemoryMetrics m = new InMemoryMetrics();

    m.pendingPods("active", 4);
    m.pendingPods("active", 2);
    long before = m.gauge(InMemoryMetrics.PENDING_PODS, "active");
    m.reset();

    assertThat(List.of(before, m.gauge(InMemoryMetrics.PENDING_PODS, "active")))
        .containsExactly(2L, 0L);
  }

  @Test
  void noopIgnoresEverything() {
    SchedulerMetrics m = SchedulerMetrics.NOOP;

    m.scheduleAttempt("error", "p", Duration.ZERO);
    m.pendingPods("gated", 1);

    assertThat(m).isSameAs(SchedulerMetrics.NOOP);
  }
}
