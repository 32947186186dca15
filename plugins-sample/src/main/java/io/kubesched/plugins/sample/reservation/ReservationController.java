package io.kubesched.plugins.sample.reservation;

import static io.kubesched.plugins.sample.reservation.ResourceReservation.CONTROLLER_PREFIX;
import static io.kubesched.plugins.sample.reservation.ResourceReservation.EXPIRES_PREFIX;
import static io.kubesched.plugins.sample.reservation.ResourceReservation.NAME;
import static io.kubesched.plugins.sample.reservation.ResourceReservation.OWNER_PREFIX;
import static io.kubesched.plugins.sample.reservation.ResourceReservation.RESERVE_PREFIX;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.ClusterWatcher;
import io.kubesched.framework.PodRequests;
import io.kubesched.framework.Quantities;
import io.kubesched.framework.Resource;
import io.kubesched.framework.ResourceNames;
import io.kubesched.framework.SchedulingException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes and removes the node annotations of {@link ResourceReservation} so that a pod recreated by
 * its controller (a Deployment's ReplicaSet, a StatefulSet, ...) finds its capacity still free on
 * its old node.
 *
 * <ul>
 *   <li><b>Reserve</b>: when a bound pod is deleted that has a controller owner reference, is not
 *       {@code Succeeded}/{@code Failed}, has no {@code DisruptionTarget=True} condition (set on
 *       preemption victims and evicted pods, which must not keep their place), and whose owner
 *       still wants a replacement, its node gets {@code reserve.<resource>/<pod-uid>} for each
 *       resource the pod requests, {@code reserve.owner/<pod-uid>: <namespace>/<name>}, {@code
 *       reserve.controller/<pod-uid>: <Kind>/<owner-uid>} and {@code reserve.expires/<pod-uid>:
 *       <deletion time + TTL>}. For a ReplicaSet, StatefulSet or ReplicationController owner, a
 *       replacement is wanted when the owner still exists and has fewer bound, non-terminating pods
 *       than {@code spec.replicas} (so a scale-down or the garbage collection of a deleted owner
 *       reserves nothing); an owner of another kind (Job, custom resources) always wants one.
 *   <li><b>Release</b>: when a pod goes from unbound to bound (anywhere) and owns a reservation
 *       (same controller, same namespace/name, or its {@code reserve.kubesched.io/uid} claim), one
 *       such reservation is removed: the one on the node it was bound to if there is one, else the
 *       first by node name.
 *   <li><b>Expire</b>: reservations whose {@code reserve.expires/} time has come (injected clock)
 *       are removed. {@link ResourceReservation} ignores them from that time on anyway.
 *   <li><b>Owner gone</b>: reservations whose controller is a ReplicaSet, StatefulSet or
 *       ReplicationController that no longer exists in the reservation's namespace, or has {@code
 *       spec.replicas: 0}, are removed.
 * </ul>
 *
 * Expiry and owner checks run on every node or pod event the controller receives (a cluster without
 * any change keeps expired annotations, which no longer count). Hand-written reservations are
 * expired and checked the same way. The controller keeps no state of its own besides the
 * reservation annotations it last saw on each node; it is safe to restart. Run it in one scheduler
 * profile only.
 */
public final class ReservationController implements ClusterWatcher {
  private static final Logger log = LoggerFactory.getLogger(ReservationController.class);
  private static final String DISRUPTION_TARGET = "DisruptionTarget";

  private final ClusterClient client;
  private final Clock clock;
  private final Duration ttl;

  /** The {@code reserve.*} annotations of each node that has some, by node name. */
  private final Map<String, Map<String, String>> byNode = new TreeMap<>();

  /** An immutable copy of {@link #byNode}, read by the plugin without taking the lock. */
  private volatile Map<String, Map<String, String>> view = Map.of();

  private ClusterWatcher.Registration registration;

  /**
   * Creates a controller writing through {@code client}; {@link #start()} registers it.
   *
   * @param ttl how long a reservation it writes holds
   */
  public ReservationController(ClusterClient client, Clock clock, Duration ttl) {
    this.client = Objects.requireNonNull(client);
    this.clock = Objects.requireNonNull(clock);
    this.ttl = Objects.requireNonNull(ttl);
  }

  /**
   * Starts watching the cluster (idempotent).
   *
   * @throws SchedulingException when the cluster does not deliver events to plugins
   */
  public synchronized void start() {
    if (registration == null) {
      registration = client.watch(this);
    }
  }

  /** Stops watching the cluster (idempotent). */
  public void stop() {
    ClusterWatcher.Registration r;
    synchronized (this) {
      r = registration;
      registration = null;
    }
    if (r != null) {
      r.cancel();
    }
  }

  /**
   * Returns the {@code reserve.*} annotations of each node that has some, as last seen or written
   * by the controller (an immutable copy; does not wait for a write in progress).
   */
  public Map<String, Map<String, String>> reservationAnnotations() {
    return view;
  }

  // ---------------------------------------------------------------- events

  @Override
  public synchronized void onNodeAdd(V1Node node) {
    index(node);
    sweep();
  }

  @Override
  public synchronized void onNodeUpdate(V1Node oldNode, V1Node node) {
    index(node);
    sweep();
  }

  @Override
  public synchronized void onNodeDelete(V1Node node) {
    byNode.remove(node.getMetadata().getName());
    publish();
  }

  @Override
  public synchronized void onPodAdd(V1Pod pod) {
    sweep();
  }

  @Override
  public synchronized void onPodUpdate(V1Pod oldPod, V1Pod pod) {
    if (nodeName(oldPod) == null && nodeName(pod) != null) {
      release(pod);
    }
    sweep();
  }

  @Override
  public synchronized void onPodDelete(V1Pod pod) {
    reserve(pod);
    sweep();
  }

  // ---------------------------------------------------------------- reserve

  private void reserve(V1Pod pod) {
    String node = nodeName(pod);
    V1OwnerReference owner = ResourceReservation.controllerOf(pod);
    if (node == null || owner == null || terminal(pod) || disrupted(pod)) {
      return;
    }
    String namespace = pod.getMetadata().getNamespace();
    if (!replacementWanted(namespace, owner, pod.getMetadata().getUid())) {
      log.atDebug()
          .setMessage("no reservation: the pod's owner wants no replacement")
          .addKeyValue("pod", key(pod))
          .addKeyValue("node", node)
          .addKeyValue("plugin", NAME)
          .log();
      return;
    }
    String uid = pod.getMetadata().getUid();
    Map<String, String> patch = new LinkedHashMap<>();
    Resource requests = PodRequests.of(pod.getSpec());
    put(patch, ResourceNames.CPU, requests.milliCpu(), uid);
    put(patch, ResourceNames.MEMORY, requests.memory(), uid);
    put(patch, ResourceNames.EPHEMERAL_STORAGE, requests.ephemeralStorage(), uid);
    new TreeMap<>(requests.scalarResources()).forEach((n, v) -> put(patch, n, v, uid));
    if (patch.isEmpty()) {
      return;
    }
    patch.put(OWNER_PREFIX + uid, key(pod));
    patch.put(CONTROLLER_PREFIX + uid, owner.getKind() + "/" + owner.getUid());
    Instant expires = clock.instant().plus(ttl).truncatedTo(ChronoUnit.SECONDS);
    patch.put(EXPIRES_PREFIX + uid, expires.toString());
    if (write(node, patch)) {
      log.atInfo()
          .setMessage("reserved the deleted pod's resources on its node for its replacement")
          .addKeyValue("pod", key(pod))
          .addKeyValue("node", node)
          .addKeyValue("plugin", NAME)
          .addKeyValue("owner", owner.getKind() + "/" + owner.getName())
          .addKeyValue("expires", expires)
          .log();
    }
  }

  private static void put(Map<String, String> patch, String resource, long value, String uid) {
    if (value <= 0) {
      return;
    }
    String form = annotationForm(resource);
    if (form == null) {
      return;
    }
    patch.put(RESERVE_PREFIX + form + "/" + uid, Quantities.format(resource, value));
  }

  /**
   * Returns the annotation form of a resource name ({@code nvidia.com/gpu} → {@code
   * gpu.nvidia.com}), or null when it has none that {@link ResourceReservation#resourceName} would
   * map back.
   */
  static String annotationForm(String resource) {
    int slash = resource.indexOf('/');
    if (slash < 0) {
      return resource.indexOf('.') < 0 ? resource : null;
    }
    String name = resource.substring(slash + 1);
    if (name.indexOf('.') >= 0 || name.indexOf('/') >= 0) {
      return null;
    }
    return name + "." + resource.substring(0, slash);
  }

  private boolean replacementWanted(String namespace, V1OwnerReference owner, String deletedUid) {
    OptionalInt replicas = replicas(namespace, owner.getKind(), owner.getUid());
    if (replicas == null) {
      return true;
    }
    if (replicas.isEmpty() || replicas.getAsInt() == 0) {
      return false;
    }
    long running =
        client.listPods().stream()
            .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
            .filter(p -> !Objects.equals(deletedUid, p.getMetadata().getUid()))
            .filter(p -> nodeName(p) != null && p.getMetadata().getDeletionTimestamp() == null)
            .filter(p -> !terminal(p))
            .filter(p -> owner.getUid().equals(ownerUid(p)))
            .count();
    return running < replicas.getAsInt();
  }

  /**
   * Returns the {@code spec.replicas} of the owner (default 1), empty when the owner is gone, or
   * null when its kind is not one the controller can look up.
   */
  private OptionalInt replicas(String namespace, String kind, String uid) {
    Integer r;
    switch (kind) {
      case "ReplicaSet" -> {
        var found =
            client.listReplicaSets(namespace).stream()
                .filter(o -> uid.equals(o.getMetadata().getUid()))
                .findFirst();
        if (found.isEmpty()) {
          return OptionalInt.empty();
        }
        r = found.get().getSpec() == null ? null : found.get().getSpec().getReplicas();
      }
      case "StatefulSet" -> {
        var found =
            client.listStatefulSets(namespace).stream()
                .filter(o -> uid.equals(o.getMetadata().getUid()))
                .findFirst();
        if (found.isEmpty()) {
          return OptionalInt.empty();
        }
        r = found.get().getSpec() == null ? null : found.get().getSpec().getReplicas();
      }
      case "ReplicationController" -> {
        var found =
            client.listReplicationControllers(namespace).stream()
                .filter(o -> uid.equals(o.getMetadata().getUid()))
                .findFirst();
        if (found.isEmpty()) {
          return OptionalInt.empty();
        }
        r = found.get().getSpec() == null ? null : found.get().getSpec().getReplicas();
      }
      default -> {
        return null;
      }
    }
    return OptionalInt.of(r == null ? 1 : r);
  }

  // ---------------------------------------------------------------- release

  private void release(V1Pod pod) {
    String bound = nodeName(pod);
    String podKey = key(pod);
    String controller = ResourceReservation.controllerKey(pod);
    String claim =
        pod.getMetadata().getAnnotations() == null
            ? null
            : pod.getMetadata().getAnnotations().get(ResourceReservation.CLAIM_ANNOTATION);
    String foundNode = null;
    String foundUid = null;
    for (Map.Entry<String, Map<String, String>> e : byNode.entrySet()) {
      for (String uid : uids(e.getValue())) {
        Map<String, String> a = e.getValue();
        boolean owns =
            uid.equals(claim)
                || podKey.equals(a.get(OWNER_PREFIX + uid))
                || (controller != null && controller.equals(a.get(CONTROLLER_PREFIX + uid)));
        if (owns && (foundNode == null || (e.getKey().equals(bound) && !foundNode.equals(bound)))) {
          foundNode = e.getKey();
          foundUid = uid;
        }
      }
    }
    if (foundNode != null) {
      remove(foundNode, foundUid, "the replacement was bound", podKey);
    }
  }

  // ---------------------------------------------------------------- sweep

  private void sweep() {
    Instant now = clock.instant();
    for (Map.Entry<String, Map<String, String>> e : new TreeMap<>(byNode).entrySet()) {
      for (String uid : uids(e.getValue())) {
        Map<String, String> a = e.getValue();
        Instant expires = ResourceReservation.expiry(e.getKey(), a.get(EXPIRES_PREFIX + uid));
        if (expires != null && !now.isBefore(expires)) {
          remove(e.getKey(), uid, "the reservation expired", a.get(OWNER_PREFIX + uid));
        } else if (ownerGone(a.get(OWNER_PREFIX + uid), a.get(CONTROLLER_PREFIX + uid))) {
          remove(e.getKey(), uid, "the pod's owner is gone", a.get(OWNER_PREFIX + uid));
        }
      }
    }
  }

  private boolean ownerGone(String podKey, String controller) {
    if (podKey == null || controller == null) {
      return false;
    }
    int slash = podKey.indexOf('/');
    int kindSlash = controller.indexOf('/');
    if (slash <= 0 || kindSlash <= 0) {
      return false;
    }
    OptionalInt replicas =
        replicas(
            podKey.substring(0, slash),
            controller.substring(0, kindSlash),
            controller.substring(kindSlash + 1));
    return replicas != null && (replicas.isEmpty() || replicas.getAsInt() == 0);
  }

  // ---------------------------------------------------------------- helpers

  private void remove(String node, String uid, String why, String pod) {
    Map<String, String> patch = new LinkedHashMap<>();
    for (String k : byNode.getOrDefault(node, Map.of()).keySet()) {
      if (k.endsWith("/" + uid)) {
        patch.put(k, null);
      }
    }
    if (write(node, patch)) {
      log.atInfo()
          .setMessage("removed a reservation: " + why)
          .addKeyValue("pod", pod)
          .addKeyValue("node", node)
          .addKeyValue("plugin", NAME)
          .addKeyValue("reservation", uid)
          .log();
    }
  }

  private boolean write(String node, Map<String, String> patch) {
    try {
      index(client.patchNodeAnnotations(node, patch));
      return true;
    } catch (SchedulingException e) {
      log.atWarn()
          .setMessage("cannot write the reservation annotations: " + e.getMessage())
          .addKeyValue("node", node)
          .addKeyValue("plugin", NAME)
          .log();
      return false;
    }
  }

  private void index(V1Node node) {
    String name = node.getMetadata().getName();
    Map<String, String> annotations = node.getMetadata().getAnnotations();
    Map<String, String> mine = new TreeMap<>();
    if (annotations != null) {
      annotations.forEach(
          (k, v) -> {
            if (k.startsWith(RESERVE_PREFIX) && k.indexOf('/') > 0) {
              mine.put(k, v);
            }
          });
    }
    if (mine.isEmpty()) {
      if (byNode.remove(name) != null) {
        publish();
      }
    } else if (!mine.equals(byNode.put(name, mine))) {
      publish();
    }
  }

  private void publish() {
    Map<String, Map<String, String>> copy = new TreeMap<>();
    byNode.forEach((n, a) -> copy.put(n, Map.copyOf(a)));
    view = java.util.Collections.unmodifiableMap(copy);
  }

  /** Returns the reservation keys of a node's annotations that reserve some resource. */
  private static TreeSet<String> uids(Map<String, String> annotations) {
    TreeSet<String> out = new TreeSet<>();
    for (String k : annotations.keySet()) {
      if (k.startsWith(OWNER_PREFIX)
          || k.startsWith(CONTROLLER_PREFIX)
          || k.startsWith(EXPIRES_PREFIX)) {
        continue;
      }
      out.add(k.substring(k.indexOf('/') + 1));
    }
    return out;
  }

  private static String nodeName(V1Pod pod) {
    String n = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return n == null || n.isEmpty() ? null : n;
  }

  private static String ownerUid(V1Pod pod) {
    V1OwnerReference ref = ResourceReservation.controllerOf(pod);
    return ref == null ? null : ref.getUid();
  }

  private static boolean terminal(V1Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static boolean disrupted(V1Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return false;
    }
    for (V1PodCondition c : pod.getStatus().getConditions()) {
      if (DISRUPTION_TARGET.equals(c.getType()) && "True".equals(c.getStatus())) {
        return true;
      }
    }
    return false;
  }

  private static String key(V1Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
