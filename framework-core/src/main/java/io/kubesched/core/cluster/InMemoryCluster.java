package io.kubesched.core.cluster;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubesched.core.cluster.ObjectStore.Kind;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.EventResource;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code InMemoryCluster} is a cluster held in memory: the simulator's and the tests' stand-in for
 * the API server and the scheduler's informers.
 *
 * <p>It stores nodes, pods, namespaces, priority classes, pod disruption budgets, services, replica
 * sets, stateful sets, replication controllers, deployments, jobs, daemon sets, the storage kinds
 * of {@link StorageObjects}, DRA objects ({@code resource.k8s.io/v1} ResourceClaims,
 * ResourceClaimTemplates, DeviceClasses, ResourceSlices) and custom objects (generic maps). Every
 * write bumps a cluster-wide {@code metadata.resourceVersion}, as etcd does; node, pod, storage,
 * DRA and custom object changes are delivered to the {@link ClusterListener}s in the order they
 * happened.
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
 *
 * <p>This class composes the {@link ObjectStore} (typed objects and resourceVersions), the {@link
 * ListenerDispatcher}, {@link Admission} (the API server's defaulting), the {@link
 * CustomObjectStore} and the {@link EventLog}.
 */
public final class InMemoryCluster implements Cluster, StoreReads {
  /** The condition type the scheduler and the binding subresource set. */
  public static final String POD_SCHEDULED =
      io.kubesched.framework.SchedulerConstants.POD_SCHEDULED;

  /** The PodScheduled reason the API server gives a pod created with scheduling gates. */
  public static final String REASON_SCHEDULING_GATED = "SchedulingGated";

  /** The PodScheduled message the API server gives a pod created with scheduling gates. */
  public static final String SCHEDULING_GATED_MESSAGE =
      "Scheduling is blocked due to non-empty scheduling gates";

  private final Clock clock;
  private final Object lock = new Object();
  private final ObjectStore store = new ObjectStore();
  private final KindListings listings = new KindListings();
  private final ListenerDispatcher listeners = new ListenerDispatcher(lock);
  private final CustomObjectStore customObjects = new CustomObjectStore(store::nextResourceVersion);
  private final EventLog eventLog = new EventLog();

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
  }

  // ---------------------------------------------------------------- listeners

  @Override
  public void addListener(ClusterListener listener) {
    Objects.requireNonNull(listener, "listener must not be null");
    synchronized (lock) {
      List<Consumer<ClusterListener>> replay = new ArrayList<>();
      for (KubernetesObject n : store.objects(V1Node.class).values()) {
        replay.add(l -> l.onNodeAdd((V1Node) n));
      }
      for (KubernetesObject p : store.objects(V1Pod.class).values()) {
        replay.add(l -> l.onPodAdd((V1Pod) p));
      }
      listeners.addLocked(listener, replay);
    }
    listeners.dispatch();
  }

  @Override
  public void removeListener(ClusterListener listener) {
    listeners.remove(listener);
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
    Kind kind = store.kindOf(obj);
    T result;
    // copied before taking the lock: readers (the scheduler's listers) do not wait for the copy
    T copy = ObjectCopier.deepCopy(obj);
    synchronized (lock) {
      V1ObjectMeta meta = store.prepareMeta(kind, copy);
      Map<String, KubernetesObject> stored = store.objects(kind.type());
      String key = ObjectStore.key(kind, meta.getNamespace(), meta.getName());
      if (stored.containsKey(key)) {
        throw new ClusterException(
            ClusterException.Reason.ALREADY_EXISTS,
            kind.resource() + " \"" + meta.getName() + "\" already exists");
      }
      if (meta.getCreationTimestamp() == null) {
        meta.setCreationTimestamp(PodConditions.now(clock));
      }
      if (copy instanceof V1Pod pod) {
        Admission.admitPod(pod, store.objects(V1PriorityClass.class), clock);
      } else if (copy instanceof V1Node node) {
        Admission.defaultNodeStatus(node);
      } else if (copy instanceof V1Namespace) {
        Admission.labelNamespace(meta);
      } else {
        StorageObjects.admit(copy, store.objects(V1StorageClass.class).values());
      }
      meta.setResourceVersion(store.nextResourceVersion());
      stored.put(key, copy);
      listings.changed(kind.type());
      result = copy;
      if (copy instanceof V1Node node) {
        listeners.notifyLocked(l -> l.onNodeAdd(node));
      } else if (copy instanceof V1Pod pod) {
        listeners.notifyLocked(new PodAdded(pod));
      } else {
        notifyStorageLocked(ActionType.ADD, null, copy);
        notifyObjectLocked(null, copy);
      }
    }
    listeners.dispatch();
    return result;
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
    Kind kind = store.kindOf(obj);
    T result;
    // copied before taking the lock: readers (the scheduler's listers) do not wait for the copy
    T copy = ObjectCopier.deepCopy(obj);
    synchronized (lock) {
      V1ObjectMeta meta = store.prepareMeta(kind, copy);
      Map<String, KubernetesObject> stored = store.objects(kind.type());
      String key = ObjectStore.key(kind, meta.getNamespace(), meta.getName());
      KubernetesObject old = stored.get(key);
      if (old == null) {
        throw ObjectStore.notFound(kind, meta.getName());
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
        Admission.defaultNodeStatus(node);
      } else if (copy instanceof V1Namespace) {
        Admission.labelNamespace(meta);
      }
      replaceLocked(kind, key, old, copy);
      result = copy;
    }
    listeners.dispatch();
    return result;
  }

  /**
   * Deletes the object of {@code type} named {@code namespace/name} ({@code namespace} is ignored
   * for cluster-scoped kinds) and returns whether there was one.
   */
  public <T extends KubernetesObject> boolean delete(Class<T> type, String namespace, String name) {
    Kind kind = store.kind(type);
    synchronized (lock) {
      KubernetesObject old =
          store
              .objects(type)
              .remove(ObjectStore.key(kind, ObjectStore.namespaceOrDefault(kind, namespace), name));
      if (old == null) {
        return false;
      }
      listings.changed(type);
      if (old instanceof V1Node node) {
        listeners.notifyLocked(l -> l.onNodeDelete(node));
      } else if (old instanceof V1Pod pod) {
        listeners.notifyLocked(l -> l.onPodDelete(pod));
      } else {
        notifyStorageLocked(ActionType.DELETE, old, null);
        notifyObjectLocked(old, null);
      }
    }
    listeners.dispatch();
    return true;
  }

  /** Returns the object of {@code type} named {@code namespace/name}, or empty. */
  public <T extends KubernetesObject> Optional<T> get(
      Class<T> type, String namespace, String name) {
    synchronized (lock) {
      return Optional.ofNullable(store.get(type, namespace, name));
    }
  }

  /**
   * Returns the objects of {@code type} in creation order; of {@code namespace} only unless it is
   * {@code null}.
   */
  public <T extends KubernetesObject> List<T> list(Class<T> type, String namespace) {
    store.kind(type);
    if (KindListings.kept(type)) {
      List<KubernetesObject> all = listings.get(type);
      if (all == null) {
        synchronized (lock) {
          all = listings.make(type, store.objects(type).values());
        }
      }
      return store.select(type, all, namespace);
    }
    synchronized (lock) {
      return store.list(type, namespace);
    }
  }

  /** Returns the current cluster-wide resource version (the last one assigned). */
  public long resourceVersion() {
    synchronized (lock) {
      return store.resourceVersion();
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
    synchronized (lock) {
      V1Pod old = store.storedPod(pod);
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
      if (!store.objects(V1Node.class).containsKey(nodeName)) {
        throw ObjectStore.notFound(store.kind(V1Node.class), nodeName);
      }
      V1Pod copy = revision(old);
      copy.getSpec().setNodeName(nodeName);
      PodConditions.set(copy, new V1PodCondition().type(POD_SCHEDULED).status("True"), clock);
      replaceLocked(store.kind(V1Pod.class), store.podKey(copy), old, copy);
    }
    listeners.dispatch();
  }

  @Override
  public V1Node patchNodeAnnotations(String nodeName, Map<String, String> annotations) {
    V1Node copy;
    synchronized (lock) {
      V1Node old = (V1Node) store.objects(V1Node.class).get(nodeName);
      if (old == null) {
        throw ObjectStore.notFound(store.kind(V1Node.class), nodeName);
      }
      copy = ObjectCopier.shallowCopy(old);
      copy.setMetadata(ObjectCopier.shallowCopy(old.getMetadata()));
      Map<String, String> merged =
          new java.util.TreeMap<>(
              old.getMetadata().getAnnotations() == null
                  ? Map.of()
                  : old.getMetadata().getAnnotations());
      annotations.forEach(
          (k, v) -> {
            if (v == null) {
              merged.remove(k);
            } else {
              merged.put(k, v);
            }
          });
      copy.getMetadata().setAnnotations(merged.isEmpty() ? null : merged);
      replaceLocked(store.kind(V1Node.class), nodeName, old, copy);
    }
    listeners.dispatch();
    return copy;
  }

  @Override
  public void deletePod(V1Pod pod) {
    V1ObjectMeta meta = pod.getMetadata();
    delete(V1Pod.class, meta.getNamespace(), meta.getName());
  }

  @Override
  public void updatePodCondition(V1Pod pod, V1PodCondition condition) {
    synchronized (lock) {
      V1Pod old = store.findPod(pod);
      if (old == null) {
        return;
      }
      V1Pod copy = revision(old);
      if (!PodConditions.set(copy, ObjectCopier.deepCopy(condition), clock)) {
        return;
      }
      replaceLocked(store.kind(V1Pod.class), store.podKey(copy), old, copy);
    }
    listeners.dispatch();
  }

  @Override
  public void setNominatedNodeName(V1Pod pod, String nodeName) {
    synchronized (lock) {
      V1Pod old = store.findPod(pod);
      if (old == null) {
        return;
      }
      String want = nodeName == null || nodeName.isEmpty() ? null : nodeName;
      String have = old.getStatus() == null ? null : old.getStatus().getNominatedNodeName();
      if (Objects.equals(want, have == null || have.isEmpty() ? null : have)) {
        return;
      }
      V1Pod copy = revision(old);
      PodConditions.status(copy).setNominatedNodeName(want);
      replaceLocked(store.kind(V1Pod.class), store.podKey(copy), old, copy);
    }
    listeners.dispatch();
  }

  @Override
  public void patchPodScheduledCondition(
      V1Pod pod, String reason, String message, String nominatedNodeName) {
    synchronized (lock) {
      V1Pod old = store.findPod(pod);
      if (old == null) {
        return;
      }
      V1Pod copy = revision(old);
      boolean changed =
          PodConditions.set(
              copy,
              new V1PodCondition()
                  .type(POD_SCHEDULED)
                  .status("False")
                  .reason(reason)
                  .message(message),
              clock);
      if (nominatedNodeName != null) {
        String have = old.getStatus() == null ? null : old.getStatus().getNominatedNodeName();
        if (!nominatedNodeName.equals(have == null ? "" : have)) {
          PodConditions.status(copy)
              .setNominatedNodeName(nominatedNodeName.isEmpty() ? null : nominatedNodeName);
          changed = true;
        }
      }
      if (!changed) {
        return;
      }
      replaceLocked(store.kind(V1Pod.class), store.podKey(copy), old, copy);
    }
    listeners.dispatch();
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
        .orElse(Map.of(Admission.LABEL_METADATA_NAME, namespace));
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
      for (KubernetesObject o : store.objects(V1Pod.class).values()) {
        String name = o.getMetadata().getNamespace();
        if (name != null && seen.add(name)) {
          out.add(
              new V1Namespace()
                  .metadata(
                      new V1ObjectMeta()
                          .name(name)
                          .putLabelsItem(Admission.LABEL_METADATA_NAME, name)));
        }
      }
      return out;
    }
  }

  @Override
  public V1PersistentVolume updatePersistentVolume(V1PersistentVolume pv) {
    return update(pv);
  }

  @Override
  public V1PersistentVolumeClaim updatePersistentVolumeClaim(V1PersistentVolumeClaim pvc) {
    return update(pvc);
  }

  /**
   * Writes the claim's status and finalizers as the {@code resourceclaims/status} subresource
   * (after the finalizer update) does; see {@link
   * io.kubesched.framework.ClusterClient#updateResourceClaimStatus}.
   *
   * @throws ClusterException {@code NOT_FOUND} when the claim is gone, {@code CONFLICT} on a stale
   *     resourceVersion
   */
  @Override
  public ResourceV1ResourceClaim updateResourceClaimStatus(ResourceV1ResourceClaim claim) {
    V1ObjectMeta meta = claim.getMetadata();
    ResourceV1ResourceClaim current =
        get(ResourceV1ResourceClaim.class, meta.getNamespace(), meta.getName())
            .orElseThrow(
                () ->
                    ObjectStore.notFound(
                        store.kind(ResourceV1ResourceClaim.class), meta.getName()));
    ResourceV1ResourceClaim next = ObjectCopier.shallowCopy(current);
    V1ObjectMeta nextMeta = ObjectCopier.shallowCopy(current.getMetadata());
    nextMeta.setResourceVersion(meta.getResourceVersion());
    nextMeta.setFinalizers(meta.getFinalizers());
    next.setMetadata(nextMeta);
    next.setStatus(claim.getStatus());
    return update(next);
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
    Map<String, Object> created;
    synchronized (lock) {
      created = customObjects.create(object);
      notifyCustomLocked(null, created);
    }
    listeners.dispatch();
    return created;
  }

  /**
   * Replaces a custom object and returns the stored copy.
   *
   * @throws ClusterException {@code NOT_FOUND} when it does not exist
   */
  public Map<String, Object> updateCustomObject(Map<String, ?> object) {
    Map<String, Object> updated;
    synchronized (lock) {
      Map<String, Object> old = customObjects.current(object);
      updated = customObjects.update(object);
      notifyCustomLocked(old, updated);
    }
    listeners.dispatch();
    return updated;
  }

  /**
   * Replaces the {@code status} of a custom object, keeping the rest of the stored object, and
   * returns the stored copy.
   *
   * @throws ClusterException {@code NOT_FOUND} when it does not exist
   */
  @Override
  public Map<String, Object> updateCustomObjectStatus(Map<String, ?> object) {
    Map<String, Object> updated;
    synchronized (lock) {
      Map<String, Object> old = customObjects.current(object);
      updated = customObjects.updateStatus(object);
      notifyCustomLocked(old, updated);
    }
    listeners.dispatch();
    return updated;
  }

  /** Deletes a custom object; returns whether there was one. */
  public boolean deleteCustomObject(String apiVersion, String kind, String namespace, String name) {
    synchronized (lock) {
      Map<String, Object> old = customObjects.delete(apiVersion, kind, namespace, name);
      if (old == null) {
        return false;
      }
      notifyCustomLocked(old, null);
    }
    listeners.dispatch();
    return true;
  }

  /** Delivers a custom object's change ({@link ClusterListener#onCustomObjectChange}). */
  private void notifyCustomLocked(Map<String, Object> old, Map<String, Object> now) {
    Map<String, Object> any = now != null ? now : old;
    String apiVersion = String.valueOf(any.get("apiVersion"));
    String kind = String.valueOf(any.get("kind"));
    listeners.notifyLocked(l -> l.onCustomObjectChange(apiVersion, kind, old, now));
  }

  @Override
  public List<Map<String, Object>> listCustomObjects(
      String apiVersion, String kind, String namespace) {
    synchronized (lock) {
      return customObjects.list(apiVersion, kind, namespace);
    }
  }

  // ---------------------------------------------------------------- events

  @Override
  public void event(Object regarding, String type, String reason, String action, String message) {
    eventLog.record(regarding, type, reason, action, message, clock.instant());
  }

  /** Returns the events recorded so far, oldest first. */
  public List<CoreEvent> events() {
    return eventLog.all();
  }

  /** Returns the events about the object {@code kind} {@code namespace/name}, oldest first. */
  public List<CoreEvent> eventsFor(String kind, String namespace, String name) {
    return eventLog.about(kind, namespace, name);
  }

  /** Forgets the recorded events. */
  public void clearEvents() {
    eventLog.clear();
  }

  // ---------------------------------------------------------------- helpers

  private void replaceLocked(Kind kind, String key, KubernetesObject old, KubernetesObject copy) {
    copy.getMetadata().setResourceVersion(store.nextResourceVersion());
    store.objects(kind.type()).put(key, copy);
    listings.changed(kind.type());
    if (copy instanceof V1Node node) {
      V1Node oldNode = (V1Node) old;
      listeners.notifyLocked(l -> l.onNodeUpdate(oldNode, node));
    } else if (copy instanceof V1Pod pod) {
      listeners.notifyLocked(new PodUpdated((V1Pod) old, pod));
    } else {
      notifyStorageLocked(ActionType.UPDATE, old, copy);
      notifyObjectLocked(old, copy);
    }
  }

  // The notifications made for every pod created and bound: records rather than lambdas, which
  // are made through method handles until the JIT's top tier has compiled the caller.

  private record PodAdded(V1Pod pod) implements Consumer<ClusterListener> {
    @Override
    public void accept(ClusterListener l) {
      l.onPodAdd(pod);
    }
  }

  private record PodUpdated(V1Pod old, V1Pod now) implements Consumer<ClusterListener> {
    @Override
    public void accept(ClusterListener l) {
      l.onPodUpdate(old, now);
    }
  }

  private void notifyStorageLocked(int actionType, Object old, Object copy) {
    String resource = StorageObjects.eventResource(copy == null ? old : copy);
    if (resource != null) {
      listeners.notifyLocked(l -> l.onStorageChange(resource, actionType, old, copy));
    }
  }

  /** Delivers a change of a DRA object (the kinds plugins register events for) to listeners. */
  private void notifyObjectLocked(KubernetesObject old, KubernetesObject now) {
    Object any = now != null ? now : old;
    String resource;
    if (any instanceof ResourceV1ResourceClaim) {
      resource = EventResource.RESOURCE_CLAIM;
    } else if (any instanceof V1ResourceSlice) {
      resource = EventResource.RESOURCE_SLICE;
    } else if (any instanceof V1DeviceClass) {
      resource = EventResource.DEVICE_CLASS;
    } else {
      return;
    }
    listeners.notifyLocked(l -> l.onObjectChange(resource, old, now));
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

  private static ClusterException bindingConflict(String name, String detail) {
    return new ClusterException(
        ClusterException.Reason.CONFLICT,
        "Operation cannot be fulfilled on pods/binding \"" + name + "\": " + detail);
  }
}
