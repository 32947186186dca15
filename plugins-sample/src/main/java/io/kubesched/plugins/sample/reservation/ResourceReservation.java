package io.kubesched.plugins.sample.reservation;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Quantities;
import io.kubesched.framework.Resource;
import io.kubesched.framework.ResourceNames;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ResourceReservation} is a plugin that holds node capacity back for a pod that is being
 * recreated, so that other pods cannot take its place in the meantime.
 *
 * <h2>The annotations</h2>
 *
 * A reservation is a set of node annotations sharing one key {@code <uid>} (by convention the UID
 * of the deleted pod):
 *
 * <ul>
 *   <li>{@code reserve.<resource>/<uid>: <quantity>} reserves {@code <quantity>} of {@code
 *       <resource>}, e.g. {@code reserve.cpu/8e7f0c2a-...: 5000m}. {@code <resource>} is {@code
 *       cpu}, {@code memory}, {@code ephemeral-storage}, or an extended resource {@code
 *       <domain>/<name>} written as {@code <name>.<domain>} (annotation keys allow one slash):
 *       {@code reserve.gpu.nvidia.com/<uid>: 1}.
 *   <li>optionally {@code reserve.owner/<uid>: <namespace>/<name>} names the pod the reservation
 *       was made for.
 *   <li>optionally {@code reserve.controller/<uid>: <Kind>/<owner-uid>} keys the reservation by the
 *       deleted pod's controller (its {@code ownerReferences} entry with {@code controller: true}),
 *       e.g. {@code ReplicaSet/4b1f...}: any pod of that controller may use it — a Deployment's
 *       replacement pod has a new name and UID but the same ReplicaSet. (A rollout makes a new
 *       ReplicaSet, whose pods do not match.)
 *   <li>optionally {@code reserve.expires/<uid>: <RFC 3339 time>}: from that time on (scheduler's
 *       clock) the reservation no longer counts.
 * </ul>
 *
 * On the recreated pod, optionally, {@code reserve.kubesched.io/uid: <uid>} names the reservation
 * it claims.
 *
 * <h2>Whose reservation is it</h2>
 *
 * A pod <em>owns</em> the reservation {@code <uid>} when its UID is {@code <uid>}, or its {@code
 * reserve.kubesched.io/uid} annotation says {@code <uid>}, or the node's {@code
 * reserve.owner/<uid>} annotation names the pod's namespace and name (StatefulSet pods and
 * operator-managed pods keep their names), or the node's {@code reserve.controller/<uid>}
 * annotation names the pod's controller kind and UID.
 *
 * <h2>What counts</h2>
 *
 * Filter subtracts from the node every unexpired reservation except those the pod owns: a pod fits
 * only if its request plus the node's requested resources plus the reservations of others stay
 * within allocatable, for each reserved resource the pod requests. A reservation stops counting
 * when it expires, when the annotations are removed, or as soon as a pod that owns it by UID, claim
 * or name is bound (anywhere: its requests are then counted where it runs). A bound pod of the same
 * controller does not end a reservation (its siblings are bound too): the {@link
 * ReservationController} removes it when the replacement is bound.
 *
 * <h2>The controller</h2>
 *
 * With the args {@code controller: true}, the plugin also runs a {@link ReservationController},
 * which writes and removes these annotations; see there.
 */
public final class ResourceReservation implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  /** The plugin name. */
  public static final String NAME = "ResourceReservation";

  /** The Filter reason. */
  public static final String REASON = "node(s) had resources reserved for other pods";

  /** The node annotation prefix of a reservation. */
  public static final String RESERVE_PREFIX = "reserve.";

  /** The node annotation prefix naming the owner of a reservation. */
  public static final String OWNER_PREFIX = "reserve.owner/";

  /** The node annotation prefix keying a reservation by the deleted pod's controller. */
  public static final String CONTROLLER_PREFIX = "reserve.controller/";

  /** The node annotation prefix of a reservation's expiry time (RFC 3339). */
  public static final String EXPIRES_PREFIX = "reserve.expires/";

  /** The pod annotation naming the reservation a recreated pod claims. */
  public static final String CLAIM_ANNOTATION = "reserve.kubesched.io/uid";

  private static final Logger log = LoggerFactory.getLogger(ResourceReservation.class);
  private static final StateKey<Reserved> KEY = StateKey.of("PreFilter" + NAME, Reserved.class);

  private final Clock clock;
  private final ReservationController controller;

  /** Creates the plugin; {@code clock} decides which reservations have expired. */
  public ResourceReservation(Clock clock) {
    this(clock, null);
  }

  /**
   * Creates the plugin with its controller: the reservations are then read from the controller's
   * view (the node annotations as last seen or written by it), which knows of its own writes before
   * the node watch delivers them.
   */
  public ResourceReservation(Clock clock, ReservationController controller) {
    this.clock = clock;
    this.controller = controller;
  }

  /** Creates the plugin on the system clock. */
  public ResourceReservation() {
    this(Clock.systemUTC());
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * One reservation parsed from a node annotation.
   *
   * @param controller the {@code reserve.controller/} value ({@code <Kind>/<uid>}), or null
   * @param expires the {@code reserve.expires/} time, or null when it never expires
   */
  record Reservation(
      String uid, String resource, long amount, String owner, String controller, Instant expires) {}

  /** What other pods hold back on each node, for the pod of this cycle. */
  private record Reserved(Map<String, Resource> byNode) implements StateData {}

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    Map<String, List<Reservation>> byNode = new HashMap<>();
    Instant now = clock.instant();
    Map<String, Map<String, String>> fromController =
        controller == null ? null : controller.reservationAnnotations();
    for (NodeInfo n : nodes) {
      List<Reservation> rs =
          fromController == null
              ? parse(n)
              : parse(n.name(), fromController.getOrDefault(n.name(), Map.of()));
      rs.removeIf(r -> r.expires() != null && !now.isBefore(r.expires()));
      if (!rs.isEmpty()) {
        byNode.put(n.name(), rs);
      }
    }
    if (byNode.isEmpty()) {
      return PreFilterResult.skip();
    }
    Set<String> boundOwners = new HashSet<>();
    for (NodeInfo n : nodes) {
      for (PodInfo p : n.pods()) {
        boundOwners.add("uid:" + p.uid());
        boundOwners.add("name:" + p.key());
        String claim = claim(p);
        if (claim != null) {
          boundOwners.add("uid:" + claim);
        }
      }
    }
    Map<String, Resource> reserved = new HashMap<>();
    byNode.forEach(
        (node, rs) -> {
          Resource.Builder b = Resource.builder();
          boolean any = false;
          for (Reservation r : rs) {
            if (owns(pod, r) || isBound(r, boundOwners)) {
              continue;
            }
            b.add(r.resource(), r.amount());
            any = true;
          }
          if (any) {
            reserved.put(node, b.build());
          }
        });
    if (reserved.isEmpty()) {
      return PreFilterResult.skip();
    }
    state.write(KEY, new Reserved(Map.copyOf(reserved)));
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    Reserved r = state.read(KEY).orElse(null);
    Resource held = r == null ? null : r.byNode().get(node.name());
    if (held == null) {
      return Status.success();
    }
    Resource want = pod.requests();
    Resource used = node.requested();
    Resource alloc = node.allocatable();
    if (exceeds(want.milliCpu(), used.milliCpu(), held.milliCpu(), alloc.milliCpu())
        || exceeds(want.memory(), used.memory(), held.memory(), alloc.memory())
        || exceeds(
            want.ephemeralStorage(),
            used.ephemeralStorage(),
            held.ephemeralStorage(),
            alloc.ephemeralStorage())) {
      return Status.unschedulable(REASON);
    }
    for (Map.Entry<String, Long> e : held.scalarResources().entrySet()) {
      String name = e.getKey();
      if (exceeds(want.scalar(name), used.scalar(name), e.getValue(), alloc.scalar(name))) {
        return Status.unschedulable(REASON);
      }
    }
    return Status.success();
  }

  private static boolean exceeds(long want, long used, long held, long alloc) {
    return want > 0 && held > 0 && want + used + held > alloc;
  }

  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.NODE,
            ActionType.ADD
                | ActionType.UPDATE_NODE_ANNOTATION
                | ActionType.UPDATE_NODE_ALLOCATABLE),
        ClusterEventWithHint.of(EventResource.POD, ActionType.ADD | ActionType.DELETE));
  }

  private static boolean owns(PodInfo pod, Reservation r) {
    return r.uid().equals(pod.uid())
        || r.uid().equals(claim(pod))
        || (r.owner() != null && r.owner().equals(pod.key()))
        || (r.controller() != null && r.controller().equals(controllerKey(pod.pod())));
  }

  /**
   * Returns {@code <Kind>/<uid>} of the pod's controller owner reference, or null when it has none.
   */
  static String controllerKey(V1Pod pod) {
    V1OwnerReference ref = controllerOf(pod);
    return ref == null ? null : ref.getKind() + "/" + ref.getUid();
  }

  /** Returns the pod's owner reference with {@code controller: true}, or null. */
  static V1OwnerReference controllerOf(V1Pod pod) {
    if (pod.getMetadata() == null || pod.getMetadata().getOwnerReferences() == null) {
      return null;
    }
    for (V1OwnerReference ref : pod.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(ref.getController()) && ref.getUid() != null) {
        return ref;
      }
    }
    return null;
  }

  private static boolean isBound(Reservation r, Set<String> boundOwners) {
    return boundOwners.contains("uid:" + r.uid())
        || (r.owner() != null && boundOwners.contains("name:" + r.owner()));
  }

  private static String claim(PodInfo p) {
    Map<String, String> a =
        p.pod().getMetadata() == null ? null : p.pod().getMetadata().getAnnotations();
    return a == null ? null : a.get(CLAIM_ANNOTATION);
  }

  /** Parses the reservations of {@code node}; malformed annotations are logged and ignored. */
  static List<Reservation> parse(NodeInfo node) {
    if (node.node() == null
        || node.node().getMetadata() == null
        || node.node().getMetadata().getAnnotations() == null) {
      return new ArrayList<>();
    }
    return parse(node.name(), node.node().getMetadata().getAnnotations());
  }

  /** Parses the reservations in the annotations of node {@code nodeName}. */
  static List<Reservation> parse(String nodeName, Map<String, String> annotations) {
    List<Reservation> out = new ArrayList<>();
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(RESERVE_PREFIX)
          || key.startsWith(OWNER_PREFIX)
          || key.startsWith(CONTROLLER_PREFIX)
          || key.startsWith(EXPIRES_PREFIX)) {
        continue;
      }
      int slash = key.indexOf('/');
      if (slash < 0 || slash == key.length() - 1) {
        continue;
      }
      String resource = resourceName(key.substring(RESERVE_PREFIX.length(), slash));
      String uid = key.substring(slash + 1);
      long amount;
      try {
        Quantity q = Quantities.parse(e.getValue());
        amount = Quantities.valueOf(resource, q);
      } catch (IllegalArgumentException ex) {
        log.atWarn()
            .setMessage("ignoring reservation with an invalid quantity")
            .addKeyValue("node", nodeName)
            .addKeyValue("annotation", key)
            .addKeyValue("plugin", NAME)
            .log();
        continue;
      }
      out.add(
          new Reservation(
              uid,
              resource,
              amount,
              annotations.get(OWNER_PREFIX + uid),
              annotations.get(CONTROLLER_PREFIX + uid),
              expiry(nodeName, annotations.get(EXPIRES_PREFIX + uid))));
    }
    return out;
  }

  /** Parses a {@code reserve.expires/} value; a malformed one is logged and means "never". */
  static Instant expiry(String node, String value) {
    if (value == null) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      log.atWarn()
          .setMessage("ignoring an invalid reservation expiry, want an RFC 3339 time")
          .addKeyValue("node", node)
          .addKeyValue("value", value)
          .addKeyValue("plugin", NAME)
          .log();
      return null;
    }
  }

  /**
   * Maps the annotation form of a resource to its name: {@code gpu.nvidia.com} → {@code
   * nvidia.com/gpu}.
   */
  static String resourceName(String s) {
    if (s.equals(ResourceNames.CPU)
        || s.equals(ResourceNames.MEMORY)
        || s.equals(ResourceNames.EPHEMERAL_STORAGE)) {
      return s;
    }
    int dot = s.indexOf('.');
    return dot < 0 ? s : s.substring(dot + 1) + "/" + s.substring(0, dot);
  }
}
