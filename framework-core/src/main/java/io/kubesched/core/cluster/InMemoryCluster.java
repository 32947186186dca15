package io.kubesched.core.cluster;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code InMemoryCluster} is a cluster held in memory: the simulator's and the tests' stand-in for
 * the API server and the scheduler's informers.
 *
 * <p>It stores nodes, pods, namespaces, priority classes, pod disruption budgets, services, replica
 * sets, stateful sets, replication controllers, deployments, jobs, daemon sets and custom objects
 * (generic maps). Every write bumps a cluster-wide {@code metadata.resourceVersion}, as etcd does;
 * node and pod changes are delivered to the {@link ClusterListener}s in the order they happened.
 *
 * <p>Objects given to {@code create}/{@code update} are copied; objects handed out (by reads and to
 * listeners) are the stored instances and must not be modified: a change is always a new object.
 * Pod creation applies what the API server's admission would that matters for scheduling: {@code
 * spec.priority} is resolved from {@code spec.priorityClassName} or the global-default {@link
 * V1PriorityClass} (create priority classes before their pods), {@code spec.schedulerName} defaults
 * to {@code default-scheduler} and {@code status.phase} to {@code Pending}.
 *
 * <p>Thread-safe. Listener callbacks run on the thread that made a change, outside the lock and one
 * at a time; a change made while another thread is delivering is delivered by that thread.
 */
public final class InMemoryCluster implements Cluster {
  private static final Logger log = LoggerFactory.getLogger(InMemoryCluster.class);

  /** The condition type the scheduler and the binding subresource set. */
  public static final String POD_SCHEDULED =
      io.kubesched.framework.SchedulerConstants.POD_SCHEDULED;

  /** The PodScheduled reason the API server gives a pod created with scheduling gates. */
  public static final String REASON_SCHEDULING_GATED = "SchedulingGated";

  /** The PodScheduled message the API server gives a pod created with scheduling gates. */
  public static final String SCHEDULING_GATED_MESSAGE =
      "Scheduling is blocked due to non-empty scheduling gates";

  private static final String SYSTEM_CLUSTER_CRITICAL = "system-cluster-critical";
  private static final String SYSTEM_NODE_CRITICAL = "system-node-critical";
  private static final int SYSTEM_CLUSTER_CRITICAL_VALUE = 2000000000;
  private static final int SYSTEM_NODE_CRITICAL_VALUE = 2000001000;
  private static final String PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority";
  private static final String LABEL_METADATA_NAME = "kubernetes.io/metadata.name";
  private static final String TAINT_NOT_READY = "node.kubernetes.io/not-ready";
  private static final String TAINT_UNREACHABLE = "node.kubernetes.io/unreachable";
  private static final long DEFAULT_TOLERATION_SECONDS = 300L;
  private static final String DEFAULT_SCHEDULER_NAME =
      io.kubesched.framework.SchedulerConstants.DEFAULT_SCHEDULER_NAME;

  /** A supported kind: its class, its API resource name for messages, and its scope. */
  private record Kind(Class<?> type, String resource, boolean namespaced) {}

  private static final List<Kind> KINDS =
      List.of(
          new Kind(V1Node.class, "nodes", false),
          new Kind(V1Pod.class, "pods", true),
          new Kind(V1Namespace.class, "namespaces", false),
          new Kind(V1PriorityClass.class, "priorityclasses.scheduling.k8s.io", false),
          new Kind(V1PodDisruptionBudget.class, "poddisruptionbudgets.policy", true),
          new Kind(V1Service.class, "services", true),
          new Kind(V1ReplicaSet.class, "replicasets.apps", true),
          new Kind(V1StatefulSet.class, "statefulsets.apps", true),
          new Kind(V1ReplicationController.class, "replicationcontrollers", true),
          new Kind(V1Deployment.class, "deployments.apps", true),
          new Kind(V1Job.class, "jobs.batch", true),
          new Kind(V1DaemonSet.class, "daemonsets.apps", true));

  /** A pending listener notification: the listeners registered when it happened, and the call. */
  private record Notification(List<ClusterListener> targets, Consumer<ClusterListener> call) {}

  private final Clock clock;
  private final Object lock = new Object();
  private final Map<Class<?>, Kind> kinds = new LinkedHashMap<>();
  private final Map<Class<?>, Map<String, KubernetesObject>> stores = new LinkedHashMap<>();
  private final Map<String, Map<String, Object>> customObjects = new LinkedHashMap<>();
  private final List<CoreEvent> events = new ArrayList<>();
  private final ArrayDeque<Notification> pending = new ArrayDeque<>();
  private List<ClusterListener> listeners = List.of();
  private boolean dispatching;
  private long resourceVersion;

  /** Creates an empty cluster whose timestamps come from the system clock. */
  public InMemoryCluster() {
    this(Clock.systemUTC());
  }

  /**
   * Creates an empty cluster whose timestamps (creation, conditions, events) come from {@code
   * clock}.
   */
  public InMemoryCluster(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock must not be null");
    for (Kind k : KINDS) {
      kinds.put(k.type(), k);
      stores.put(k.type(), new LinkedHashMap<>());
    }
  }

  // ---------------------------------------------------------------- listeners

  @Override
  public void addListener(ClusterListener listener) {
    Objects.requireNonNull(listener, "listener must not be null");
    synchronized (lock) {
      List<ClusterListener> next = new ArrayList<>(listeners);
      next.add(listener);
      listeners = List.copyOf(next);
      List<ClusterListener> only = List.of(listener);
      for (KubernetesObject n : stores.get(V1Node.class).values()) {
        pending.add(new Notification(only, l -> l.onNodeAdd((V1Node) n)));
      }
      for (KubernetesObject p : stores.get(V1Pod.class).values()) {
        pending.add(new Notification(only, l -> l.onPodAdd((V1Pod) p)));
      }
    }
    dispatch();
  }

  @Override
  public void removeListener(ClusterListener listener) {
    synchronized (lock) {
      List<ClusterListener> next = new ArrayList<>(listeners);
      next.remove(listener);
      listeners = List.copyOf(next);
    }
  }

  private void notifyLocked(Consumer<ClusterListener> call) {
    if (!listeners.isEmpty()) {
      pending.add(new Notification(listeners, call));
    }
  }

  /** Delivers pending notifications unless another thread (or an outer frame) already does. */
  private void dispatch() {
    synchronized (lock) {
      if (dispatching) {
        return;
      }
      dispatching = true;
    }
    boolean done = false;
    try {
      while (true) {
        Notification n;
        synchronized (lock) {
          n = pending.poll();
          if (n == null) {
            dispatching = false;
            done = true;
            return;
          }
        }
        for (ClusterListener l : n.targets()) {
          try {
            n.call().accept(l);
          } catch (RuntimeException e) {
            log.atWarn().setMessage("cluster listener failed").setCause(e).log();
          }
        }
      }
    } finally {
      if (!done) {
        synchronized (lock) {
          dispatching = false;
        }
      }
    }
  }

  // ---------------------------------------------------------------- generic CRUD

  /**
   * Creates {@code obj} (a copy of it) and returns the stored object.
   *
   * @throws ClusterException {@code ALREADY_EXISTS} when an object of that kind, namespace and name
   *     exists; {@code FORBIDDEN} when a pod names an unknown priority class
   * @throws IllegalArgumentException when the kind is not supported or the name is missing
   */
  public <T extends KubernetesObject> T create(T obj) {
    Kind kind = kindOf(obj);
    T stored;
    synchronized (lock) {
      T copy = ObjectCopier.deepCopy(obj);
      V1ObjectMeta meta = prepareMeta(kind, copy);
      Map<String, KubernetesObject> store = stores.get(kind.type());
      String key = key(kind, meta.getNamespace(), meta.getName());
      if (store.containsKey(key)) {
        throw new ClusterException(
            ClusterException.Reason.ALREADY_EXISTS,
            kind.resource() + " \"" + meta.getName() + "\" already exists");
      }
      if (meta.getCreationTimestamp() == null) {
        meta.setCreationTimestamp(now());
      }
      if (copy instanceof V1Pod pod) {
        admitPod(pod);
      } else if (copy instanceof V1Node node) {
        defaultNodeStatus(node);
      } else if (copy instanceof V1Namespace) {
        meta.putLabelsItem(LABEL_METADATA_NAME, meta.getName());
      }
      meta.setResourceVersion(nextResourceVersion());
      store.put(key, copy);
      stored = copy;
      if (copy instanceof V1Node node) {
        notifyLocked(l -> l.onNodeAdd(node));
      } else if (copy instanceof V1Pod pod) {
        notifyLocked(l -> l.onPodAdd(pod));
      }
    }
    dispatch();
    return stored;
  }

  /**
   * Replaces the stored object of the same kind, namespace and name with (a copy of) {@code obj}
   * and returns the stored object. When {@code obj} carries a {@code resourceVersion}, it must be
   * the current one (optimistic concurrency, as the API server checks).
   *
   * @throws ClusterException {@code NOT_FOUND} when there is no such object, {@code CONFLICT} on a
   *     stale resourceVersion
   */
  public <T extends KubernetesObject> T update(T obj) {
    Kind kind = kindOf(obj);
    T stored;
    synchronized (lock) {
      T copy = ObjectCopier.deepCopy(obj);
      V1ObjectMeta meta = prepareMeta(kind, copy);
      Map<String, KubernetesObject> store = stores.get(kind.type());
      String key = key(kind, meta.getNamespace(), meta.getName());
      KubernetesObject old = store.get(key);
      if (old == null) {
        throw notFound(kind, meta.getName());
      }
      String rv = meta.getResourceVersion();
      if (rv != null && !rv.isEmpty() && !rv.equals(old.getMetadata().getResourceVersion())) {
        throw new ClusterException(
            ClusterException.Reason.CONFLICT,
            "Operation cannot be fulfilled on "
                + kind.resource()
                + " \""
                + meta.getName()
                + "\": the object has been modified; please apply your changes to the latest"
                + " version and try again");
      }
      if (meta.getCreationTimestamp() == null) {
        meta.setCreationTimestamp(old.getMetadata().getCreationTimestamp());
      }
      if (meta.getUid() == null) {
        meta.setUid(old.getMetadata().getUid());
      }
      if (copy instanceof V1Node node) {
        defaultNodeStatus(node);
      } else if (copy instanceof V1Namespace) {
        meta.putLabelsItem(LABEL_METADATA_NAME, meta.getName());
      }
      replaceLocked(kind, key, old, copy);
      stored = copy;
    }
    dispatch();
    return stored;
  }

  /**
   * Deletes the object of {@code type} named {@code namespace/name} ({@code namespace} is ignored
   * for cluster-scoped kinds) and returns whether there was one.
   */
  public <T extends KubernetesObject> boolean delete(Class<T> type, String namespace, String name) {
    Kind kind = kind(type);
    synchronized (lock) {
      KubernetesObject old =
          stores.get(type).remove(key(kind, namespaceOrDefault(kind, namespace), name));
      if (old == null) {
        return false;
      }
      if (old instanceof V1Node node) {
        notifyLocked(l -> l.onNodeDelete(node));
      } else if (old instanceof V1Pod pod) {
        notifyLocked(l -> l.onPodDelete(pod));
      }
    }
    dispatch();
    return true;
  }

  /** Returns the object of {@code type} named {@code namespace/name}, or empty. */
  public <T extends KubernetesObject> Optional<T> get(
      Class<T> type, String namespace, String name) {
    Kind kind = kind(type);
    synchronized (lock) {
      return Optional.ofNullable(
          type.cast(stores.get(type).get(key(kind, namespaceOrDefault(kind, namespace), name))));
    }
  }

  /**
   * Returns the objects of {@code type} in creation order; of {@code namespace} only unless it is
   * {@code null}.
   */
  public <T extends KubernetesObject> List<T> list(Class<T> type, String namespace) {
    Kind kind = kind(type);
    synchronized (lock) {
      List<T> out = new ArrayList<>();
      for (KubernetesObject o : stores.get(type).values()) {
        if (namespace == null
            || !kind.namespaced()
            || namespace.equals(o.getMetadata().getNamespace())) {
          out.add(type.cast(o));
        }
      }
      return out;
    }
  }

  /** Returns the current cluster-wide resource version (the last one assigned). */
  public long resourceVersion() {
    synchronized (lock) {
      return resourceVersion;
    }
  }

  // ---------------------------------------------------------------- nodes and pods

  /** Creates {@code node}; see {@link #create(KubernetesObject)}. */
  public V1Node addNode(V1Node node) {
    return create(node);
  }

  /** Replaces {@code node}; see {@link #update(KubernetesObject)}. */
  public V1Node updateNode(V1Node node) {
    return update(node);
  }

  /** Deletes the node {@code name}; returns whether there was one. */
  public boolean deleteNode(String name) {
    return delete(V1Node.class, null, name);
  }

  /** Creates {@code pod}; see {@link #create(KubernetesObject)}. */
  public V1Pod addPod(V1Pod pod) {
    return create(pod);
  }

  /** Replaces {@code pod}; see {@link #update(KubernetesObject)}. */
  public V1Pod updatePod(V1Pod pod) {
    return update(pod);
  }

  @Override
  public List<V1Node> listNodes() {
    return list(V1Node.class, null);
  }

  @Override
  public Optional<V1Node> getNode(String name) {
    return get(V1Node.class, null, name);
  }

  @Override
  public Optional<V1Pod> getPod(String namespace, String name) {
    return get(V1Pod.class, namespace, name);
  }

  @Override
  public List<V1Pod> listPods() {
    return list(V1Pod.class, null);
  }

  /**
   * Binds the pod to {@code nodeName} as the {@code pods/binding} subresource does: sets {@code
   * spec.nodeName} and the condition {@code PodScheduled=True}.
   *
   * @throws ClusterException {@code NOT_FOUND} when the pod or the node does not exist; {@code
   *     CONFLICT} when the pod is already assigned, is being deleted, or has another UID
   */
  @Override
  public void bind(V1Pod pod, String nodeName) {
    Kind kind = kinds.get(V1Pod.class);
    synchronized (lock) {
      V1Pod old = storedPod(pod);
      String name = old.getMetadata().getName();
      String uid = pod.getMetadata() == null ? null : pod.getMetadata().getUid();
      String storedUid = old.getMetadata().getUid();
      if (uid != null && storedUid != null && !uid.equals(storedUid)) {
        throw bindingConflict(
            name,
            "Precondition failed: UID in precondition: "
                + uid
                + ", UID in object meta: "
                + storedUid);
      }
      if (old.getMetadata().getDeletionTimestamp() != null) {
        throw bindingConflict(
            name, "pod " + name + " is being deleted, cannot be assigned to a host");
      }
      String current = old.getSpec() == null ? null : old.getSpec().getNodeName();
      if (current != null && !current.isEmpty()) {
        throw bindingConflict(
            name, "pod " + name + " is already assigned to node \"" + current + "\"");
      }
      if (!stores.get(V1Node.class).containsKey(nodeName)) {
        throw notFound(kinds.get(V1Node.class), nodeName);
      }
      V1Pod copy = revision(old);
      copy.getSpec().setNodeName(nodeName);
      setCondition(copy, new V1PodCondition().type(POD_SCHEDULED).status("True"));
      replaceLocked(kind, podKey(copy), old, copy);
    }
    dispatch();
  }

  @Override
  public void deletePod(V1Pod pod) {
    V1ObjectMeta meta = pod.getMetadata();
    delete(V1Pod.class, meta.getNamespace(), meta.getName());
  }

  @Override
  public void updatePodCondition(V1Pod pod, V1PodCondition condition) {
    synchronized (lock) {
      V1Pod old = findPod(pod);
      if (old == null) {
        return;
      }
      V1Pod copy = revision(old);
      if (!setCondition(copy, ObjectCopier.deepCopy(condition))) {
        return;
      }
      replaceLocked(kinds.get(V1Pod.class), podKey(copy), old, copy);
    }
    dispatch();
  }

  @Override
  public void setNominatedNodeName(V1Pod pod, String nodeName) {
    synchronized (lock) {
      V1Pod old = findPod(pod);
      if (old == null) {
        return;
      }
      String want = nodeName == null || nodeName.isEmpty() ? null : nodeName;
      String have = old.getStatus() == null ? null : old.getStatus().getNominatedNodeName();
      if (Objects.equals(want, have == null || have.isEmpty() ? null : have)) {
        return;
      }
      V1Pod copy = revision(old);
      status(copy).setNominatedNodeName(want);
      replaceLocked(kinds.get(V1Pod.class), podKey(copy), old, copy);
    }
    dispatch();
  }

  @Override
  public void patchPodScheduledCondition(
      V1Pod pod, String reason, String message, String nominatedNodeName) {
    synchronized (lock) {
      V1Pod old = findPod(pod);
      if (old == null) {
        return;
      }
      V1Pod copy = revision(old);
      boolean changed =
          setCondition(
              copy,
              new V1PodCondition()
                  .type(POD_SCHEDULED)
                  .status("False")
                  .reason(reason)
                  .message(message));
      if (nominatedNodeName != null) {
        String have = old.getStatus() == null ? null : old.getStatus().getNominatedNodeName();
        if (!nominatedNodeName.equals(have == null ? "" : have)) {
          status(copy).setNominatedNodeName(nominatedNodeName.isEmpty() ? null : nominatedNodeName);
          changed = true;
        }
      }
      if (!changed) {
        return;
      }
      replaceLocked(kinds.get(V1Pod.class), podKey(copy), old, copy);
    }
    dispatch();
  }

  // ---------------------------------------------------------------- other reads

  /**
   * Returns the labels of {@code namespace}. A namespace that was never created has only its {@code
   * kubernetes.io/metadata.name} label, as if it existed (the API server admits pods only into
   * existing namespaces, and gives every namespace that label).
   */
  @Override
  public Map<String, String> namespaceLabels(String namespace) {
    return get(V1Namespace.class, null, namespace)
        .map(ns -> ns.getMetadata().getLabels())
        .map(Map::copyOf)
        .orElse(Map.of(LABEL_METADATA_NAME, namespace));
  }

  /**
   * Returns the namespaces in creation order, followed by one for each namespace that stored pods
   * use but that was never created (labelled with its {@code kubernetes.io/metadata.name} only),
   * since the API server admits pods only into existing namespaces.
   */
  @Override
  public List<V1Namespace> listNamespaces() {
    synchronized (lock) {
      List<V1Namespace> out = new ArrayList<>(list(V1Namespace.class, null));
      Set<String> seen = new HashSet<>();
      out.forEach(ns -> seen.add(ns.getMetadata().getName()));
      for (KubernetesObject o : stores.get(V1Pod.class).values()) {
        String name = o.getMetadata().getNamespace();
        if (name != null && seen.add(name)) {
          out.add(
              new V1Namespace()
                  .metadata(
                      new V1ObjectMeta().name(name).putLabelsItem(LABEL_METADATA_NAME, name)));
        }
      }
      return out;
    }
  }

  @Override
  public List<V1PodDisruptionBudget> listPodDisruptionBudgets() {
    return list(V1PodDisruptionBudget.class, null);
  }

  @Override
  public List<V1PriorityClass> listPriorityClasses() {
    return list(V1PriorityClass.class, null);
  }

  @Override
  public List<V1Service> listServices(String namespace) {
    return list(V1Service.class, namespace);
  }

  @Override
  public List<V1ReplicaSet> listReplicaSets(String namespace) {
    return list(V1ReplicaSet.class, namespace);
  }

  @Override
  public List<V1StatefulSet> listStatefulSets(String namespace) {
    return list(V1StatefulSet.class, namespace);
  }

  @Override
  public List<V1ReplicationController> listReplicationControllers(String namespace) {
    return list(V1ReplicationController.class, namespace);
  }

  // ---------------------------------------------------------------- custom objects

  /**
   * Creates a custom object (a generic map with {@code apiVersion}, {@code kind} and {@code
   * metadata.name}, optionally {@code metadata.namespace}) and returns the stored copy.
   *
   * @throws ClusterException {@code ALREADY_EXISTS} when it exists
   * @throws IllegalArgumentException when apiVersion, kind or name is missing
   */
  public Map<String, Object> createCustomObject(Map<String, ?> object) {
    synchronized (lock) {
      Map<String, Object> copy = ObjectCopier.copyMap(object);
      String key = customKey(copy);
      if (customObjects.containsKey(key)) {
        throw new ClusterException(
            ClusterException.Reason.ALREADY_EXISTS,
            customResource(copy) + " \"" + customName(copy) + "\" already exists");
      }
      customMeta(copy).put("resourceVersion", nextResourceVersion());
      customObjects.put(key, copy);
      return copy;
    }
  }

  /**
   * Replaces a custom object and returns the stored copy.
   *
   * @throws ClusterException {@code NOT_FOUND} when it does not exist
   */
  public Map<String, Object> updateCustomObject(Map<String, ?> object) {
    synchronized (lock) {
      Map<String, Object> copy = ObjectCopier.copyMap(object);
      String key = customKey(copy);
      if (!customObjects.containsKey(key)) {
        throw new ClusterException(
            ClusterException.Reason.NOT_FOUND,
            customResource(copy) + " \"" + customName(copy) + "\" not found");
      }
      customMeta(copy).put("resourceVersion", nextResourceVersion());
      customObjects.put(key, copy);
      return copy;
    }
  }

  /** Deletes a custom object; returns whether there was one. */
  public boolean deleteCustomObject(String apiVersion, String kind, String namespace, String name) {
    synchronized (lock) {
      return customObjects.remove(
              apiVersion + "/" + kind + "/" + (namespace == null ? "" : namespace) + "/" + name)
          != null;
    }
  }

  @Override
  public List<Map<String, Object>> listCustomObjects(
      String apiVersion, String kind, String namespace) {
    String prefix = apiVersion + "/" + kind + "/" + (namespace == null ? "" : namespace + "/");
    synchronized (lock) {
      List<Map<String, Object>> out = new ArrayList<>();
      for (Map.Entry<String, Map<String, Object>> e : customObjects.entrySet()) {
        if (e.getKey().startsWith(prefix)) {
          out.add(e.getValue());
        }
      }
      return out;
    }
  }

  // ---------------------------------------------------------------- events

  @Override
  public void event(Object regarding, String type, String reason, String action, String message) {
    String kind = "";
    String namespace = "";
    String name = "";
    if (regarding instanceof KubernetesObject o) {
      kind = o.getKind() != null ? o.getKind() : kindName(o.getClass());
      if (o.getMetadata() != null) {
        namespace = o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace();
        name = o.getMetadata().getName() == null ? "" : o.getMetadata().getName();
      }
    } else if (regarding != null) {
      kind = regarding.getClass().getSimpleName();
    }
    CoreEvent e =
        new CoreEvent(type, reason, action, message, kind, namespace, name, clock.instant());
    synchronized (lock) {
      events.add(e);
    }
  }

  /** Returns the events recorded so far, oldest first. */
  public List<CoreEvent> events() {
    synchronized (lock) {
      return List.copyOf(events);
    }
  }

  /** Returns the events about the object {@code kind} {@code namespace/name}, oldest first. */
  public List<CoreEvent> eventsFor(String kind, String namespace, String name) {
    List<CoreEvent> out = new ArrayList<>();
    for (CoreEvent e : events()) {
      if (e.regardingKind().equals(kind)
          && e.regardingNamespace().equals(namespace == null ? "" : namespace)
          && e.regardingName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  /** Forgets the recorded events. */
  public void clearEvents() {
    synchronized (lock) {
      events.clear();
    }
  }

  // ---------------------------------------------------------------- helpers

  private void replaceLocked(Kind kind, String key, KubernetesObject old, KubernetesObject copy) {
    copy.getMetadata().setResourceVersion(nextResourceVersion());
    stores.get(kind.type()).put(key, copy);
    if (copy instanceof V1Node node) {
      V1Node oldNode = (V1Node) old;
      notifyLocked(l -> l.onNodeUpdate(oldNode, node));
    } else if (copy instanceof V1Pod pod) {
      V1Pod oldPod = (V1Pod) old;
      notifyLocked(l -> l.onPodUpdate(oldPod, pod));
    }
  }

  /**
   * Applies kube's {@code UpdatePodCondition}: adds or replaces the condition of the same type,
   * keeping the last transition time when the status does not change; returns whether anything
   * changed.
   */
  private boolean setCondition(V1Pod pod, V1PodCondition condition) {
    V1PodStatus status = status(pod);
    List<V1PodCondition> conditions =
        status.getConditions() == null
            ? new ArrayList<>()
            : new ArrayList<>(status.getConditions());
    int index = -1;
    for (int i = 0; i < conditions.size(); i++) {
      if (Objects.equals(conditions.get(i).getType(), condition.getType())) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      if (condition.getLastTransitionTime() == null) {
        condition.setLastTransitionTime(now());
      }
      conditions.add(condition);
      status.setConditions(conditions);
      return true;
    }
    V1PodCondition old = conditions.get(index);
    if (Objects.equals(old.getStatus(), condition.getStatus())) {
      condition.setLastTransitionTime(old.getLastTransitionTime());
    } else if (condition.getLastTransitionTime() == null) {
      condition.setLastTransitionTime(now());
    }
    boolean same =
        Objects.equals(old.getStatus(), condition.getStatus())
            && Objects.equals(emptyToNull(old.getReason()), emptyToNull(condition.getReason()))
            && Objects.equals(emptyToNull(old.getMessage()), emptyToNull(condition.getMessage()))
            && Objects.equals(old.getLastProbeTime(), condition.getLastProbeTime())
            && Objects.equals(old.getLastTransitionTime(), condition.getLastTransitionTime());
    conditions.set(index, condition);
    status.setConditions(conditions);
    return !same;
  }

  /** Resolves the pod's priority as the Priority admission plugin does, when it has none. */
  /**
   * Adds {@code PodScheduled=False} with reason {@code SchedulingGated} to a gated pod that has no
   * PodScheduled condition yet, as the API server does when such a pod is created.
   */
  private void applySchedulingGatedCondition(V1Pod pod) {
    if (pod.getSpec().getSchedulingGates() == null
        || pod.getSpec().getSchedulingGates().isEmpty()) {
      return;
    }
    List<V1PodCondition> conditions = pod.getStatus().getConditions();
    if (conditions != null) {
      for (V1PodCondition c : conditions) {
        if (POD_SCHEDULED.equals(c.getType())) {
          return;
        }
      }
    }
    setCondition(
        pod,
        new V1PodCondition()
            .type(POD_SCHEDULED)
            .status("False")
            .reason(REASON_SCHEDULING_GATED)
            .message(SCHEDULING_GATED_MESSAGE));
  }

  /**
   * Applies the API server's pod defaulting that scheduling depends on: a container's limits
   * default its missing requests, ports default to TCP, and with host networking container ports
   * default the host ports.
   */
  private static void applyPodDefaults(V1PodSpec spec) {
    boolean hostNetwork = Boolean.TRUE.equals(spec.getHostNetwork());
    for (List<V1Container> containers :
        Arrays.asList(spec.getContainers(), spec.getInitContainers())) {
      if (containers == null) {
        continue;
      }
      for (V1Container c : containers) {
        V1ResourceRequirements r = c.getResources();
        if (r != null && r.getLimits() != null && !r.getLimits().isEmpty()) {
          Map<String, Quantity> requests =
              r.getRequests() == null
                  ? new LinkedHashMap<>()
                  : new LinkedHashMap<>(r.getRequests());
          r.getLimits().forEach(requests::putIfAbsent);
          r.setRequests(requests);
        }
        if (c.getPorts() != null) {
          for (V1ContainerPort port : c.getPorts()) {
            if (port.getProtocol() == null || port.getProtocol().isEmpty()) {
              port.setProtocol("TCP");
            }
            if (hostNetwork && (port.getHostPort() == null || port.getHostPort() == 0)) {
              port.setHostPort(port.getContainerPort());
            }
          }
        }
      }
    }
  }

  /**
   * Adds the tolerations of the DefaultTolerationSeconds admission plugin: {@code
   * node.kubernetes.io/not-ready} and {@code node.kubernetes.io/unreachable}, Exists, NoExecute,
   * 300 seconds, each unless the pod already tolerates that taint's NoExecute effect.
   */
  private static void applyDefaultTolerationSeconds(V1PodSpec spec) {
    boolean notReady = false;
    boolean unreachable = false;
    if (spec.getTolerations() != null) {
      for (V1Toleration t : spec.getTolerations()) {
        String key = t.getKey() == null ? "" : t.getKey();
        String effect = t.getEffect() == null ? "" : t.getEffect();
        if (!effect.isEmpty() && !effect.equals("NoExecute")) {
          continue;
        }
        notReady |= key.isEmpty() || key.equals(TAINT_NOT_READY);
        unreachable |= key.isEmpty() || key.equals(TAINT_UNREACHABLE);
      }
    }
    if (!notReady) {
      spec.addTolerationsItem(defaultToleration(TAINT_NOT_READY));
    }
    if (!unreachable) {
      spec.addTolerationsItem(defaultToleration(TAINT_UNREACHABLE));
    }
  }

  private static V1Toleration defaultToleration(String key) {
    return new V1Toleration()
        .key(key)
        .operator("Exists")
        .effect("NoExecute")
        .tolerationSeconds(DEFAULT_TOLERATION_SECONDS);
  }

  /**
   * Defaults {@code status.allocatable} to the capacity when it is absent (or empty: client-java
   * cannot tell the two apart), as the API server does.
   */
  private static void defaultNodeStatus(V1Node node) {
    if (node.getStatus() != null
        && (node.getStatus().getAllocatable() == null
            || node.getStatus().getAllocatable().isEmpty())
        && node.getStatus().getCapacity() != null) {
      node.getStatus().setAllocatable(new LinkedHashMap<>(node.getStatus().getCapacity()));
    }
  }

  private void admitPod(V1Pod pod) {
    if (pod.getSpec() == null) {
      pod.setSpec(new V1PodSpec());
    }
    V1PodSpec spec = pod.getSpec();
    if (pod.getStatus() == null || pod.getStatus().getPhase() == null) {
      status(pod).setPhase("Pending");
    }
    if (spec.getSchedulerName() == null || spec.getSchedulerName().isEmpty()) {
      spec.setSchedulerName(DEFAULT_SCHEDULER_NAME);
    }
    applySchedulingGatedCondition(pod);
    applyPodDefaults(spec);
    applyDefaultTolerationSeconds(spec);
    if (spec.getPriority() != null) {
      return;
    }
    String className = spec.getPriorityClassName();
    int value;
    String policy;
    if (className == null || className.isEmpty()) {
      V1PriorityClass def = null;
      for (KubernetesObject o : stores.get(V1PriorityClass.class).values()) {
        V1PriorityClass pc = (V1PriorityClass) o;
        if (Boolean.TRUE.equals(pc.getGlobalDefault())
            && (def == null || def.getValue() > pc.getValue())) {
          def = pc;
        }
      }
      if (def == null) {
        value = 0;
        policy = PREEMPT_LOWER_PRIORITY;
      } else {
        spec.setPriorityClassName(def.getMetadata().getName());
        value = def.getValue();
        policy = def.getPreemptionPolicy();
      }
    } else {
      V1PriorityClass pc = (V1PriorityClass) stores.get(V1PriorityClass.class).get(className);
      if (pc != null) {
        value = pc.getValue();
        policy = pc.getPreemptionPolicy();
      } else if (SYSTEM_CLUSTER_CRITICAL.equals(className)) {
        value = SYSTEM_CLUSTER_CRITICAL_VALUE;
        policy = PREEMPT_LOWER_PRIORITY;
      } else if (SYSTEM_NODE_CRITICAL.equals(className)) {
        value = SYSTEM_NODE_CRITICAL_VALUE;
        policy = PREEMPT_LOWER_PRIORITY;
      } else {
        throw new ClusterException(
            ClusterException.Reason.FORBIDDEN,
            "pods \""
                + pod.getMetadata().getName()
                + "\" is forbidden: no PriorityClass with name "
                + className
                + " was found");
      }
    }
    spec.setPriority(value);
    if (policy != null && spec.getPreemptionPolicy() == null) {
      spec.setPreemptionPolicy(policy);
    }
  }

  /**
   * Returns a new revision of a stored pod to modify: the pod, its metadata, spec and status are
   * fresh objects, everything below them is shared with {@code old} and must not be modified.
   */
  private static V1Pod revision(V1Pod old) {
    V1Pod copy = ObjectCopier.shallowCopy(old);
    copy.setMetadata(ObjectCopier.shallowCopy(old.getMetadata()));
    copy.setSpec(old.getSpec() == null ? new V1PodSpec() : ObjectCopier.shallowCopy(old.getSpec()));
    copy.setStatus(
        old.getStatus() == null ? new V1PodStatus() : ObjectCopier.shallowCopy(old.getStatus()));
    return copy;
  }

  private V1Pod storedPod(V1Pod pod) {
    V1Pod old = findPod(pod);
    if (old == null) {
      throw notFound(kinds.get(V1Pod.class), pod.getMetadata().getName());
    }
    return old;
  }

  private V1Pod findPod(V1Pod pod) {
    V1ObjectMeta meta = Objects.requireNonNull(pod.getMetadata(), "pod.metadata must not be null");
    Kind kind = kinds.get(V1Pod.class);
    return (V1Pod)
        stores
            .get(V1Pod.class)
            .get(key(kind, namespaceOrDefault(kind, meta.getNamespace()), meta.getName()));
  }

  private String podKey(V1Pod pod) {
    return key(
        kinds.get(V1Pod.class), pod.getMetadata().getNamespace(), pod.getMetadata().getName());
  }

  private V1ObjectMeta prepareMeta(Kind kind, KubernetesObject obj) {
    V1ObjectMeta meta = obj.getMetadata();
    if (meta == null || meta.getName() == null || meta.getName().isEmpty()) {
      throw new IllegalArgumentException(
          kind.resource() + ": metadata.name: Required value: name is required");
    }
    if (kind.namespaced()) {
      meta.setNamespace(namespaceOrDefault(kind, meta.getNamespace()));
    } else {
      meta.setNamespace(null);
    }
    return meta;
  }

  private Kind kindOf(KubernetesObject obj) {
    Objects.requireNonNull(obj, "object must not be null");
    return kind(obj.getClass());
  }

  private Kind kind(Class<?> type) {
    Kind kind = kinds.get(type);
    if (kind == null) {
      throw new IllegalArgumentException("unsupported kind: " + type.getSimpleName());
    }
    return kind;
  }

  private static String namespaceOrDefault(Kind kind, String namespace) {
    if (!kind.namespaced()) {
      return null;
    }
    return namespace == null || namespace.isEmpty() ? "default" : namespace;
  }

  private static String key(Kind kind, String namespace, String name) {
    return kind.namespaced() ? namespace + "/" + name : name;
  }

  private static ClusterException notFound(Kind kind, String name) {
    return new ClusterException(
        ClusterException.Reason.NOT_FOUND, kind.resource() + " \"" + name + "\" not found");
  }

  private static ClusterException bindingConflict(String name, String detail) {
    return new ClusterException(
        ClusterException.Reason.CONFLICT,
        "Operation cannot be fulfilled on pods/binding \"" + name + "\": " + detail);
  }

  private static V1PodStatus status(V1Pod pod) {
    if (pod.getStatus() == null) {
      pod.setStatus(new V1PodStatus());
    }
    return pod.getStatus();
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private String nextResourceVersion() {
    resourceVersion++;
    return Long.toString(resourceVersion);
  }

  private OffsetDateTime now() {
    Instant t = clock.instant();
    return OffsetDateTime.ofInstant(t, ZoneOffset.UTC);
  }

  private static String kindName(Class<?> type) {
    return type.getSimpleName().replaceFirst("^V\\d+((alpha|beta)\\d+)?", "");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> customMeta(Map<String, Object> obj) {
    Object meta = obj.get("metadata");
    if (!(meta instanceof Map)) {
      throw new IllegalArgumentException("custom object: metadata: Required value");
    }
    return (Map<String, Object>) meta;
  }

  private static String customName(Map<String, Object> obj) {
    Object name = customMeta(obj).get("name");
    if (name == null || name.toString().isEmpty()) {
      throw new IllegalArgumentException("custom object: metadata.name: Required value");
    }
    return name.toString();
  }

  private static String customResource(Map<String, Object> obj) {
    return String.valueOf(obj.get("kind")).toLowerCase() + "s";
  }

  private static String customKey(Map<String, Object> obj) {
    Object apiVersion = obj.get("apiVersion");
    Object kind = obj.get("kind");
    if (apiVersion == null || kind == null) {
      throw new IllegalArgumentException("custom object: apiVersion and kind are required");
    }
    Object ns = customMeta(obj).get("namespace");
    return apiVersion + "/" + kind + "/" + (ns == null ? "" : ns) + "/" + customName(obj);
  }
}
