package io.kubesched.core.queue;

import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the queue needs from one scheduling profile.
 *
 * @param preEnqueue runs the profile's PreEnqueue plugins and returns the first non-success status
 *     with its plugin name set (success when all pass); {@code null} admits every pod
 * @param events the cluster events each plugin registered, by plugin name (plugins that do not
 *     implement EnqueueExtensions already expanded to every event); a {@code null} hint means
 *     "always queue". A plugin registering {@code Node/Add} without {@code Node/UpdateNodeTaint} is
 *     registered for {@code UpdateNodeTaint} too, as kube's {@code buildQueueingHintMap} does.
 */
public record QueueProfile(
    Function<PodInfo, Status> preEnqueue, Map<String, List<ClusterEventWithHint>> events) {
  /** Normalises a {@code null} event map to empty. */
  public QueueProfile {
    events = events == null ? Map.of() : events;
  }
}
