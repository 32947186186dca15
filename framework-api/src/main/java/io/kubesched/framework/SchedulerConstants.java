package io.kubesched.framework;

/** Names from kube's core API that the scheduler reads and writes. */
public final class SchedulerConstants {
  /**
   * The scheduler name of a pod without {@code spec.schedulerName}, and of a configuration's single
   * unnamed profile ({@code v1.DefaultSchedulerName}).
   */
  public static final String DEFAULT_SCHEDULER_NAME = "default-scheduler";

  /**
   * The type of the pod condition the scheduler sets: {@code False} with reason {@code
   * Unschedulable} after a failed attempt, {@code True} once bound ({@code v1.PodScheduled}).
   */
  public static final String POD_SCHEDULED = "PodScheduled";

  private SchedulerConstants() {}
}
