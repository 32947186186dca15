package io.kubesched.invariants;

import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubesched.core.cluster.Cluster;
import io.kubesched.core.cluster.ClusterException;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.framework.SchedulingException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cluster as the scheduler sees it: an {@link InMemoryCluster} whose writes by the scheduler
 * are observed (and binds made to fail on demand). It records what the checker needs and checks, at
 * the moment of each write, what can only be judged then: each bind's node-level constraints
 * against the node as it is at that moment, each pod bound at most once, and each eviction's victim
 * having a lower priority than some pending pod.
 */
final class RecordingCluster implements Cluster {
  private final InMemoryCluster delegate;
  private final Map<String, Integer> bindsByUid = new HashMap<>();
  private final Set<String> evictedUids = new HashSet<>();
  private final List<String> violations = new ArrayList<>();
  private int failNext;
  private boolean failWithConflict;
  private int failedBinds;

  RecordingCluster(InMemoryCluster delegate) {
    this.delegate = delegate;
  }

  /** Makes the next {@code count} binds fail. */
  void failNextBinds(int count, boolean conflict) {
    failNext += count;
    failWithConflict = conflict;
  }

  int failedBinds() {
    return failedBinds;
  }

  Set<String> evictedUids() {
    return evictedUids;
  }

  List<String> violations() {
    return violations;
  }

  @Override
  public void bind(V1Pod pod, String nodeName) {
    String uid = pod.getMetadata().getUid();
    String name = Checker.key(pod);
    if (failNext > 0) {
      failNext--;
      failedBinds++;
      if (failWithConflict) {
        throw new ClusterException(ClusterException.Reason.CONFLICT, "injected conflict");
      }
      throw new SchedulingException("injected internal error");
    }
    Optional<V1Node> node = delegate.getNode(nodeName);
    if (node.isPresent()) {
      Optional<V1Pod> stored =
          delegate.getPod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
      stored.ifPresent(
          p -> Checker.nodeLevelViolations(p, node.get(), violations, "at bind of " + name));
    }
    delegate.bind(pod, nodeName);
    int n = bindsByUid.merge(uid, 1, Integer::sum);
    if (n > 1) {
      violations.add("pod " + name + " (uid " + uid + ") bound " + n + " times");
    }
  }

  @Override
  public void deletePod(V1Pod pod) {
    Optional<V1Pod> stored =
        delegate.getPod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
    if (stored.isPresent()) {
      V1Pod victim = stored.get();
      int victimPriority = Checker.priority(victim);
      int maxPending = Integer.MIN_VALUE;
      for (V1Pod p : delegate.listPods()) {
        if (!Checker.isBound(p)) {
          maxPending = Math.max(maxPending, Checker.priority(p));
        }
      }
      if (victimPriority >= maxPending) {
        violations.add(
            "evicted "
                + Checker.key(victim)
                + " (priority "
                + victimPriority
                + ") while the highest pending priority is "
                + maxPending);
      }
      evictedUids.add(victim.getMetadata().getUid());
    }
    delegate.deletePod(pod);
  }

  @Override
  public void addListener(ClusterListener listener) {
    delegate.addListener(listener);
  }

  @Override
  public void removeListener(ClusterListener listener) {
    delegate.removeListener(listener);
  }

  @Override
  public List<V1Node> listNodes() {
    return delegate.listNodes();
  }

  @Override
  public Optional<V1Node> getNode(String name) {
    return delegate.getNode(name);
  }

  @Override
  public void patchPodScheduledCondition(
      V1Pod pod, String reason, String message, String nominatedNodeName) {
    delegate.patchPodScheduledCondition(pod, reason, message, nominatedNodeName);
  }

  @Override
  public void updatePodCondition(V1Pod pod, V1PodCondition condition) {
    delegate.updatePodCondition(pod, condition);
  }

  @Override
  public void setNominatedNodeName(V1Pod pod, String nodeName) {
    delegate.setNominatedNodeName(pod, nodeName);
  }

  @Override
  public Optional<V1Pod> getPod(String namespace, String name) {
    return delegate.getPod(namespace, name);
  }

  @Override
  public List<V1Pod> listPods() {
    return delegate.listPods();
  }

  @Override
  public Map<String, String> namespaceLabels(String namespace) {
    return delegate.namespaceLabels(namespace);
  }

  @Override
  public List<V1Namespace> listNamespaces() {
    return delegate.listNamespaces();
  }

  @Override
  public List<V1PodDisruptionBudget> listPodDisruptionBudgets() {
    return delegate.listPodDisruptionBudgets();
  }

  @Override
  public List<V1PriorityClass> listPriorityClasses() {
    return delegate.listPriorityClasses();
  }

  @Override
  public List<V1Service> listServices(String namespace) {
    return delegate.listServices(namespace);
  }

  @Override
  public List<V1ReplicaSet> listReplicaSets(String namespace) {
    return delegate.listReplicaSets(namespace);
  }

  @Override
  public List<V1StatefulSet> listStatefulSets(String namespace) {
    return delegate.listStatefulSets(namespace);
  }

  @Override
  public List<V1ReplicationController> listReplicationControllers(String namespace) {
    return delegate.listReplicationControllers(namespace);
  }

  @Override
  public List<Map<String, Object>> listCustomObjects(
      String apiVersion, String kind, String namespace) {
    return delegate.listCustomObjects(apiVersion, kind, namespace);
  }

  @Override
  public void event(Object regarding, String type, String reason, String action, String message) {
    delegate.event(regarding, type, reason, action, message);
  }
}
