package io.kubesched.framework;

/** What a queueing hint function says of an event for a rejected pod. */
public enum QueueingHint {
  /** The event may make the pod schedulable: requeue it. */
  QUEUE,
  /** The event cannot help the pod: leave it where it is. */
  SKIP
}
