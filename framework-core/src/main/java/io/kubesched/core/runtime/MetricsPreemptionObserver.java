package io.kubesched.core.runtime;

import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.PreemptionObserver;
import java.util.Objects;

/**
 * Reports the preemption plugins' attempts and victims to the scheduler's metrics ({@link
 * Framework#preemptionObserver()}).
 *
 * @param metrics the scheduler's metrics
 */
record MetricsPreemptionObserver(SchedulerMetrics metrics) implements PreemptionObserver {
  MetricsPreemptionObserver {
    Objects.requireNonNull(metrics, "metrics must not be null");
  }

  @Override
  public void attempt() {
    metrics.preemptionAttempt();
  }

  @Override
  public void victims(int count) {
    metrics.preemptionVictims(count);
  }
}
