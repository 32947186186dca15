package io.kubesched.plugins.queuesort;

import io.kubesched.framework.KeyedQueueSort;
import io.kubesched.framework.QueueSortKey;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.plugins.PluginNames;
import java.time.Instant;

/**
 * {@code PrioritySort} is the queue-sort plugin that orders pods by priority, highest first, and
 * pods of equal priority by the time they were enqueued, oldest first.
 */
public final class PrioritySort implements KeyedQueueSort {
  /** The plugin's name. */
  public static final String NAME = PluginNames.PRIORITY_SORT;

  /** Creates the plugin. */
  public PrioritySort() {}

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Returns whether {@code a} goes first: a higher {@code spec.priority} (0 when unset), or the
   * same priority and an earlier enqueue timestamp.
   */
  @Override
  public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
    int p1 = a.podInfo().priority();
    int p2 = b.podInfo().priority();
    return p1 > p2 || (p1 == p2 && a.timestamp().isBefore(b.timestamp()));
  }

  /** The key of {@link #less}: the negated priority, then the timestamp's second and nanosecond. */
  @Override
  public QueueSortKey sortKey(QueuedPodInfo pod) {
    Instant t = pod.timestamp();
    return new QueueSortKey(-(long) pod.podInfo().priority(), t.getEpochSecond(), t.getNano());
  }
}
