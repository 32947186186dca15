package io.kubesched.core;

import static io.kubesched.core.Pods.assigned;
import static io.kubesched.core.Pods.isEmpty;
import static io.kubesched.core.Pods.key;
import static io.kubesched.core.Pods.nominatedNodeName;
import static io.kubesched.core.Pods.priority;
import static io.kubesched.core.Pods.terminal;
import static io.kubesched.core.Pods.uid;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.SchedulerCache;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.core.queue.ClusterEvents;
import io.kubesched.core.queue.SchedulingQueue;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.CustomResource;
import io.kubesched.framework.EventResource;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's informer event handlers (kube's {@code eventhandlers.go}): assigned pods go to
 * the cache, unassigned pods of the scheduler's profiles to the queue, nodes to the cache; each
 * change moves the unschedulable pods its cluster event may help. Terminal pods are invisible, as
 * with kube-scheduler's pod informer field selector.
 *
 * <p>Handlers run on whichever thread changed the cluster; the cache and the queue are thread-safe.
 */
final class ClusterEventHandlers implements ClusterListener {
  private static final Logger log = LoggerFactory.getLogger(ClusterEventHandlers.class);

  private final SchedulerCache cache;
  private final SchedulingQueue queue;
  private final WaitingPods waitingPods;
  private final Predicate<V1Pod> responsibleForPod;
  private final Runnable onAssignedPodDeleted;
  private final Map<String, String> customEventResources = new HashMap<>();

  /**
   * Creates the handlers.
   *
   * @param responsibleForPod whether an unassigned pod names one of the scheduler's profiles
   * @param onAssignedPodDeleted called after an assigned pod left the cache (freed resources count
   *     as progress for the simulation driver)
   * @param customResources the custom resources the plugins declare, which name the events of their
   *     objects (see {@link #onCustomObjectChange})
   */
  ClusterEventHandlers(
      SchedulerCache cache,
      SchedulingQueue queue,
      WaitingPods waitingPods,
      Predicate<V1Pod> responsibleForPod,
      Runnable onAssignedPodDeleted,
      List<CustomResource> customResources) {
    this.cache = cache;
    this.queue = queue;
    this.waitingPods = waitingPods;
    this.responsibleForPod = responsibleForPod;
    this.onAssignedPodDeleted = onAssignedPodDeleted;
    for (CustomResource r : customResources) {
      customEventResources.put(r.apiVersion() + "/" + r.kind(), EventResource.of(r));
    }
  }

  @Override
  public void onNodeAdd(V1Node node) {
    cache.addNode(node);
    queue.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, node, null);
  }

  @Override
  public void onNodeUpdate(V1Node oldNode, V1Node node) {
    cache.updateNode(oldNode, node);
    for (ClusterEvent evt : ClusterEvents.nodeSchedulingPropertiesChange(node, oldNode)) {
      queue.moveAllToActiveOrBackoffQueue(evt, oldNode, node, null);
    }
  }

  @Override
  public void onNodeDelete(V1Node node) {
    queue.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_DELETE, node, null, null);
    cache.removeNode(node);
  }

  @Override
  public void onObjectChange(String resource, Object oldObj, Object newObj) {
    int action =
        oldObj == null ? ActionType.ADD : newObj == null ? ActionType.DELETE : ActionType.UPDATE;
    queue.moveAllToActiveOrBackoffQueue(
        io.kubesched.framework.ClusterEvent.of(resource, action), oldObj, newObj, null);
  }

  /**
   * A custom object changed: moves the unschedulable pods its event may help. The event's resource
   * is {@link EventResource#of} the declared custom resource of that apiVersion and kind; for a
   * kind no plugin declares, the plural is guessed from the kind as kube's {@code
   * UnsafeGuessKindToResource} does ({@code Policy} → {@code policies}).
   */
  @Override
  public void onCustomObjectChange(
      String apiVersion, String kind, Map<String, Object> oldObj, Map<String, Object> newObj) {
    String resource = customEventResources.get(apiVersion + "/" + kind);
    if (resource == null) {
      int slash = apiVersion.indexOf('/');
      String group = slash < 0 ? "" : apiVersion.substring(0, slash);
      String version = apiVersion.substring(slash + 1);
      resource =
          EventResource.of(new CustomResource(group, version, guessPlural(kind), kind, true));
    }
    int action =
        oldObj == null ? ActionType.ADD : newObj == null ? ActionType.DELETE : ActionType.UPDATE;
    queue.moveAllToActiveOrBackoffQueue(ClusterEvent.of(resource, action), oldObj, newObj, null);
  }

  /** Returns the lower-case plural of {@code kind}, guessed as kube's RESTMapper guesses it. */
  static String guessPlural(String kind) {
    String singular = kind.toLowerCase(Locale.ROOT);
    if (singular.endsWith("s")) {
      return singular + "es";
    }
    if (singular.endsWith("y")) {
      return singular.substring(0, singular.length() - 1) + "ies";
    }
    return singular + "s";
  }

  @Override
  public void onPodAdd(V1Pod pod) {
    if (terminal(pod)) {
      return;
    }
    if (assigned(pod)) {
      addPodToCache(pod);
    } else if (responsibleForPod.test(pod)) {
      queue.add(pod);
    }
  }

  @Override
  public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
    boolean oldVisible = !terminal(oldPod);
    boolean newVisible = !terminal(pod);
    // The assigned-pod handler (registered first in kube) ...
    boolean oldAssigned = oldVisible && assigned(oldPod);
    boolean newAssigned = newVisible && assigned(pod);
    if (oldAssigned && newAssigned) {
      updatePodInCache(oldPod, pod);
    } else if (newAssigned) {
      addPodToCache(pod);
    } else if (oldAssigned) {
      deletePodFromCache(oldPod);
    }
    // ... then the unscheduled-pod handler.
    boolean oldQueued = oldVisible && !assigned(oldPod) && responsibleForPod.test(oldPod);
    boolean newQueued = newVisible && !assigned(pod) && responsibleForPod.test(pod);
    if (oldQueued && newQueued) {
      updatePodInSchedulingQueue(oldPod, pod);
    } else if (oldQueued) {
      deletePodFromSchedulingQueue(oldPod);
    } else if (newQueued) {
      queue.add(pod);
    }
  }

  @Override
  public void onPodDelete(V1Pod pod) {
    if (terminal(pod)) {
      return;
    }
    if (assigned(pod)) {
      deletePodFromCache(pod);
    } else if (responsibleForPod.test(pod)) {
      deletePodFromSchedulingQueue(pod);
    }
  }

  /**
   * A storage object changed: moves the unschedulable pods its event may help, as kube's generic
   * informer handlers for the storage kinds do.
   */
  @Override
  public void onStorageChange(String resource, int actionType, Object oldObj, Object newObj) {
    queue.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(resource, actionType), oldObj, newObj, null);
  }

  private void addPodToCache(V1Pod pod) {
    try {
      cache.addPod(pod);
    } catch (RuntimeException e) {
      log.atError()
          .setMessage("cache addPod failed")
          .addKeyValue("pod", key(pod))
          .setCause(e)
          .log();
    }
    queue.moveAllToActiveOrBackoffQueue(ClusterEvents.ASSIGNED_POD_ADD, null, pod, null);
  }

  private void updatePodInCache(V1Pod oldPod, V1Pod pod) {
    try {
      cache.updatePod(oldPod, pod);
    } catch (RuntimeException e) {
      log.atError()
          .setMessage("cache updatePod failed")
          .addKeyValue("pod", key(pod))
          .setCause(e)
          .log();
    }
    for (ClusterEvent evt : ClusterEvents.podSchedulingPropertiesChange(pod, oldPod)) {
      queue.moveAllToActiveOrBackoffQueue(evt, oldPod, pod, null);
    }
  }

  private void deletePodFromCache(V1Pod pod) {
    try {
      cache.removePod(pod);
    } catch (RuntimeException e) {
      log.atError()
          .setMessage("cache removePod failed")
          .addKeyValue("pod", key(pod))
          .setCause(e)
          .log();
    }
    onAssignedPodDeleted.run();
    queue.moveAllToActiveOrBackoffQueue(ClusterEvents.ASSIGNED_POD_DELETE, pod, null, null);
  }

  private void updatePodInSchedulingQueue(V1Pod oldPod, V1Pod pod) {
    if (Objects.equals(
        oldPod.getMetadata().getResourceVersion(), pod.getMetadata().getResourceVersion())) {
      return;
    }
    if (cache.isAssumedPod(uid(pod))) {
      return;
    }
    queue.update(oldPod, pod);
    String oldNominated = nominatedNodeName(oldPod);
    if (!isEmpty(oldNominated) && !oldNominated.equals(nominatedNodeName(pod))) {
      queue.moveAllToActiveOrBackoffQueue(
          ClusterEvents.ASSIGNED_POD_DELETE, oldPod, null, lowerOrEqualPriority(priority(oldPod)));
    }
  }

  private void deletePodFromSchedulingQueue(V1Pod pod) {
    queue.delete(pod);
    if (waitingPods.reject(uid(pod), "", "removed")) {
      queue.moveAllToActiveOrBackoffQueue(ClusterEvents.ASSIGNED_POD_DELETE, pod, null, null);
    } else if (!isEmpty(nominatedNodeName(pod))) {
      queue.moveAllToActiveOrBackoffQueue(
          ClusterEvents.ASSIGNED_POD_DELETE, pod, null, lowerOrEqualPriority(priority(pod)));
    }
  }

  private static Predicate<V1Pod> lowerOrEqualPriority(int priority) {
    return p -> priority(p) <= priority;
  }
}
