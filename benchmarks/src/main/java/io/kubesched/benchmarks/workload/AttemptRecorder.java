package io.kubesched.benchmarks.workload;

import io.kubesched.core.metrics.SchedulerMetrics;
import java.time.Duration;
import java.util.Arrays;

/**
 * A metrics sink that keeps the durations of scheduling attempts ({@code
 * scheduler_scheduling_attempt_duration_seconds}: from the pop of the pod to the end of its
 * binding, or to its failure) while recording is on; everything else is ignored (the interface's
 * no-op defaults).
 */
final class AttemptRecorder implements SchedulerMetrics {
  private long[] nanos = new long[1 << 16];
  private int size;
  private volatile boolean recording;

  /** Starts recording (clearing what was recorded). */
  synchronized void start() {
    size = 0;
    recording = true;
  }

  /** Stops recording. */
  void stop() {
    recording = false;
  }

  /** Returns the recorded durations, sorted, in nanoseconds. */
  synchronized long[] sorted() {
    long[] out = Arrays.copyOf(nanos, size);
    Arrays.sort(out);
    return out;
  }

  /** Plugin call durations are not read by the runner: the framework need not time the calls. */
  @Override
  public boolean recordsPluginExecutionDuration() {
    return false;
  }

  @Override
  public void scheduleAttempt(String result, String profile, Duration d) {
    if (!recording) {
      return;
    }
    synchronized (this) {
      if (size == nanos.length) {
        nanos = Arrays.copyOf(nanos, size * 2);
      }
      nanos[size++] = d.toNanos();
    }
  }
}
