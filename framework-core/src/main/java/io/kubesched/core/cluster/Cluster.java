package io.kubesched.core.cluster;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.ClusterWatcher;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.EventResource;
import java.util.List;
import java.util.Optional;

/**
 * The port through which the scheduler sees and changes a cluster: the plugin-facing {@link
 * ClusterClient} and {@link EventRecorder}, plus the node/pod event feed and the status patch the
 * scheduler writes after a failed attempt.
 *
 * <p>Implementations are thread-safe. Objects returned or passed to listeners are shared and must
 * be treated as immutable.
 */
public interface Cluster extends ClusterClient, EventRecorder {
  /**
   * Registers {@code listener}: it first receives every existing node then every existing pod as
   * adds, then every later change, in order and without gaps or duplicates.
   */
  void addListener(ClusterListener listener);

  /** Unregisters {@code listener}; it receives no change made after this call returns. */
  void removeListener(ClusterListener listener);

  /** Adapts {@code watcher} to a {@link ClusterListener} registered with this cluster. */
  @Override
  default ClusterWatcher.Registration watch(ClusterWatcher watcher) {
    ClusterListener l =
        new ClusterListener() {
          @Override
          public void onNodeAdd(V1Node node) {
            watcher.onNodeAdd(node);
          }

          @Override
          public void onNodeUpdate(V1Node oldNode, V1Node node) {
            watcher.onNodeUpdate(oldNode, node);
          }

          @Override
          public void onNodeDelete(V1Node node) {
            watcher.onNodeDelete(node);
          }

          @Override
          public void onPodAdd(V1Pod pod) {
            watcher.onPodAdd(pod);
          }

          @Override
          public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
            watcher.onPodUpdate(oldPod, pod);
          }

          @Override
          public void onPodDelete(V1Pod pod) {
            watcher.onPodDelete(pod);
          }

          @Override
          public void onObjectChange(String resource, Object oldObj, Object newObj) {
            if (EventResource.RESOURCE_CLAIM.equals(resource)) {
              watcher.onResourceClaimChange(
                  (ResourceV1ResourceClaim) oldObj, (ResourceV1ResourceClaim) newObj);
            }
          }
        };
    addListener(l);
    return () -> removeListener(l);
  }

  /** Returns every node. */
  List<V1Node> listNodes();

  /** Returns the node named {@code name}, or empty when there is none. */
  Optional<V1Node> getNode(String name);

  /**
   * Records a failed scheduling attempt in the pod's status, as kube-scheduler's status patch does:
   * condition {@code PodScheduled=False} with {@code reason} and {@code message} and, when {@code
   * nominatedNodeName} is not {@code null}, {@code status.nominatedNodeName} ({@code ""} clears
   * it). Nothing is written when neither changes; a pod that is gone is ignored.
   *
   * @param pod the pod (its namespace and name identify it)
   * @param reason {@code Unschedulable} or {@code SchedulerError}
   * @param message the scheduling failure message
   * @param nominatedNodeName the node to nominate, {@code ""} to clear, {@code null} to leave
   */
  void patchPodScheduledCondition(
      V1Pod pod, String reason, String message, String nominatedNodeName);

  /**
   * Returns the recorder of the profile {@code schedulerName}: kube-scheduler gives each profile
   * its own recorder, whose events name the profile's scheduler as their source ({@code
   * source.component}, {@code reportingController}). The default records through this cluster.
   */
  default EventRecorder eventRecorderFor(String schedulerName) {
    return this;
  }
}
