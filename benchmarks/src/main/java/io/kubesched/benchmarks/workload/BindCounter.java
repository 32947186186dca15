package io.kubesched.benchmarks.workload;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cluster.ClusterListener;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the pods the scheduler binds, by the prefix of their name ({@value #INIT}, {@value
 * #MEASURED}, {@value #CHURN}), and the time of the last measured bind; the cluster calls it
 * synchronously on the thread that binds.
 */
final class BindCounter implements ClusterListener {
  static final String INIT = "init-";
  static final String MEASURED = "measured-";
  static final String CHURN = "churn-";

  final AtomicInteger init = new AtomicInteger();
  final AtomicInteger measured = new AtomicInteger();
  final AtomicInteger churn = new AtomicInteger();
  final AtomicInteger deleted = new AtomicInteger();
  final AtomicLong lastMeasuredBindNanos = new AtomicLong();

  @Override
  public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
    if (isEmpty(oldPod.getSpec().getNodeName()) && !isEmpty(pod.getSpec().getNodeName())) {
      String name = pod.getMetadata().getName();
      if (name.startsWith(MEASURED)) {
        measured.incrementAndGet();
        lastMeasuredBindNanos.set(System.nanoTime());
        synchronized (this) {
          notifyAll();
        }
      } else if (name.startsWith(INIT)) {
        init.incrementAndGet();
      } else if (name.startsWith(CHURN)) {
        churn.incrementAndGet();
      }
    }
  }

  /**
   * Waits until {@code target} measured pods are bound or {@link System#nanoTime()} passes {@code
   * deadlineNanos}; returns whether the target was reached.
   */
  synchronized boolean awaitMeasured(int target, long deadlineNanos) throws InterruptedException {
    while (measured.get() < target) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(left / 1_000_000L, (int) (left % 1_000_000L));
    }
    return true;
  }

  @Override
  public void onPodDelete(V1Pod pod) {
    deleted.incrementAndGet();
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
