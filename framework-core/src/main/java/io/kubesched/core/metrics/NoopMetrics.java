package io.kubesched.core.metrics;

import java.time.Duration;

/** The metrics sink that ignores everything. */
enum NoopMetrics implements SchedulerMetrics {
  INSTANCE;

  @Override
  public void scheduleAttempt(String result, String profile, Duration d) {}

  @Override
  public void extensionPointDuration(
      String extensionPoint, String status, String profile, Duration d) {}

  @Override
  public void pluginExecutionDuration(
      String plugin, String extensionPoint, String status, Duration d) {}

  @Override
  public void pendingPods(String queue, long count) {}

  @Override
  public void podSchedulingAttempts(int attempts) {}

  @Override
  public void preemptionAttempt() {}

  @Override
  public void preemptionVictims(int n) {}
}
