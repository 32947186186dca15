package io.kubesched.framework;

/**
 * The plugin that orders the active queue. Exactly one is enabled, and all profiles must use the
 * same one.
 */
public interface QueueSortPlugin extends Plugin {
  /** Returns whether {@code a} should be scheduled before {@code b}. */
  boolean less(QueuedPodInfo a, QueuedPodInfo b);
}
