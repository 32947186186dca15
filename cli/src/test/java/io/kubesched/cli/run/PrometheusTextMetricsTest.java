package io.kubesched.cli.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class PrometheusTextMetricsTest {
  @Test
  void rendersEveryFamilyInTheTextFormat() {
    PrometheusTextMetrics m = new PrometheusTextMetrics();
    m.scheduleAttempt("scheduled", "default-scheduler", Duration.ofMillis(250));
    m.scheduleAttempt("scheduled", "default-scheduler", Duration.ofMillis(500));
    m.scheduleAttempt("unschedulable", "default-scheduler", Duration.ofSeconds(1));
    m.extensionPointDuration("Filter", "Success", "default-scheduler", Duration.ofMillis(2));
    m.pluginExecutionDuration("NodeResourcesFit", "Filter", "Success", Duration.ofMillis(1));
    m.pendingPods("active", 3);
    m.pendingPods("active", 2);
    m.pendingPods("unschedulable", 1);
    m.podSchedulingAttempts(2);
    m.preemptionAttempt();
    m.preemptionVictims(4);

    assertThat(m.render())
        .isEqualTo(
            String.join(
                "\n",
                "# HELP scheduler_schedule_attempts_total Number of attempts to schedule pods, by"
                    + " the result.",
                "# TYPE scheduler_schedule_attempts_total counter",
                "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"}"
                    + " 2",
                "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"unschedulable\"}"
                    + " 1",
                "# HELP scheduler_scheduling_attempt_duration_seconds Scheduling attempt latency in"
                    + " seconds (scheduling algorithm + binding).",
                "# TYPE scheduler_scheduling_attempt_duration_seconds summary",
                "scheduler_scheduling_attempt_duration_seconds_count{profile=\"default-scheduler\",result=\"scheduled\"}"
                    + " 2",
                "scheduler_scheduling_attempt_duration_seconds_count{profile=\"default-scheduler\",result=\"unschedulable\"}"
                    + " 1",
                "scheduler_scheduling_attempt_duration_seconds_sum{profile=\"default-scheduler\",result=\"scheduled\"}"
                    + " 0.75",
                "scheduler_scheduling_attempt_duration_seconds_sum{profile=\"default-scheduler\",result=\"unschedulable\"}"
                    + " 1",
                "# HELP scheduler_framework_extension_point_duration_seconds Latency for running"
                    + " all plugins of a specific extension point.",
                "# TYPE scheduler_framework_extension_point_duration_seconds summary",
                "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"Filter\",profile=\"default-scheduler\",status=\"Success\"}"
                    + " 1",
                "scheduler_framework_extension_point_duration_seconds_sum{extension_point=\"Filter\",profile=\"default-scheduler\",status=\"Success\"}"
                    + " 0.002",
                "# HELP scheduler_plugin_execution_duration_seconds Duration for running a plugin"
                    + " at a specific extension point.",
                "# TYPE scheduler_plugin_execution_duration_seconds summary",
                "scheduler_plugin_execution_duration_seconds_count{extension_point=\"Filter\",plugin=\"NodeResourcesFit\",status=\"Success\"}"
                    + " 1",
                "scheduler_plugin_execution_duration_seconds_sum{extension_point=\"Filter\",plugin=\"NodeResourcesFit\",status=\"Success\"}"
                    + " 0.001",
                "# HELP scheduler_pending_pods Number of pending pods, by the queue type.",
                "# TYPE scheduler_pending_pods gauge",
                "scheduler_pending_pods{queue=\"active\"} 2",
                "scheduler_pending_pods{queue=\"unschedulable\"} 1",
                "# HELP scheduler_pod_scheduling_attempts Number of attempts to successfully"
                    + " schedule a pod.",
                "# TYPE scheduler_pod_scheduling_attempts summary",
                "scheduler_pod_scheduling_attempts_count 1",
                "scheduler_pod_scheduling_attempts_sum 2",
                "# HELP scheduler_preemption_attempts_total Total preemption attempts so far.",
                "# TYPE scheduler_preemption_attempts_total counter",
                "scheduler_preemption_attempts_total 1",
                "# HELP scheduler_preemption_victims Number of selected preemption victims.",
                "# TYPE scheduler_preemption_victims summary",
                "scheduler_preemption_victims_count 1",
                "scheduler_preemption_victims_sum 4",
                ""));
  }
}
