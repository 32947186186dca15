package io.kubesched.plugins.sample.coscheduling;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodsToActivate;
import io.kubesched.framework.PostBindPlugin;
import io.kubesched.framework.PostFilterPlugin;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code Coscheduling} is a plugin for gang scheduling: the pods of a group are bound all together
 * or not at all, as the scheduler-plugins project's Coscheduling does.
 *
 * <p>A pod joins a group with the label {@value #POD_GROUP_LABEL}{@code : <name>}; the group is a
 * {@code scheduling.x-k8s.io/v1alpha1} {@code PodGroup} in the pod's namespace with {@code
 * spec.minMember} and optionally {@code spec.scheduleTimeoutSeconds}.
 *
 * <ul>
 *   <li>QueueSort keeps a group's pods together: higher priority first, then the older group (a pod
 *       without group counts with its first attempt time), then by group name.
 *   <li>PreFilter rejects a member while fewer than {@code minMember} pods of its group exist, and
 *       while the group is backing off after a failure.
 *   <li>Permit makes each member wait until {@code minMember} members are waiting at Permit,
 *       allowed (binding) or bound, then allows all of them at once. A timeout rejects the member;
 *       its Unreserve rejects every waiting sibling, releasing their reservations.
 *   <li>PostFilter: when a member fits nowhere, its waiting siblings are rejected at once.
 *   <li>Backoff: a group whose member fits nowhere, or whose waiting members were released (a
 *       Permit timeout), is turned away at PreFilter ("failed recently") for {@code
 *       podGroupBackoffSeconds}, at least {@value #MIN_GROUP_BACKOFF_SECONDS}s, so that it does not
 *       take the nodes again at once; a node added or changed, a pod of another group deleted, a
 *       change of the PodGroup's spec, or a new (or ungated) member lifts it.
 * </ul>
 *
 * Replace PrioritySort with this plugin at QueueSort (a profile has exactly one QueueSort).
 */
public final class Coscheduling
    implements QueueSortPlugin,
        PreFilterPlugin,
        PostFilterPlugin,
        ReservePlugin,
        PermitPlugin,
        PostBindPlugin,
        EnqueueExtensions {
  /** The plugin name. */
  public static final String NAME = "Coscheduling";

  /** The label naming a pod's group. */
  public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";

  /** The shortest backoff of a group rejected at PostFilter, whatever podGroupBackoffSeconds. */
  public static final int MIN_GROUP_BACKOFF_SECONDS = 1;

  private static final Logger log = LoggerFactory.getLogger(Coscheduling.class);

  private final FrameworkHandle handle;
  private final CoschedulingArgs args;

  /** The backoff of a group after a failure, by group: until when, and from how many members. */
  private final Map<String, Denial> deniedUntil = new ConcurrentHashMap<>();

  /**
   * A group's backoff: its members are turned away at PreFilter until {@code until}, unless more
   * members can be scheduled than {@code ungatedMembers} when it began (a member was added or lost
   * its scheduling gates: the group may complete now).
   */
  private record Denial(Instant until, int ungatedMembers) {}

  /**
   * Members bound by this plugin's PostBind, by group, until the cluster's view shows them bound:
   * binding cycles run concurrently and the informers lag, so a status computed from the view alone
   * could count fewer members than are bound. Guarded by {@link #updateStatus}'s lock.
   */
  private final Map<String, java.util.Set<String>> boundByUs = new java.util.HashMap<>();

  /**
   * The UIDs of the members this plugin allowed at Permit (and that were not unreserved since: a
   * binding that failed), by group. Permit counts a group's members from these, the members bound
   * in the cluster and the members waiting at Permit right now, rather than from the scheduling
   * cycle's snapshot: the snapshot still shows siblings that were released while the cycle ran
   * (their Permit timed out, a sibling failed), and counting them would allow, and bind, part of a
   * gang. Guarded by itself.
   */
  private final Map<String, java.util.Set<String>> allowed = new java.util.HashMap<>();

  /** Creates the plugin. */
  public Coscheduling(CoschedulingArgs args, FrameworkHandle handle) {
    this.args = Objects.requireNonNull(args);
    this.handle = Objects.requireNonNull(handle);
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Returns the group label value of {@code pod}, or {@code null}. */
  static String groupName(V1Pod pod) {
    Map<String, String> labels = pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
    String g = labels == null ? null : labels.get(POD_GROUP_LABEL);
    return g == null || g.isEmpty() ? null : g;
  }

  private PodGroup lookup(String namespace, String name) {
    Map<String, Object> o = lookupObject(namespace, name);
    return o == null ? null : PodGroup.fromMap(o);
  }

  private Map<String, Object> lookupObject(String namespace, String name) {
    for (Map<String, Object> o :
        handle.client().listCustomObjects(PodGroup.API_VERSION, PodGroup.KIND, namespace)) {
      Map<?, ?> meta = o.get("metadata") instanceof Map<?, ?> m ? m : Map.of();
      Object ns = meta.get("namespace") == null ? "default" : meta.get("namespace");
      if (name.equals(meta.get("name")) && namespace.equals(ns)) {
        return o;
      }
    }
    return null;
  }

  /** The message of a member whose PodGroup does not exist. */
  static String notFound(String namespace, String group) {
    return "PodGroup "
        + namespace
        + "/"
        + group
        + " not found (the pod's label "
        + POD_GROUP_LABEL
        + "="
        + group
        + " names no "
        + PodGroup.API_VERSION
        + " PodGroup)";
  }

  // ---- QueueSort

  @Override
  public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
    int p1 = a.podInfo().priority();
    int p2 = b.podInfo().priority();
    if (p1 != p2) {
      return p1 > p2;
    }
    Instant t1 = creation(a);
    Instant t2 = creation(b);
    if (t1.equals(t2)) {
      return sortName(a.podInfo()).compareTo(sortName(b.podInfo())) < 0;
    }
    return t1.isBefore(t2);
  }

  private Instant creation(QueuedPodInfo q) {
    String g = groupName(q.podInfo().pod());
    if (g != null) {
      PodGroup pg = lookup(q.podInfo().namespace(), g);
      if (pg != null) {
        return pg.creationTimestamp();
      }
    }
    Instant t = q.initialAttemptTimestamp();
    return t != null ? t : q.timestamp();
  }

  private static String sortName(PodInfo p) {
    String g = groupName(p.pod());
    return g == null ? p.key() : p.namespace() + "/" + g;
  }

  // ---- PreFilter

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    String g = groupName(pod.pod());
    if (g == null) {
      return PreFilterResult.success();
    }
    PodGroup pg = lookup(pod.namespace(), g);
    if (pg == null) {
      return PreFilterResult.of(Status.unresolvable(notFound(pod.namespace(), g)));
    }
    Denial denial = deniedUntil.get(pg.fullName());
    if (denial != null && handle.clock().instant().isBefore(denial.until())) {
      if (ungatedMembers(pod.namespace(), g) <= denial.ungatedMembers()) {
        return PreFilterResult.of(
            Status.unresolvable("podGroup " + pg.fullName() + " failed recently"));
      }
      deniedUntil.remove(pg.fullName(), denial);
    }
    int members = 0;
    for (V1Pod p : handle.client().listPods()) {
      if (pod.namespace().equals(p.getMetadata().getNamespace())
          && g.equals(groupName(p))
          && p.getMetadata().getDeletionTimestamp() == null) {
        members++;
      }
    }
    updateStatus(pod.namespace(), g, null);
    if (members < pg.minMember()) {
      return PreFilterResult.of(
          Status.unresolvable(
              "pre-filter pod "
                  + pod.name()
                  + " cannot find enough sibling pods, current pods number: "
                  + members
                  + ", minMember of group: "
                  + pg.minMember()));
    }
    if (!pg.minResources().isEmpty()) {
      String gap = ClusterResources.gap(handle.snapshot().list(), pg);
      if (gap != null) {
        if (args.effectiveBackoffSeconds() > 0) {
          deny(pod.namespace(), g, args.effectiveBackoffSeconds());
        }
        return PreFilterResult.of(Status.unresolvable(gap));
      }
    }
    return PreFilterResult.success();
  }

  // ---- PostBind

  @Override
  public void postBind(CycleState state, PodInfo pod, String nodeName) {
    String g = groupName(pod.pod());
    if (g != null) {
      updateStatus(pod.namespace(), g, pod.pod().getMetadata().getName());
    }
  }

  /**
   * Writes the PodGroup's status when it changed (see {@link PodGroupStatus}); {@code boundPod}
   * counts as bound even if the cluster's view does not show it yet. Failures are logged.
   */
  private synchronized void updateStatus(String namespace, String g, String boundPod) {
    Map<String, Object> obj = lookupObject(namespace, g);
    if (obj == null) {
      return;
    }
    PodGroup pg = PodGroup.fromMap(obj);
    java.util.Set<String> bound =
        boundByUs.computeIfAbsent(namespace + "/" + g, k -> new java.util.HashSet<>());
    if (boundPod != null) {
      bound.add(boundPod);
    }
    java.util.Set<String> stillUnseen = new java.util.HashSet<>();
    List<V1Pod> members = new java.util.ArrayList<>();
    for (V1Pod p : handle.client().listPods()) {
      if (namespace.equals(p.getMetadata().getNamespace())
          && g.equals(groupName(p))
          && p.getMetadata().getDeletionTimestamp() == null) {
        if (bound.contains(p.getMetadata().getName())
            && (p.getSpec() == null || p.getSpec().getNodeName() == null)) {
          stillUnseen.add(p.getMetadata().getName());
          p =
              new V1Pod()
                  .metadata(p.getMetadata())
                  .spec(new io.kubernetes.client.openapi.models.V1PodSpec().nodeName("bound"))
                  .status(p.getStatus());
        }
        members.add(p);
      }
    }
    bound.retainAll(stillUnseen);
    if (bound.isEmpty()) {
      boundByUs.remove(namespace + "/" + g);
    }
    PodGroupStatus before = PodGroupStatus.fromMap(obj);
    PodGroupStatus now = PodGroupStatus.of(pg, members, before, handle.clock().instant());
    if (now.equals(before)) {
      return;
    }
    Map<String, Object> update = new java.util.LinkedHashMap<>(obj);
    update.put("status", now.toMap());
    try {
      handle.client().updateCustomObjectStatus(update);
    } catch (RuntimeException e) {
      log.atWarn()
          .setMessage("cannot update the PodGroup's status")
          .addKeyValue("podGroup", pg.fullName())
          .addKeyValue("plugin", NAME)
          .addKeyValue("error", e.getMessage())
          .log();
    }
  }

  // ---- PostFilter

  @Override
  public PostFilterResult postFilter(
      CycleState state, PodInfo pod, NodeToStatusReader filteredNodeStatuses) {
    String g = groupName(pod.pod());
    if (g == null) {
      return PostFilterResult.of(Status.unschedulable());
    }
    PodGroup pg = lookup(pod.namespace(), g);
    if (pg == null) {
      // PreFilter already said why: nothing to add to the message
      return PostFilterResult.of(Status.unschedulable());
    }
    if (assigned(pod.namespace(), g) >= pg.minMember()) {
      return PostFilterResult.of(Status.unschedulable());
    }
    String msg =
        "PodGroup "
            + pg.fullName()
            + " gets rejected due to Pod "
            + pod.name()
            + " is unschedulable even after PostFilter";
    rejectWaitingSiblings(pod.namespace(), g, msg);
    // Always back the group off, for at least MIN_GROUP_BACKOFF_SECONDS: without it (as in
    // scheduler-plugins with podGroupBackoffSeconds 0) a gang that can never fit is the oldest in
    // the queue forever and keeps the others from ever completing. A member turned away by the
    // backoff itself neither extends it nor logs again: one line per group attempt.
    if (!backingOff(pg.fullName())) {
      int backoff = deny(pod.namespace(), g, minBackoffSeconds());
      log.atDebug()
          .setMessage(
              "pod group rejected: a member is unschedulable, its waiting siblings released")
          .addKeyValue("pod", pod.key())
          .addKeyValue("podGroup", pg.fullName())
          .addKeyValue("plugin", NAME)
          .addKeyValue("backoffSeconds", backoff)
          .log();
    }
    return PostFilterResult.of(Status.unschedulable(msg));
  }

  // ---- Reserve

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    return Status.success();
  }

  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    String g = groupName(pod.pod());
    if (g == null) {
      return;
    }
    boolean wasAllowed;
    synchronized (allowed) {
      java.util.Set<String> uids = allowed.get(pod.namespace() + "/" + g);
      wasAllowed = uids != null && uids.remove(pod.uid());
    }
    int rejected = rejectWaitingSiblings(pod.namespace(), g, "rejection in Unreserve");
    String fullName = pod.namespace() + "/" + g;
    if (!wasAllowed && !backingOff(fullName)) {
      // the gang failed before it was complete (a Permit timeout, another plugin's rejection): its
      // waiting members are released, and the group backs off instead of taking the nodes again
      // at once. A member that fails to bind after the gang was allowed is retried at once.
      int backoff = deny(pod.namespace(), g, minBackoffSeconds());
      log.atDebug()
          .setMessage("pod group released: its waiting members were rejected")
          .addKeyValue("pod", pod.key())
          .addKeyValue("podGroup", fullName)
          .addKeyValue("plugin", NAME)
          .addKeyValue("released", rejected)
          .addKeyValue("backoffSeconds", backoff)
          .log();
    }
  }

  private int minBackoffSeconds() {
    return Math.max(MIN_GROUP_BACKOFF_SECONDS, args.effectiveBackoffSeconds());
  }

  private boolean backingOff(String fullName) {
    Denial d = deniedUntil.get(fullName);
    return d != null && handle.clock().instant().isBefore(d.until());
  }

  /** Backs the group off for {@code seconds} from now; returns {@code seconds}. */
  private int deny(String namespace, String g, int seconds) {
    deniedUntil.put(
        namespace + "/" + g,
        new Denial(handle.clock().instant().plusSeconds(seconds), ungatedMembers(namespace, g)));
    return seconds;
  }

  /** Counts the group's pods that exist, are not being deleted and carry no scheduling gate. */
  private int ungatedMembers(String namespace, String g) {
    int n = 0;
    for (V1Pod p : handle.client().listPods()) {
      if (namespace.equals(p.getMetadata().getNamespace())
          && g.equals(groupName(p))
          && p.getMetadata().getDeletionTimestamp() == null
          && (p.getSpec() == null
              || p.getSpec().getSchedulingGates() == null
              || p.getSpec().getSchedulingGates().isEmpty())) {
        n++;
      }
    }
    return n;
  }

  /**
   * Returns the UIDs of the group's members that count at Permit: bound in the cluster, allowed by
   * this plugin (see {@link #allowed}), or waiting at Permit now; forgets allowed members that no
   * longer exist. Call holding {@link #allowed}.
   */
  private java.util.Set<String> readyMembers(String namespace, String g) {
    java.util.Set<String> uids =
        allowed.computeIfAbsent(namespace + "/" + g, k -> new java.util.HashSet<>());
    java.util.Set<String> existing = new java.util.HashSet<>();
    java.util.Set<String> ready = new java.util.HashSet<>();
    for (V1Pod p : handle.client().listPods()) {
      if (!namespace.equals(p.getMetadata().getNamespace()) || !g.equals(groupName(p))) {
        continue;
      }
      String uid = p.getMetadata().getUid();
      existing.add(uid);
      String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
      if (p.getSpec() != null
          && p.getSpec().getNodeName() != null
          && !"Succeeded".equals(phase)
          && !"Failed".equals(phase)) {
        ready.add(uid);
      }
    }
    uids.retainAll(existing);
    ready.addAll(uids);
    handle.iterateOverWaitingPods(
        w -> {
          if (sameGroup(w.pod(), namespace, g)) {
            ready.add(w.pod().uid());
          }
        });
    return ready;
  }

  // ---- Permit

  @Override
  public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
    String g = groupName(pod.pod());
    if (g == null) {
      return PermitResult.allow();
    }
    PodGroup pg = lookup(pod.namespace(), g);
    if (pg == null) {
      return PermitResult.of(Status.unresolvable(notFound(pod.namespace(), g)));
    }
    boolean complete;
    synchronized (allowed) {
      java.util.Set<String> ready = readyMembers(pod.namespace(), g);
      ready.add(pod.uid());
      complete = ready.size() >= pg.minMember();
      if (complete) {
        java.util.Set<String> uids = allowed.get(pod.namespace() + "/" + g);
        handle.iterateOverWaitingPods(
            w -> {
              if (sameGroup(w.pod(), pod.namespace(), g)) {
                w.allow(NAME);
                uids.add(w.pod().uid());
              }
            });
        uids.add(pod.uid());
      }
    }
    if (complete) {
      log.atDebug()
          .setMessage("pod group is complete, members allowed")
          .addKeyValue("pod", pod.key())
          .addKeyValue("podGroup", pg.fullName())
          .addKeyValue("plugin", NAME)
          .log();
      return PermitResult.allow();
    }
    activateSiblings(state, pod, g);
    int timeout =
        pg.scheduleTimeoutSeconds() == null || pg.scheduleTimeoutSeconds() <= 0
            ? args.permitWaitingTimeSeconds()
            : pg.scheduleTimeoutSeconds();
    return PermitResult.waitFor(Duration.ofSeconds(timeout));
  }

  private void activateSiblings(CycleState state, PodInfo pod, String g) {
    PodsToActivate toActivate = state.read(PodsToActivate.KEY).orElse(null);
    if (toActivate == null) {
      return;
    }
    for (V1Pod p : handle.client().listPods()) {
      if (pod.namespace().equals(p.getMetadata().getNamespace())
          && g.equals(groupName(p))
          && !pod.name().equals(p.getMetadata().getName())
          && (p.getSpec() == null || p.getSpec().getNodeName() == null)) {
        toActivate.pods().put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p);
      }
    }
  }

  /** Counts the group's pods that are bound or assumed in the current snapshot. */
  private int assigned(String namespace, String g) {
    int n = 0;
    for (NodeInfo node : handle.snapshot().list()) {
      for (PodInfo p : node.pods()) {
        if (sameGroup(p, namespace, g)) {
          n++;
        }
      }
    }
    return n;
  }

  private static boolean sameGroup(PodInfo p, String namespace, String g) {
    return namespace.equals(p.namespace()) && g.equals(groupName(p.pod()));
  }

  /** Rejects the group's members waiting at Permit; returns how many. */
  private int rejectWaitingSiblings(String namespace, String g, String msg) {
    int[] n = {0};
    handle.iterateOverWaitingPods(
        w -> {
          if (sameGroup(w.pod(), namespace, g)) {
            w.reject(NAME, msg);
            n[0]++;
          }
        });
    return n[0];
  }

  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    // scheduler-plugins registers Pod/Add and PodGroup/Add|Update. kubesched adds Pod/Delete (a
    // rejected gang releasing its nodes, another pod leaving) and the node events that can make a
    // gang fit: with them, and since such an event lifts the group's backoff (see liftBackoff), a
    // gang that can fit after a change is scheduled at its next attempt instead of being turned
    // away as "failed recently" and left for the 5-minute flush.
    return List.of(
        ClusterEventWithHint.of(EventResource.POD, ActionType.ADD),
        ClusterEventWithHint.of(EventResource.POD, ActionType.DELETE, this::afterPodDelete),
        ClusterEventWithHint.of(
            EventResource.NODE,
            ActionType.ADD
                | ActionType.UPDATE_NODE_ALLOCATABLE
                | ActionType.UPDATE_NODE_LABEL
                | ActionType.UPDATE_NODE_TAINT,
            this::afterClusterChange),
        ClusterEventWithHint.of(
            EventResource.of(CoschedulingProvider.POD_GROUPS),
            ActionType.ADD | ActionType.UPDATE,
            this::afterPodGroupChange));
  }

  /**
   * Lifts the backoff of {@code pod}'s group: a change in the cluster since the group failed may
   * let it fit, and its members, requeued by that change, must not be turned away as "failed
   * recently" (nothing would requeue them again before the 5-minute flush).
   */
  private void liftBackoff(V1Pod pod) {
    String g = groupName(pod);
    if (g != null) {
      String ns = pod.getMetadata().getNamespace();
      deniedUntil.remove((ns == null ? "default" : ns) + "/" + g);
    }
  }

  private QueueingHint afterClusterChange(V1Pod pod, Object oldObj, Object newObj) {
    liftBackoff(pod);
    return QueueingHint.QUEUE;
  }

  /**
   * A pod was deleted: the pod is requeued; its group's backoff is lifted unless the deleted pod is
   * of the same group (a rejected gang releasing its own members).
   */
  private QueueingHint afterPodDelete(V1Pod pod, Object oldObj, Object newObj) {
    if (!(oldObj instanceof V1Pod deleted)
        || !Objects.equals(groupName(deleted), groupName(pod))
        || !Objects.equals(
            deleted.getMetadata().getNamespace(), pod.getMetadata().getNamespace())) {
      liftBackoff(pod);
    }
    return QueueingHint.QUEUE;
  }

  private QueueingHint afterPodGroupChange(V1Pod pod, Object oldObj, Object newObj) {
    QueueingHint hint = isSchedulableAfterPodGroupChange(pod, oldObj, newObj);
    if (hint == QueueingHint.QUEUE) {
      liftBackoff(pod);
    }
    return hint;
  }

  /**
   * Queues {@code pod} when the PodGroup added or changed is its own group and, on update, its spec
   * changed (a change of the status only, which Coscheduling writes itself on every member's
   * attempt, cannot help); skips it otherwise.
   */
  static QueueingHint isSchedulableAfterPodGroupChange(V1Pod pod, Object oldObj, Object newObj) {
    String g = groupName(pod);
    if (g == null || !(newObj instanceof Map<?, ?> now)) {
      return QueueingHint.SKIP;
    }
    Map<?, ?> meta = now.get("metadata") instanceof Map<?, ?> m ? m : Map.of();
    String ns = Objects.toString(meta.get("namespace"), "default");
    String podNs =
        pod.getMetadata().getNamespace() == null ? "default" : pod.getMetadata().getNamespace();
    if (!g.equals(meta.get("name")) || !ns.equals(podNs)) {
      return QueueingHint.SKIP;
    }
    if (oldObj instanceof Map<?, ?> old && Objects.equals(old.get("spec"), now.get("spec"))) {
      return QueueingHint.SKIP;
    }
    return QueueingHint.QUEUE;
  }
}
