package io.kubesched.plugins.volumezone;

import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1StorageClass;
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
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.framework.StorageClient;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.EventObjects;
import io.kubesched.plugins.helper.Volumes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code VolumeZone} is a plugin that checks that the zone and region labels of the persistent
 * volumes bound to a pod's claims (GA {@code topology.kubernetes.io/*} and the legacy {@code
 * failure-domain.beta.kubernetes.io/*} labels, values joined by {@code __}) match the node's. Nodes
 * without any of these labels accept every volume; unbound WaitForFirstConsumer claims are left to
 * VolumeBinding.
 */
public final class VolumeZone
    implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.VOLUME_ZONE;

  /** The reason for a node outside the volumes' zones. */
  public static final String REASON_CONFLICT = "node(s) had no available volume zone";

  static final String BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";
  static final String BETA_REGION = "failure-domain.beta.kubernetes.io/region";
  static final String ZONE = "topology.kubernetes.io/zone";
  static final String REGION = "topology.kubernetes.io/region";

  /** The labels in kube's order. */
  static final List<String> TOPOLOGY_LABELS = List.of(BETA_ZONE, BETA_REGION, ZONE, REGION);

  static final StateKey<State> STATE_KEY = StateKey.of("PreFilter" + NAME, State.class);

  /** The topology of one label of a bound volume. */
  record PvTopology(String pvName, String key, Set<String> values) {}

  /** The topologies of the pod's bound volumes, computed in PreFilter. */
  record State(List<PvTopology> topologies) implements StateData {}

  /** What PreFilter found: the topologies, or the status to return. */
  private record Lookup(List<PvTopology> topologies, Status status) {}

  private final StorageClient storage;

  /** Creates the plugin reading the cluster's storage objects from {@code storage}. */
  public VolumeZone(StorageClient storage) {
    this.storage = storage;
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

  /** Finds the topologies of the pod's bound volumes; skips pods that have none. */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    if (!Volumes.hasVolumes(pod.pod())) {
      return PreFilterResult.skip();
    }
    Lookup l = lookup(pod.pod());
    if (l.status() != null) {
      return PreFilterResult.of(l.status());
    }
    if (l.topologies().isEmpty()) {
      return PreFilterResult.skip();
    }
    state.write(STATE_KEY, new State(l.topologies()));
    return PreFilterResult.success();
  }

  private Lookup lookup(V1Pod pod) {
    List<PvTopology> out = new ArrayList<>();
    for (String claimName : Volumes.claimNames(pod)) {
      if (claimName.isEmpty()) {
        return failed("PersistentVolumeClaim had no name");
      }
      String ns = pod.getMetadata().getNamespace();
      Optional<V1PersistentVolumeClaim> pvc = storage.getPersistentVolumeClaim(ns, claimName);
      if (pvc.isEmpty()) {
        return failed(Volumes.notFound(Volumes.PVCS, claimName));
      }
      String pvName = pvc.get().getSpec() == null ? null : pvc.get().getSpec().getVolumeName();
      if (pvName == null || pvName.isEmpty()) {
        String scName = Volumes.claimClass(pvc.get());
        if (scName.isEmpty()) {
          return failed("PersistentVolumeClaim had no pv name and storageClass name");
        }
        Optional<V1StorageClass> sc = storage.getStorageClass(scName);
        if (sc.isEmpty()) {
          return failed(Volumes.notFound(Volumes.STORAGE_CLASSES, scName));
        }
        String mode = sc.get().getVolumeBindingMode();
        if (mode == null) {
          return failed("VolumeBindingMode not set for StorageClass \"" + scName + "\"");
        }
        if (mode.equals("WaitForFirstConsumer")) {
          continue;
        }
        return failed("PersistentVolume had no name");
      }
      Optional<V1PersistentVolume> pv = storage.getPersistentVolume(pvName);
      if (pv.isEmpty()) {
        return failed(Volumes.notFound(Volumes.PVS, pvName));
      }
      out.addAll(topologies(pv.get()));
    }
    return new Lookup(out, null);
  }

  private static Lookup failed(String reason) {
    return new Lookup(null, Status.unresolvable(reason));
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (!Volumes.hasVolumes(pod.pod())) {
      return Status.success();
    }
    List<PvTopology> topologies;
    Optional<State> s = state.read(STATE_KEY);
    if (s.isPresent()) {
      topologies = s.get().topologies();
    } else {
      Lookup l = lookup(pod.pod());
      if (l.status() != null) {
        return l.status();
      }
      topologies = l.topologies();
    }
    Map<String, String> labels = node.labels();
    boolean constrained = false;
    for (String key : TOPOLOGY_LABELS) {
      if (labels.containsKey(key)) {
        constrained = true;
        break;
      }
    }
    if (!constrained) {
      return Status.success();
    }
    for (PvTopology t : topologies) {
      String v = labels.get(t.key());
      if (v == null) {
        v = labels.get(toGa(t.key()));
      }
      if (v == null || !t.values().contains(v)) {
        return Status.unresolvable(REASON_CONFLICT);
      }
    }
    return Status.success();
  }

  private static String toGa(String key) {
    if (key.equals(BETA_REGION)) {
      return REGION;
    }
    if (key.equals(BETA_ZONE)) {
      return ZONE;
    }
    return key;
  }

  /** Returns the topologies of the PV's zone and region labels; unparsable values are ignored. */
  static List<PvTopology> topologies(V1PersistentVolume pv) {
    List<PvTopology> out = new ArrayList<>();
    Map<String, String> labels =
        pv.getMetadata() == null || pv.getMetadata().getLabels() == null
            ? Map.of()
            : pv.getMetadata().getLabels();
    for (String key : TOPOLOGY_LABELS) {
      String value = labels.get(key);
      if (value == null) {
        continue;
      }
      Set<String> zones = labelZonesToSet(value);
      if (zones != null) {
        out.add(new PvTopology(pv.getMetadata().getName(), key, zones));
      }
    }
    return out;
  }

  /**
   * Splits a multi-zone label value on {@code __} (kube's {@code LabelZonesToSet}); returns {@code
   * null} when a zone is empty.
   */
  static Set<String> labelZonesToSet(String value) {
    Set<String> out = new TreeSet<>();
    for (String z : value.split("__", -1)) {
      String t = z.strip();
      if (t.isEmpty()) {
        return null;
      }
      out.add(t);
    }
    return out;
  }

  /**
   * Registers StorageClass additions (WaitForFirstConsumer ones), node additions and label changes,
   * claim additions and updates (the pod's own claims) and PV additions and topology changes, as
   * kube does with queueing hints enabled.
   */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.STORAGE_CLASS,
            ActionType.ADD,
            VolumeZone::isSchedulableAfterStorageClassAdded),
        ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL),
        ClusterEventWithHint.of(
            EventResource.PERSISTENT_VOLUME_CLAIM,
            ActionType.ADD | ActionType.UPDATE,
            VolumeZone::isSchedulableAfterClaimChange),
        ClusterEventWithHint.of(
            EventResource.PERSISTENT_VOLUME,
            ActionType.ADD | ActionType.UPDATE,
            VolumeZone::isSchedulableAfterVolumeChange));
  }

  static QueueingHint isSchedulableAfterClaimChange(V1Pod pod, Object oldObj, Object newObj) {
    V1PersistentVolumeClaim pvc = EventObjects.required(V1PersistentVolumeClaim.class, newObj);
    if (!pod.getMetadata().getNamespace().equals(pvc.getMetadata().getNamespace())) {
      return QueueingHint.SKIP;
    }
    return Volumes.claimNames(pod).contains(pvc.getMetadata().getName())
        ? QueueingHint.QUEUE
        : QueueingHint.SKIP;
  }

  static QueueingHint isSchedulableAfterStorageClassAdded(V1Pod pod, Object oldObj, Object newObj) {
    V1StorageClass sc = EventObjects.required(V1StorageClass.class, newObj);
    return "WaitForFirstConsumer".equals(sc.getVolumeBindingMode())
        ? QueueingHint.QUEUE
        : QueueingHint.SKIP;
  }

  static QueueingHint isSchedulableAfterVolumeChange(V1Pod pod, Object oldObj, Object newObj) {
    V1PersistentVolume original = EventObjects.as(V1PersistentVolume.class, oldObj);
    V1PersistentVolume modified = EventObjects.required(V1PersistentVolume.class, newObj);
    if (original == null) {
      return QueueingHint.QUEUE;
    }
    return topologies(original).equals(topologies(modified))
        ? QueueingHint.SKIP
        : QueueingHint.QUEUE;
  }
}
