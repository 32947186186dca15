package io.kubesched.core.kubernetes;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.PolicyV1Api;
import io.kubernetes.client.openapi.apis.SchedulingV1Api;
import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1NamespaceList;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetList;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1PriorityClassList;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicaSetList;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1ReplicationControllerList;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceList;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1StatefulSetList;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubernetes.client.util.CallGenerator;
import io.kubesched.core.cluster.Cluster;
import io.kubesched.core.cluster.ClusterException;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.framework.CustomResource;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.SchedulerConstants;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Cluster} port on a real Kubernetes API server, through client-java: shared informers
 * feed the listeners and the plugin-facing listers, writes go to the API as kube-scheduler's do.
 *
 * <p>Watched: nodes; pods that are not finished (field selector {@code
 * status.phase!=Succeeded,status.phase!=Failed}, as kube-scheduler); namespaces; pod disruption
 * budgets; priority classes; services, replica sets, stateful sets and replication controllers (for
 * spreading plugins); the custom resources declared with {@link #watchCustomResources} (dynamic
 * informers, served by {@link #listCustomObjects}; their changes go to the listeners' {@link
 * ClusterListener#onCustomObjectChange}).
 *
 * <p>Writes: {@link #bind} posts the {@code pods/binding} subresource; condition and
 * nominatedNodeName changes are strategic merge patches of the pod's {@code status}; {@link
 * #deletePod} deletes (a pod already gone is fine); events are core/v1 Events, written
 * asynchronously (failures are logged, never thrown); a repeat of an event (same object, type,
 * reason and message) raises the {@code count} of the first instead of creating another. Refusals
 * of the API server surface as {@link ClusterException} with the server's message.
 *
 * <p>Lifecycle: construct, {@link #start(Duration)} (starts the informers and waits until they
 * listed), hand it to a {@code Scheduler}, {@link #close()} at the end. Thread-safe; listener
 * callbacks are serialised.
 */
public final class KubernetesCluster implements Cluster, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubernetesCluster.class);

  /** The field selector of the pod informer: pods that may still need or hold resources. */
  public static final String POD_FIELD_SELECTOR = "status.phase!=Succeeded,status.phase!=Failed";

  /** The default {@code source.component} / reporting controller of the events written. */
  public static final String DEFAULT_COMPONENT = SchedulerConstants.DEFAULT_SCHEDULER_NAME;

  private static final String POD_SCHEDULED = SchedulerConstants.POD_SCHEDULED;

  private final ApiClient client;
  private final CoreV1Api core;
  private final Clock clock;
  private final String component;
  private final SharedInformerFactory factory;
  private final SharedIndexInformer<V1Node> nodeInformer;
  private final SharedIndexInformer<V1Pod> podInformer;
  private final SharedIndexInformer<V1Namespace> namespaceInformer;
  private final SharedIndexInformer<V1PodDisruptionBudget> pdbInformer;
  private final SharedIndexInformer<V1PriorityClass> priorityClassInformer;
  private final SharedIndexInformer<V1Service> serviceInformer;
  private final SharedIndexInformer<V1ReplicaSet> replicaSetInformer;
  private final SharedIndexInformer<V1StatefulSet> statefulSetInformer;
  private final SharedIndexInformer<V1ReplicationController> rcInformer;
  private final ApiWrites writes;
  private final KubernetesEvents events;
  private final CustomResourceInformers customResources;
  private final KubernetesStorage storage;
  private volatile DraInformers dra;

  /** Guards the listener list and orders callbacks and the mirrors' changes. */
  private final Object dispatch = new Object();

  private final List<ClusterListener> listeners = new CopyOnWriteArrayList<>();
  private final Map<String, V1Node> nodes = new ConcurrentHashMap<>();
  private final Map<String, V1Pod> pods = new ConcurrentHashMap<>();

  /**
   * Creates a cluster on {@code client} (whose read timeout must be 0, as {@code ClientBuilder}'s
   * default, for the informers' watches); nothing is contacted before {@link #start(Duration)}.
   *
   * @param client the API client
   * @param clock stamps condition transition and event times
   * @param component the {@code source.component} of the events written, e.g. {@code
   *     default-scheduler}
   */
  public KubernetesCluster(ApiClient client, Clock clock, String component) {
    this.client = Objects.requireNonNull(client, "client must not be null");
    this.clock = Objects.requireNonNull(clock, "clock must not be null");
    this.component = Objects.requireNonNull(component, "component must not be null");
    this.core = new CoreV1Api(client);
    AppsV1Api apps = new AppsV1Api(client);
    PolicyV1Api policy = new PolicyV1Api(client);
    SchedulingV1Api scheduling = new SchedulingV1Api(client);
    this.factory = new SharedInformerFactory(client);
    this.customResources = new CustomResourceInformers(client, this::customObjectChanged);
    this.nodeInformer =
        informer(
            p ->
                core.listNode()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1Node.class,
            V1NodeList.class);
    this.podInformer =
        informer(
            p ->
                core.listPodForAllNamespaces()
                    .fieldSelector(POD_FIELD_SELECTOR)
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1Pod.class,
            V1PodList.class);
    this.namespaceInformer =
        informer(
            p ->
                core.listNamespace()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1Namespace.class,
            V1NamespaceList.class);
    this.pdbInformer =
        informer(
            p ->
                policy
                    .listPodDisruptionBudgetForAllNamespaces()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1PodDisruptionBudget.class,
            V1PodDisruptionBudgetList.class);
    this.priorityClassInformer =
        informer(
            p ->
                scheduling
                    .listPriorityClass()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1PriorityClass.class,
            V1PriorityClassList.class);
    this.serviceInformer =
        informer(
            p ->
                core.listServiceForAllNamespaces()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1Service.class,
            V1ServiceList.class);
    this.replicaSetInformer =
        informer(
            p ->
                apps.listReplicaSetForAllNamespaces()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1ReplicaSet.class,
            V1ReplicaSetList.class);
    this.statefulSetInformer =
        informer(
            p ->
                apps.listStatefulSetForAllNamespaces()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1StatefulSet.class,
            V1StatefulSetList.class);
    this.rcInformer =
        informer(
            p ->
                core.listReplicationControllerForAllNamespaces()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1ReplicationController.class,
            V1ReplicationControllerList.class);
    nodeInformer.addEventHandler(new NodeHandler());
    podInformer.addEventHandler(new PodHandler());
    this.writes = new ApiWrites(client, clock, pod -> pods.getOrDefault(key(pod), pod));
    this.events = new KubernetesEvents(client, clock);
    this.storage =
        new KubernetesStorage(
            client,
            this::informer,
            this::storageChanged,
            e -> writes.refusal(e.getCode(), e.getResponseBody(), "update a storage object"));
  }

  /**
   * Creates a cluster on {@code client} with the system clock and component {@value
   * #DEFAULT_COMPONENT}.
   */
  public KubernetesCluster(ApiClient client) {
    this(client, Clock.systemUTC(), DEFAULT_COMPONENT);
  }

  private <T extends KubernetesObject, L extends KubernetesListObject>
      SharedIndexInformer<T> informer(CallGenerator calls, Class<T> type, Class<L> listType) {
    return factory.sharedIndexInformerFor(
        calls,
        type,
        listType,
        0L,
        (t, e) ->
            log.atWarn()
                .setMessage("list/watch of {} failed: {}")
                .addArgument(t.getSimpleName())
                .addArgument(e.toString())
                .log());
  }

  /**
   * Starts the informers and waits until each has listed its objects once and the nodes and pods of
   * that first listing reached this cluster's view (so a listener added afterwards gets them all
   * replayed, nodes first).
   *
   * @throws TimeoutException when they did not sync within {@code timeout}
   * @throws InterruptedException when interrupted while waiting
   */
  public void start(Duration timeout) throws TimeoutException, InterruptedException {
    factory.startAllRegisteredInformers();
    customResources.start();
    long deadline = System.nanoTime() + timeout.toNanos();
    List<SharedIndexInformer<?>> all = new java.util.ArrayList<>(customResources.informers());
    if (dra != null) {
      all.addAll(dra.informers());
    }
    all.addAll(
        List.of(
            nodeInformer,
            podInformer,
            namespaceInformer,
            pdbInformer,
            priorityClassInformer,
            serviceInformer,
            replicaSetInformer,
            statefulSetInformer,
            rcInformer));
    all.addAll(storage.informers());
    for (SharedIndexInformer<?> i : all) {
      while (!i.hasSynced()) {
        try {
          awaitTick(deadline, timeout);
        } catch (TimeoutException e) {
          List<String> unlisted = customResources.unsynced();
          if (unlisted.isEmpty()) {
            throw e;
          }
          throw new TimeoutException(
              e.getMessage()
                  + ": custom resources not listed: "
                  + String.join(", ", unlisted)
                  + " (is their CustomResourceDefinition installed, and may the scheduler list"
                  + " them?)");
        }
      }
    }
    // The handlers run after the informers' stores are filled: wait until the node and pod
    // handlers saw every object of the first listing, so that listeners registered now get them
    // all replayed (nodes first).
    List<String> nodeKeys = nodeInformer.getIndexer().listKeys();
    List<String> podKeys = podInformer.getIndexer().listKeys();
    while (!delivered(nodeKeys, nodeInformer, nodes) || !delivered(podKeys, podInformer, pods)) {
      awaitTick(deadline, timeout);
    }
  }

  private static boolean delivered(
      List<String> keys, SharedIndexInformer<?> informer, Map<String, ?> mirror) {
    for (String k : keys) {
      if (!mirror.containsKey(k) && informer.getIndexer().getByKey(k) != null) {
        return false;
      }
    }
    return true;
  }

  private void awaitTick(long deadline, Duration timeout)
      throws TimeoutException, InterruptedException {
    if (System.nanoTime() > deadline) {
      throw new TimeoutException(
          "the informers did not sync with the API server at "
              + client.getBasePath()
              + " within "
              + timeout);
    }
    TimeUnit.MILLISECONDS.sleep(5);
  }

  /** Stops the informers and the event writer (events not yet written are dropped). */
  @Override
  public void close() {
    factory.stopAllRegisteredInformers(true);
    customResources.stop();
    events.close();
  }

  // ---------------------------------------------------------------- listeners

  @Override
  public void addListener(ClusterListener listener) {
    Objects.requireNonNull(listener, "listener must not be null");
    synchronized (dispatch) {
      for (V1Node n : nodes.values()) {
        safely(() -> listener.onNodeAdd(n));
      }
      for (V1Pod p : pods.values()) {
        safely(() -> listener.onPodAdd(p));
      }
      listeners.add(listener);
    }
  }

  @Override
  public void removeListener(ClusterListener listener) {
    synchronized (dispatch) {
      listeners.remove(listener);
    }
  }

  private void storageChanged(String resource, int actionType, Object oldObj, Object newObj) {
    synchronized (dispatch) {
      for (ClusterListener l : listeners) {
        safely(() -> l.onStorageChange(resource, actionType, oldObj, newObj));
      }
    }
  }

  // ---------------------------------------------------------------- storage (KubernetesStorage)

  @Override
  public List<V1PersistentVolume> listPersistentVolumes() {
    return storage.listPersistentVolumes();
  }

  @Override
  public Optional<V1PersistentVolume> getPersistentVolume(String name) {
    return storage.getPersistentVolume(name);
  }

  @Override
  public List<V1PersistentVolumeClaim> listPersistentVolumeClaims(String namespace) {
    return storage.listPersistentVolumeClaims(namespace);
  }

  @Override
  public Optional<V1PersistentVolumeClaim> getPersistentVolumeClaim(String namespace, String name) {
    return storage.getPersistentVolumeClaim(namespace, name);
  }

  @Override
  public List<V1StorageClass> listStorageClasses() {
    return storage.listStorageClasses();
  }

  @Override
  public Optional<V1StorageClass> getStorageClass(String name) {
    return storage.getStorageClass(name);
  }

  @Override
  public Optional<V1CSINode> getCSINode(String name) {
    return storage.getCSINode(name);
  }

  @Override
  public List<V1CSINode> listCSINodes() {
    return storage.listCSINodes();
  }

  @Override
  public Optional<V1CSIDriver> getCSIDriver(String name) {
    return storage.getCSIDriver(name);
  }

  @Override
  public List<V1CSIDriver> listCSIDrivers() {
    return storage.listCSIDrivers();
  }

  @Override
  public List<V1CSIStorageCapacity> listCSIStorageCapacities() {
    return storage.listCSIStorageCapacities();
  }

  @Override
  public V1PersistentVolume updatePersistentVolume(V1PersistentVolume pv) {
    return storage.updatePersistentVolume(pv);
  }

  @Override
  public V1PersistentVolumeClaim updatePersistentVolumeClaim(V1PersistentVolumeClaim pvc) {
    return storage.updatePersistentVolumeClaim(pvc);
  }

  private static void safely(Runnable r) {
    try {
      r.run();
    } catch (RuntimeException e) {
      log.atWarn().setMessage("cluster listener failed").setCause(e).log();
    }
  }

  private final class NodeHandler implements ResourceEventHandler<V1Node> {
    @Override
    public void onAdd(V1Node node) {
      synchronized (dispatch) {
        V1Node old = nodes.put(node.getMetadata().getName(), node);
        for (ClusterListener l : listeners) {
          safely(
              () -> {
                if (old == null) {
                  l.onNodeAdd(node);
                } else {
                  l.onNodeUpdate(old, node);
                }
              });
        }
      }
    }

    @Override
    public void onUpdate(V1Node oldNode, V1Node node) {
      onAdd(node);
    }

    @Override
    public void onDelete(V1Node node, boolean finalStateUnknown) {
      synchronized (dispatch) {
        V1Node last = nodes.remove(node.getMetadata().getName());
        if (last == null) {
          return;
        }
        for (ClusterListener l : listeners) {
          safely(() -> l.onNodeDelete(finalStateUnknown ? last : node));
        }
      }
    }
  }

  private final class PodHandler implements ResourceEventHandler<V1Pod> {
    @Override
    public void onAdd(V1Pod pod) {
      synchronized (dispatch) {
        V1Pod old = pods.put(key(pod), pod);
        for (ClusterListener l : listeners) {
          safely(
              () -> {
                if (old == null) {
                  l.onPodAdd(pod);
                } else {
                  l.onPodUpdate(old, pod);
                }
              });
        }
      }
    }

    @Override
    public void onUpdate(V1Pod oldPod, V1Pod pod) {
      onAdd(pod);
    }

    @Override
    public void onDelete(V1Pod pod, boolean finalStateUnknown) {
      synchronized (dispatch) {
        V1Pod last = pods.remove(key(pod));
        if (last == null) {
          return;
        }
        for (ClusterListener l : listeners) {
          safely(() -> l.onPodDelete(finalStateUnknown ? last : pod));
        }
      }
    }
  }

  private static String key(V1Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  // ---------------------------------------------------------------- reads

  @Override
  public List<V1Node> listNodes() {
    return List.copyOf(nodes.values());
  }

  @Override
  public Optional<V1Node> getNode(String name) {
    return Optional.ofNullable(nodes.get(name));
  }

  @Override
  public Optional<V1Pod> getPod(String namespace, String name) {
    return Optional.ofNullable(pods.get(namespace + "/" + name));
  }

  @Override
  public List<V1Pod> listPods() {
    return List.copyOf(pods.values());
  }

  @Override
  public Map<String, String> namespaceLabels(String namespace) {
    V1Namespace ns = namespaceInformer.getIndexer().getByKey(namespace);
    if (ns == null || ns.getMetadata() == null || ns.getMetadata().getLabels() == null) {
      return Map.of();
    }
    return ns.getMetadata().getLabels();
  }

  @Override
  public List<V1Namespace> listNamespaces() {
    return List.copyOf(namespaceInformer.getIndexer().list());
  }

  /**
   * Watches the DRA objects ({@code resource.k8s.io/v1} ResourceClaims, DeviceClasses,
   * ResourceSlices) too and serves them to plugins; call before {@link #start(Duration)}, only when
   * the cluster serves that API ({@code DynamicResourceAllocation} on).
   */
  public void enableDynamicResources() {
    if (dra == null) {
      dra = new DraInformers(client, factory, this::objectChanged);
    }
  }

  /** Delivers a DRA object change to the listeners, in order with node and pod changes. */
  private void objectChanged(String resource, Object oldObj, Object newObj) {
    synchronized (dispatch) {
      for (ClusterListener l : listeners) {
        safely(() -> l.onObjectChange(resource, oldObj, newObj));
      }
    }
  }

  @Override
  public List<io.kubernetes.client.openapi.models.ResourceV1ResourceClaim> listResourceClaims(
      String namespace) {
    DraInformers d = dra;
    return d == null ? List.of() : d.listClaims(namespace);
  }

  @Override
  public Optional<io.kubernetes.client.openapi.models.ResourceV1ResourceClaim> getResourceClaim(
      String namespace, String name) {
    DraInformers d = dra;
    return d == null ? Optional.empty() : d.getClaim(namespace, name);
  }

  @Override
  public Optional<io.kubernetes.client.openapi.models.V1DeviceClass> getDeviceClass(String name) {
    DraInformers d = dra;
    return d == null ? Optional.empty() : d.getDeviceClass(name);
  }

  @Override
  public List<io.kubernetes.client.openapi.models.V1ResourceSlice> listResourceSlices() {
    DraInformers d = dra;
    return d == null ? List.of() : d.listSlices();
  }

  @Override
  public io.kubernetes.client.openapi.models.ResourceV1ResourceClaim updateResourceClaimStatus(
      io.kubernetes.client.openapi.models.ResourceV1ResourceClaim claim) {
    DraInformers d = dra;
    if (d == null) {
      return Cluster.super.updateResourceClaimStatus(claim);
    }
    return d.updateStatus(claim);
  }

  @Override
  public List<V1PodDisruptionBudget> listPodDisruptionBudgets() {
    return List.copyOf(pdbInformer.getIndexer().list());
  }

  @Override
  public List<V1PriorityClass> listPriorityClasses() {
    return List.copyOf(priorityClassInformer.getIndexer().list());
  }

  @Override
  public List<V1Service> listServices(String namespace) {
    return List.copyOf(serviceInformer.getIndexer().byIndex(Caches.NAMESPACE_INDEX, namespace));
  }

  @Override
  public List<V1ReplicaSet> listReplicaSets(String namespace) {
    return List.copyOf(replicaSetInformer.getIndexer().byIndex(Caches.NAMESPACE_INDEX, namespace));
  }

  @Override
  public List<V1StatefulSet> listStatefulSets(String namespace) {
    return List.copyOf(statefulSetInformer.getIndexer().byIndex(Caches.NAMESPACE_INDEX, namespace));
  }

  @Override
  public List<V1ReplicationController> listReplicationControllers(String namespace) {
    return List.copyOf(rcInformer.getIndexer().byIndex(Caches.NAMESPACE_INDEX, namespace));
  }

  /**
   * Watches the custom resources {@code resources} (in addition to those watched already) with
   * dynamic informers, so that {@link #listCustomObjects} serves their objects and {@link
   * #updateCustomObjectStatus} writes their status. Call before {@link #start(Duration)}, which
   * waits for their first listing too.
   */
  public void watchCustomResources(Collection<CustomResource> resources) {
    resources.forEach(customResources::watch);
  }

  /** Delivers a custom object change to the listeners, in order with node and pod changes. */
  private void customObjectChanged(
      String apiVersion, String kind, Map<String, Object> oldObj, Map<String, Object> newObj) {
    synchronized (dispatch) {
      for (ClusterListener l : listeners) {
        safely(() -> l.onCustomObjectChange(apiVersion, kind, oldObj, newObj));
      }
    }
  }

  /** Returns the custom resources watched. */
  public List<CustomResource> watchedCustomResources() {
    return customResources.resources();
  }

  /**
   * Returns the objects of a custom resource declared with {@link #watchCustomResources} from its
   * informer, as generic maps; an empty list for a resource not watched.
   */
  @Override
  public List<Map<String, Object>> listCustomObjects(
      String apiVersion, String kind, String namespace) {
    return customResources.list(apiVersion, kind, namespace);
  }

  /**
   * Writes the {@code status} of a custom object of a watched resource: a JSON merge patch of its
   * {@code status} subresource.
   *
   * @throws ClusterException {@code NOT_FOUND} when the object is gone
   */
  @Override
  public Map<String, Object> updateCustomObjectStatus(Map<String, ?> object) {
    return customResources.updateStatus(object);
  }

  // ---------------------------------------------------------------- writes (ApiWrites)

  @Override
  public void bind(V1Pod pod, String nodeName) {
    writes.bind(pod, nodeName);
  }

  @Override
  public V1Node patchNodeAnnotations(String nodeName, Map<String, String> annotations) {
    return writes.patchNodeAnnotations(nodeName, annotations);
  }

  @Override
  public void deletePod(V1Pod pod) {
    writes.deletePod(pod);
  }

  @Override
  public void updatePodCondition(V1Pod pod, V1PodCondition condition) {
    writes.updatePodCondition(pod, condition);
  }

  @Override
  public void setNominatedNodeName(V1Pod pod, String nodeName) {
    writes.setNominatedNodeName(pod, nodeName);
  }

  @Override
  public void patchPodScheduledCondition(
      V1Pod pod, String reason, String message, String nominatedNodeName) {
    writes.patchPodScheduledCondition(pod, reason, message, nominatedNodeName);
  }

  // ---------------------------------------------------------------- events (KubernetesEvents)

  @Override
  public void event(Object regarding, String type, String reason, String action, String message) {
    events.record(component, regarding, type, reason, action, message);
  }

  /**
   * Returns a recorder whose events name {@code schedulerName} as their {@code source.component}
   * and reporting controller, as kube-scheduler's per-profile recorders do.
   */
  @Override
  public EventRecorder eventRecorderFor(String schedulerName) {
    Objects.requireNonNull(schedulerName, "schedulerName must not be null");
    return (regarding, type, reason, action, message) ->
        events.record(schedulerName, regarding, type, reason, action, message);
  }
}
