package io.kubesched.plugins.volumerestrictions;

import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterExtensions;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.framework.StorageClient;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.EventObjects;
import io.kubesched.plugins.helper.Volumes;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code VolumeRestrictions} is a plugin that rejects nodes where a pod's in-tree disk would
 * conflict with one already mounted there (GCE PD unless all read-only, AWS EBS always, iSCSI and
 * RBD unless all read-only), and pods whose ReadWriteOncePod claim is already used by a scheduled
 * pod.
 */
public final class VolumeRestrictions
    implements PreFilterPlugin, PreFilterExtensions, FilterPlugin, EnqueueExtensions, SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.VOLUME_RESTRICTIONS;

  /** The reason for a disk conflict. */
  public static final String REASON_DISK_CONFLICT = "node(s) had no available disk";

  /** The reason for a ReadWriteOncePod claim already in use. */
  public static final String REASON_RWOP_CONFLICT =
      "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access"
          + " mode";

  static final StateKey<State> STATE_KEY = StateKey.of("PreFilter" + NAME, State.class);

  /**
   * The pod's ReadWriteOncePod claims and how many references scheduled pods hold to them.
   *
   * @param readWriteOncePodClaims the names of the pod's ReadWriteOncePod claims
   * @param conflictingRefCount the references to them by scheduled pods
   */
  record State(Set<String> readWriteOncePodClaims, int conflictingRefCount) implements StateData {
    State withPod(PodInfo pod, int sign) {
      int n = 0;
      for (String claim : pod.pvcNames()) {
        if (readWriteOncePodClaims.contains(claim)) {
          n++;
        }
      }
      return new State(readWriteOncePodClaims, conflictingRefCount + sign * n);
    }
  }

  private static final Status MISSING_STATE =
      Status.error("cannot read \"PreFilter" + NAME + "\" from cycleState");

  private final StorageClient storage;
  private final Supplier<NodeInfoLister> snapshot;

  /**
   * Creates the plugin.
   *
   * @param storage the cluster's claims
   * @param snapshot the snapshot of the current cycle (for the claims scheduled pods use)
   */
  public VolumeRestrictions(StorageClient storage, Supplier<NodeInfoLister> snapshot) {
    this.storage = storage;
    this.snapshot = snapshot;
  }

  /**
   * Signs only pods whose volumes are all node-local ({@link
   * io.kubesched.plugins.helper.Volumes#signature}); a pod with claims or attachable volumes is not
   * batched.
   */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    return io.kubesched.plugins.helper.Volumes.signature(pod.pod());
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Looks up the pod's ReadWriteOncePod claims and counts their users; skips pods without
   * restricted disks and without conflicting claims.
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    V1Pod p = pod.pod();
    if (!Volumes.hasVolumes(p)) {
      return PreFilterResult.skip();
    }
    boolean needsCheck = false;
    if (p.getSpec() != null && p.getSpec().getVolumes() != null) {
      for (V1Volume v : p.getSpec().getVolumes()) {
        if (needsRestrictionsCheck(v)) {
          needsCheck = true;
          break;
        }
      }
    }
    Set<String> claims = new HashSet<>();
    for (String claimName : Volumes.claimNames(p)) {
      Optional<V1PersistentVolumeClaim> pvc =
          storage.getPersistentVolumeClaim(pod.namespace(), claimName);
      if (pvc.isEmpty()) {
        return PreFilterResult.of(Status.unresolvable(Volumes.notFound(Volumes.PVCS, claimName)));
      }
      List<String> modes =
          pvc.get().getSpec() == null ? null : pvc.get().getSpec().getAccessModes();
      if (modes != null && modes.contains("ReadWriteOncePod")) {
        claims.add(claimName);
      }
    }
    int conflicting = 0;
    if (!claims.isEmpty()) {
      Set<String> used = new HashSet<>();
      for (NodeInfo n : snapshot.get().list()) {
        used.addAll(n.pvcRefCounts().keySet());
      }
      for (String claim : claims) {
        if (used.contains(pod.namespace() + "/" + claim)) {
          conflicting++;
        }
      }
    }
    if (!needsCheck && conflicting == 0) {
      return PreFilterResult.skip();
    }
    state.write(STATE_KEY, new State(Set.copyOf(claims), conflicting));
    return PreFilterResult.success();
  }

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    Optional<State> s = state.read(STATE_KEY);
    if (s.isEmpty()) {
      return MISSING_STATE;
    }
    state.write(STATE_KEY, s.get().withPod(podToAdd, 1));
    return Status.success();
  }

  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    Optional<State> s = state.read(STATE_KEY);
    if (s.isEmpty()) {
      return MISSING_STATE;
    }
    state.write(STATE_KEY, s.get().withPod(podToRemove, -1));
    return Status.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (!satisfiesVolumeConflicts(pod.pod(), node.pods())) {
      return Status.unschedulable(REASON_DISK_CONFLICT);
    }
    Optional<State> s = state.read(STATE_KEY);
    if (s.isEmpty()) {
      return MISSING_STATE;
    }
    if (s.get().conflictingRefCount() > 0) {
      return Status.unschedulable(REASON_RWOP_CONFLICT);
    }
    return Status.success();
  }

  static boolean needsRestrictionsCheck(V1Volume v) {
    return v.getGcePersistentDisk() != null
        || v.getAwsElasticBlockStore() != null
        || v.getRbd() != null
        || v.getIscsi() != null;
  }

  private static boolean satisfiesVolumeConflicts(V1Pod pod, List<PodInfo> existing) {
    if (pod.getSpec() == null || pod.getSpec().getVolumes() == null) {
      return true;
    }
    for (V1Volume v : pod.getSpec().getVolumes()) {
      if (!needsRestrictionsCheck(v)) {
        continue;
      }
      for (PodInfo ev : existing) {
        if (isVolumeConflict(v, ev.pod())) {
          return false;
        }
      }
    }
    return true;
  }

  /** Returns whether {@code volume} conflicts with a volume of {@code pod}. */
  static boolean isVolumeConflict(V1Volume volume, V1Pod pod) {
    if (pod.getSpec() == null || pod.getSpec().getVolumes() == null) {
      return false;
    }
    for (V1Volume ev : pod.getSpec().getVolumes()) {
      if (volume.getGcePersistentDisk() != null && ev.getGcePersistentDisk() != null) {
        var d = volume.getGcePersistentDisk();
        var e = ev.getGcePersistentDisk();
        if (Objects.equals(d.getPdName(), e.getPdName())
            && !(isTrue(d.getReadOnly()) && isTrue(e.getReadOnly()))) {
          return true;
        }
      }
      if (volume.getAwsElasticBlockStore() != null && ev.getAwsElasticBlockStore() != null) {
        if (Objects.equals(
            volume.getAwsElasticBlockStore().getVolumeID(),
            ev.getAwsElasticBlockStore().getVolumeID())) {
          return true;
        }
      }
      if (volume.getIscsi() != null && ev.getIscsi() != null) {
        if (Objects.equals(volume.getIscsi().getIqn(), ev.getIscsi().getIqn())
            && !(isTrue(volume.getIscsi().getReadOnly()) && isTrue(ev.getIscsi().getReadOnly()))) {
          return true;
        }
      }
      if (volume.getRbd() != null && ev.getRbd() != null) {
        var r = volume.getRbd();
        var e = ev.getRbd();
        if (haveOverlap(r.getMonitors(), e.getMonitors())
            && Objects.equals(orDefault(r.getPool()), orDefault(e.getPool()))
            && Objects.equals(r.getImage(), e.getImage())
            && !(isTrue(r.getReadOnly()) && isTrue(e.getReadOnly()))) {
          return true;
        }
      }
    }
    return false;
  }

  private static String orDefault(String s) {
    return s == null ? "" : s;
  }

  private static boolean isTrue(Boolean b) {
    return Boolean.TRUE.equals(b);
  }

  private static boolean haveOverlap(List<String> a, List<String> b) {
    if (a == null || b == null) {
      return false;
    }
    Set<String> set = new HashSet<>(a);
    for (String s : b) {
      if (set.contains(s)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Registers pod deletions (a released disk or ReadWriteOncePod claim), node additions and claim
   * additions (a missing claim), as kube does with queueing hints enabled.
   */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.POD, ActionType.DELETE, VolumeRestrictions::isSchedulableAfterPodDeleted),
        ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD),
        ClusterEventWithHint.of(
            EventResource.PERSISTENT_VOLUME_CLAIM,
            ActionType.ADD,
            VolumeRestrictions::isSchedulableAfterClaimAdded));
  }

  static QueueingHint isSchedulableAfterClaimAdded(V1Pod pod, Object oldObj, Object newObj) {
    V1PersistentVolumeClaim pvc = EventObjects.required(V1PersistentVolumeClaim.class, newObj);
    if (!Objects.equals(pod.getMetadata().getNamespace(), pvc.getMetadata().getNamespace())) {
      return QueueingHint.SKIP;
    }
    return Volumes.claimNames(pod).contains(pvc.getMetadata().getName())
        ? QueueingHint.QUEUE
        : QueueingHint.SKIP;
  }

  static QueueingHint isSchedulableAfterPodDeleted(V1Pod pod, Object oldObj, Object newObj) {
    V1Pod deleted = EventObjects.required(V1Pod.class, oldObj);
    if (!Objects.equals(deleted.getMetadata().getNamespace(), pod.getMetadata().getNamespace())) {
      return QueueingHint.SKIP;
    }
    if (!satisfiesVolumeConflicts(pod, List.of(PodInfo.of(deleted)))) {
      return QueueingHint.QUEUE;
    }
    // kube does not fetch the claims to check their access modes here: any shared claim queues
    Set<String> claims = new HashSet<>(Volumes.claimNames(pod));
    for (String claim : Volumes.claimNames(deleted)) {
      if (claims.contains(claim)) {
        return QueueingHint.QUEUE;
      }
    }
    return QueueingHint.SKIP;
  }
}
