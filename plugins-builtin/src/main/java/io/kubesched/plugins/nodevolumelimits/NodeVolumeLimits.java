package io.kubesched.plugins.nodevolumelimits;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSINodeDriver;
import io.kubernetes.client.openapi.models.V1CSIPersistentVolumeSource;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubernetes.client.openapi.models.V1Volume;
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
import io.kubesched.plugins.nodevolumelimits.CsiTranslation.CsiVolume;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code NodeVolumeLimits} is a plugin that checks that a node can attach the pod's CSI volumes:
 * per driver, the distinct volumes of the pods on the node plus the pod's new ones must not exceed
 * the CSINode's {@code allocatable.count} (or the node's {@code attachable-volumes-csi-<driver>}
 * allocatable). Volumes of migrated in-tree plugins count as their CSI drivers'; unbound claims
 * count by their StorageClass's provisioner.
 */
public final class NodeVolumeLimits
    implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.NODE_VOLUME_LIMITS;

  /** The reason for a node whose attach limit would be exceeded. */
  public static final String REASON_MAX_VOLUME_COUNT = "node(s) exceed max volume count";

  private static final String ATTACHABLE_PREFIX = "attachable-volumes-";

  /** The prefix of the handle given to unbound claims, which have no volume handle yet. */
  private static final String UNBOUND_PREFIX = "kubesched-unbound";

  private final StorageClient storage;

  /** Creates the plugin reading the cluster's storage objects from {@code storage}. */
  public NodeVolumeLimits(StorageClient storage) {
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

  /** Skips pods without claims, ephemeral volumes or migratable inline volumes. */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    V1Pod p = pod.pod();
    if (p.getSpec() != null && p.getSpec().getVolumes() != null) {
      for (V1Volume v : p.getSpec().getVolumes()) {
        if (v.getPersistentVolumeClaim() != null
            || v.getEphemeral() != null
            || CsiTranslation.inlinePlugin(v) != null) {
          state.write(KEY, new NewVolumes(newVolumes(p, new V1CSINode()), newVolumes(p, null)));
          return PreFilterResult.success();
        }
      }
    }
    return PreFilterResult.skip();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo nodeInfo) {
    V1Pod p = pod.pod();
    if (!Volumes.hasVolumes(p)) {
      return Status.success();
    }
    V1Node node = nodeInfo.node();
    V1CSINode csiNode = storage.getCSINode(nodeInfo.name()).orElse(null);
    Optional<NewVolumes> cached = state.read(KEY);
    NewVolume mine =
        cached.isPresent()
            ? (csiNode != null ? cached.get().withCsiNode() : cached.get().withoutCsiNode())
            : newVolumes(p, csiNode);
    if (mine.status() != null) {
      return mine.status();
    }
    if (mine.volumes().isEmpty()) {
      return Status.success();
    }
    NodeFacts facts = nodeFacts(nodeInfo, node, csiNode);
    Map<String, Long> limits = facts.limits();
    if (limits.isEmpty()) {
      return Status.success();
    }
    int bound = facts.attachedBound();
    if (bound >= 0 && fitsEvenIf(bound, mine.volumes(), limits)) {
      return Status.success();
    }
    Map<String, String> newVolumes = new HashMap<>(mine.volumes());
    Map<String, String> attached = new HashMap<>();
    for (PodInfo existing : nodeInfo.pods()) {
      try {
        attachableVolumes(existing.pod(), csiNode, false, attached);
      } catch (IllegalStateException e) {
        return Status.error(e.getMessage());
      }
    }
    Map<String, Integer> attachedCount = new HashMap<>();
    for (Map.Entry<String, String> e : attached.entrySet()) {
      newVolumes.remove(e.getKey());
      attachedCount.merge(e.getValue(), 1, Integer::sum);
    }
    Map<String, Integer> newCount = new HashMap<>();
    for (String key : newVolumes.values()) {
      newCount.merge(key, 1, Integer::sum);
    }
    for (Map.Entry<String, Integer> e : newCount.entrySet()) {
      Long max = limits.get(e.getKey());
      if (max != null && attachedCount.getOrDefault(e.getKey(), 0) + e.getValue() > max) {
        return Status.unschedulable(REASON_MAX_VOLUME_COUNT);
      }
    }
    return Status.success();
  }

  /**
   * What Filter needs of a node that depends only on the node's state and its CSINode: its volume
   * limits and {@link #attachedBound}. Kept per node name for the {@code NodeInfo} object and
   * generation it was computed from (a {@code NodeInfo} changes its generation on every
   * modification; a copy, as preemption's dry run makes, is another object) and the CSINode object,
   * so that a node nothing changed on is not walked again for every pod. The {@code NodeInfo} is
   * held weakly.
   */
  private record NodeFacts(
      WeakReference<NodeInfo> info,
      long generation,
      V1Node node,
      V1CSINode csiNode,
      Map<String, Long> limits,
      int attachedBound) {}

  private final ConcurrentHashMap<String, NodeFacts> factsByNode = new ConcurrentHashMap<>();

  private NodeFacts nodeFacts(NodeInfo nodeInfo, V1Node node, V1CSINode csiNode) {
    NodeFacts f = factsByNode.get(nodeInfo.name());
    if (f != null
        && f.info().get() == nodeInfo
        && f.generation() == nodeInfo.generation()
        && f.node() == node
        && f.csiNode() == csiNode) {
      return f;
    }
    f =
        new NodeFacts(
            new WeakReference<>(nodeInfo),
            nodeInfo.generation(),
            node,
            csiNode,
            volumeLimits(node, csiNode),
            attachedBound(nodeInfo));
    factsByNode.put(nodeInfo.name(), f);
    return f;
  }

  /**
   * Returns an upper bound of the volumes the node's pods attach, without looking any claim up:
   * each volume of a pod attaches at most one. Returns -1 when a pod has a volume whose exact count
   * can fail (an ephemeral volume, whose claim must be owned by the pod, or a claim without a
   * name): then only the exact count gives kube's answer.
   */
  private static int attachedBound(NodeInfo nodeInfo) {
    int bound = 0;
    for (PodInfo existing : nodeInfo.pods()) {
      V1Pod p = existing.pod();
      if (p.getSpec() == null || p.getSpec().getVolumes() == null) {
        continue;
      }
      for (V1Volume v : p.getSpec().getVolumes()) {
        if (v.getEphemeral() != null) {
          return -1;
        }
        if (v.getPersistentVolumeClaim() != null) {
          String claim = v.getPersistentVolumeClaim().getClaimName();
          if (claim == null || claim.isEmpty()) {
            return -1;
          }
        }
        bound++;
      }
    }
    return bound;
  }

  /**
   * Returns whether the new volumes fit every limit even if {@code bound} volumes of each driver
   * were attached already: then the exact count (at most {@code bound} per driver, and new volumes
   * already attached not counted twice) fits too.
   */
  private static boolean fitsEvenIf(
      int bound, Map<String, String> newVolumes, Map<String, Long> limits) {
    Map<String, Integer> newCount = new HashMap<>();
    for (String key : newVolumes.values()) {
      newCount.merge(key, 1, Integer::sum);
    }
    for (Map.Entry<String, Integer> e : newCount.entrySet()) {
      Long max = limits.get(e.getKey());
      if (max != null && (long) bound + e.getValue() > max) {
        return false;
      }
    }
    return true;
  }

  /**
   * The pod's attachable volumes (unique name to limit key), or the status that looking them up
   * gave.
   */
  private record NewVolume(Map<String, String> volumes, Status status) {}

  /**
   * The pod's {@link NewVolume} on a node with a CSINode and on one without: the only thing about
   * the node the lookup depends on (migration of in-tree plugins), so PreFilter looks the pod's
   * claims and volumes up once instead of once per node.
   */
  private record NewVolumes(NewVolume withCsiNode, NewVolume withoutCsiNode) implements StateData {}

  private static final StateKey<NewVolumes> KEY = StateKey.of(NAME, NewVolumes.class);

  /** Looks the new pod's attachable volumes up for a node with ({@code csiNode} set) or without. */
  private NewVolume newVolumes(V1Pod p, V1CSINode csiNode) {
    Map<String, String> volumes = new HashMap<>();
    try {
      attachableVolumes(p, csiNode, true, volumes);
    } catch (ClaimNotFound e) {
      return new NewVolume(Map.of(), Status.unresolvable(e.getMessage()));
    } catch (IllegalStateException e) {
      return new NewVolume(Map.of(), Status.error(e.getMessage()));
    }
    return new NewVolume(Map.copyOf(volumes), null);
  }

  /** A claim a new pod needs does not exist. */
  private static final class ClaimNotFound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ClaimNotFound(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Adds the pod's attachable CSI volumes to {@code result} (unique name to limit key).
   *
   * @throws ClaimNotFound when a new pod's claim does not exist
   * @throws IllegalStateException for the errors kube returns as {@code Error}
   */
  private void attachableVolumes(
      V1Pod pod, V1CSINode csiNode, boolean newPod, Map<String, String> result) {
    if (pod.getSpec() == null || pod.getSpec().getVolumes() == null) {
      return;
    }
    String ns = pod.getMetadata().getNamespace();
    for (V1Volume vol : pod.getSpec().getVolumes()) {
      String claimName;
      boolean ephemeral = false;
      if (vol.getPersistentVolumeClaim() != null) {
        claimName = vol.getPersistentVolumeClaim().getClaimName();
      } else if (vol.getEphemeral() != null) {
        claimName = pod.getMetadata().getName() + "-" + vol.getName();
        ephemeral = true;
      } else {
        inlineVolume(vol, csiNode, result);
        continue;
      }
      if (claimName == null || claimName.isEmpty()) {
        throw new IllegalStateException("PersistentVolumeClaim had no name");
      }
      Optional<V1PersistentVolumeClaim> pvc = storage.getPersistentVolumeClaim(ns, claimName);
      if (pvc.isEmpty()) {
        if (newPod) {
          throw new ClaimNotFound(
              "looking up PVC "
                  + ns
                  + "/"
                  + claimName
                  + ": "
                  + Volumes.notFound(Volumes.PVCS, claimName));
        }
        continue;
      }
      if (ephemeral && !ownedBy(pvc.get(), pod)) {
        throw new IllegalStateException(
            "PVC "
                + ns
                + "/"
                + claimName
                + " was not created for pod "
                + ns
                + "/"
                + pod.getMetadata().getName()
                + " (pod is not owner)");
      }
      CsiVolume csi = driverInfo(csiNode, pvc.get());
      if (csi == null
          || csi.driver() == null
          || csi.driver().isEmpty()
          || csi.handle() == null
          || csi.handle().isEmpty()) {
        continue;
      }
      result.put(csi.driver() + "/" + csi.handle(), CsiTranslation.attachLimitKey(csi.driver()));
    }
  }

  private static boolean ownedBy(V1PersistentVolumeClaim pvc, V1Pod pod) {
    List<V1OwnerReference> refs = pvc.getMetadata().getOwnerReferences();
    if (refs != null) {
      for (V1OwnerReference r : refs) {
        if (Boolean.TRUE.equals(r.getController())) {
          return Objects.equals(r.getUid(), pod.getMetadata().getUid());
        }
      }
    }
    return false;
  }

  private static void inlineVolume(V1Volume vol, V1CSINode csiNode, Map<String, String> result) {
    String plugin = CsiTranslation.inlinePlugin(vol);
    if (plugin == null || !CsiTranslation.migrationOn(csiNode != null, plugin)) {
      return;
    }
    CsiVolume csi = CsiTranslation.translateInline(vol);
    if (csi == null) {
      return;
    }
    result.put(csi.driver() + "/" + csi.handle(), CsiTranslation.attachLimitKey(csi.driver()));
  }

  /** The CSI driver and volume handle of a claim (kube's getCSIDriverInfo). */
  private CsiVolume driverInfo(V1CSINode csiNode, V1PersistentVolumeClaim pvc) {
    String pvName = pvc.getSpec() == null ? null : pvc.getSpec().getVolumeName();
    if (pvName == null || pvName.isEmpty()) {
      return driverInfoFromClass(csiNode, pvc);
    }
    Optional<V1PersistentVolume> pv = storage.getPersistentVolume(pvName);
    if (pv.isEmpty()) {
      return driverInfoFromClass(csiNode, pvc);
    }
    V1CSIPersistentVolumeSource csi =
        pv.get().getSpec() == null ? null : pv.get().getSpec().getCsi();
    if (csi != null) {
      return new CsiVolume(csi.getDriver(), csi.getVolumeHandle());
    }
    String plugin = pv.get().getSpec() == null ? null : CsiTranslation.pvPlugin(pv.get().getSpec());
    if (plugin == null || !CsiTranslation.migrationOn(csiNode != null, plugin)) {
      return null;
    }
    return CsiTranslation.translatePv(pv.get());
  }

  private CsiVolume driverInfoFromClass(V1CSINode csiNode, V1PersistentVolumeClaim pvc) {
    String scName = Volumes.claimClass(pvc);
    if (scName.isEmpty()) {
      return null;
    }
    Optional<V1StorageClass> sc = storage.getStorageClass(scName);
    if (sc.isEmpty()) {
      return null;
    }
    String handle =
        UNBOUND_PREFIX + "-" + pvc.getMetadata().getNamespace() + "/" + pvc.getMetadata().getName();
    String provisioner = sc.get().getProvisioner();
    if (CsiTranslation.isMigratablePlugin(provisioner)) {
      if (!CsiTranslation.migrationOn(csiNode != null, provisioner)) {
        return null;
      }
      return new CsiVolume(CsiTranslation.CSI_DRIVERS.get(provisioner), handle);
    }
    return new CsiVolume(provisioner, handle);
  }

  /** The node's attach limits: {@code attachable-volumes-*} allocatable, then CSINode counts. */
  private static Map<String, Long> volumeLimits(V1Node node, V1CSINode csiNode) {
    Map<String, Long> limits = new HashMap<>();
    if (node != null && node.getStatus() != null && node.getStatus().getAllocatable() != null) {
      for (Map.Entry<String, Quantity> e : node.getStatus().getAllocatable().entrySet()) {
        if (e.getKey().startsWith(ATTACHABLE_PREFIX)) {
          limits.put(e.getKey(), e.getValue().getNumber().longValue());
        }
      }
    }
    if (csiNode != null && csiNode.getSpec() != null && csiNode.getSpec().getDrivers() != null) {
      for (V1CSINodeDriver d : csiNode.getSpec().getDrivers()) {
        if (d.getAllocatable() != null && d.getAllocatable().getCount() != null) {
          limits.put(
              CsiTranslation.attachLimitKey(d.getName()), (long) d.getAllocatable().getCount());
        }
      }
    }
    return limits;
  }

  /**
   * Registers CSINode additions, pod deletions (attached volumes freed) and claim additions, as
   * kube v1.33 does.
   */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(EventResource.CSI_NODE, ActionType.ADD),
        ClusterEventWithHint.of(
            EventResource.POD, ActionType.DELETE, NodeVolumeLimits::isSchedulableAfterPodDeleted),
        ClusterEventWithHint.of(
            EventResource.PERSISTENT_VOLUME_CLAIM,
            ActionType.ADD,
            NodeVolumeLimits::isSchedulableAfterClaimAdded));
  }

  static QueueingHint isSchedulableAfterPodDeleted(V1Pod pod, Object oldObj, Object newObj) {
    V1Pod deleted = EventObjects.required(V1Pod.class, oldObj);
    if (!Volumes.hasVolumes(deleted)) {
      return QueueingHint.SKIP;
    }
    String nodeName = deleted.getSpec().getNodeName();
    if (nodeName == null || nodeName.isEmpty()) {
      return QueueingHint.SKIP;
    }
    for (V1Volume v : deleted.getSpec().getVolumes()) {
      if (v.getPersistentVolumeClaim() != null
          || v.getEphemeral() != null
          || CsiTranslation.inlinePlugin(v) != null) {
        return QueueingHint.QUEUE;
      }
    }
    return QueueingHint.SKIP;
  }

  static QueueingHint isSchedulableAfterClaimAdded(V1Pod pod, Object oldObj, Object newObj) {
    V1PersistentVolumeClaim pvc = EventObjects.required(V1PersistentVolumeClaim.class, newObj);
    if (!Objects.equals(pvc.getMetadata().getNamespace(), pod.getMetadata().getNamespace())) {
      return QueueingHint.SKIP;
    }
    if (pod.getSpec() == null || pod.getSpec().getVolumes() == null) {
      return QueueingHint.SKIP;
    }
    for (V1Volume v : pod.getSpec().getVolumes()) {
      String claim;
      if (v.getPersistentVolumeClaim() != null) {
        claim = v.getPersistentVolumeClaim().getClaimName();
      } else if (v.getEphemeral() != null) {
        claim = pod.getMetadata().getName() + "-" + v.getName();
      } else {
        continue;
      }
      if (Objects.equals(claim, pvc.getMetadata().getName())) {
        return QueueingHint.QUEUE;
      }
    }
    return QueueingHint.SKIP;
  }
}
