package io.kubesched.framework;

import java.util.List;

/**
 * The cluster events that may make a pod rejected by this plugin schedulable. Implemented by
 * PreEnqueue, PreFilter, Filter, Reserve and Permit plugins; a pod rejected by the plugin stays
 * among the unschedulable pods until one of these events happens (and its hint says QUEUE) or the
 * pod has waited the maximum time.
 *
 * <p>A plugin of those kinds that does not implement this interface is assumed interested in every
 * event. Returning an empty list means no event can help (the pod waits for the flush).
 */
public interface EnqueueExtensions {
  /** Returns the events and hints; never {@code null}. */
  List<ClusterEventWithHint> eventsToRegister();
}
