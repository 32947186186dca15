package io.kubesched.plugins.volumebinding;

import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
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
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreBindPlugin;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.framework.StorageClient;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.EventObjects;
import io.kubesched.plugins.helper.Volumes;
import io.kubesched.plugins.noderesources.UtilizationShapePoint;
import io.kubesched.plugins.volumebinding.VolumeBindingState.Binding;
import io.kubesched.plugins.volumebinding.VolumeBindingState.PodVolumes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code VolumeBinding} is kube-scheduler's volume binder as a plugin. PreFilter sorts the pod's
 * claims (missing, lost or terminating claims and unbound Immediate claims make the pod
 * unschedulable); Filter checks bound claims against their PV's node affinity and finds, for
 * WaitForFirstConsumer claims, the smallest fitting static PV or checks dynamic provisioning
 * (provisioner, {@code allowedTopologies}, CSIStorageCapacity when the CSIDriver asks for it);
 * Reserve assumes the bindings, Unreserve forgets them, PreBind writes them (PV {@code claimRef},
 * claim {@code volume.kubernetes.io/selected-node}) and waits until the claims are bound. With
 * StorageCapacityScoring on, Score prefers nodes by the utilisation of the static PVs chosen.
 */
public final class VolumeBinding
    implements PreFilterPlugin,
        FilterPlugin,
        ReservePlugin,
        PreBindPlugin,
        PreScorePlugin,
        ScorePlugin,
        EnqueueExtensions,
        SignPlugin {
  private static final Logger log = LoggerFactory.getLogger(VolumeBinding.class);

  /** The plugin's name. */
  public static final String NAME = PluginNames.VOLUME_BINDING;

  /** A node where a bound claim's PV cannot be reached. */
  public static final String REASON_NODE_CONFLICT = "node(s) had volume node affinity conflict";

  /** A node where an unbound claim finds no PV and cannot be provisioned. */
  public static final String REASON_BIND_CONFLICT =
      "node(s) didn't find available persistent volumes to bind";

  /** A node without enough storage capacity for provisioning. */
  public static final String REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage";

  /** A claim bound to a PV that does not exist. */
  public static final String REASON_PV_NOT_EXIST =
      "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

  /** Unbound claims of Immediate classes. */
  public static final String REASON_UNBOUND_IMMEDIATE =
      "pod has unbound immediate PersistentVolumeClaims";

  static final StateKey<VolumeBindingState> STATE_KEY = StateKey.of(NAME, VolumeBindingState.class);

  private final StorageClient storage;
  private final VolumeBindingArgs args;
  private final boolean capacityScoring;
  private final AssumeCache<V1PersistentVolume> pvCache = new AssumeCache<>();
  private final AssumeCache<V1PersistentVolumeClaim> pvcCache = new AssumeCache<>();

  /**
   * Creates the plugin.
   *
   * @param storage the cluster's storage objects and the PreBind writes
   * @param args the plugin's arguments
   * @param capacityScoring whether StorageCapacityScoring is on
   */
  public VolumeBinding(StorageClient storage, VolumeBindingArgs args, boolean capacityScoring) {
    this.storage = storage;
    this.args = args;
    this.capacityScoring = capacityScoring;
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
   * Registers what kube v1.33 does: StorageClass and claim additions and updates, PV additions and
   * updates, node additions and label changes, CSINode additions and updates, CSIDriver updates and
   * CSIStorageCapacity additions and updates. Claim changes queue only the pods that use the claim;
   * the other events always queue.
   */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(EventResource.STORAGE_CLASS, ActionType.ADD | ActionType.UPDATE),
        ClusterEventWithHint.of(
            EventResource.PERSISTENT_VOLUME_CLAIM,
            ActionType.ADD | ActionType.UPDATE,
            VolumeBinding::isSchedulableAfterClaimChange),
        ClusterEventWithHint.of(
            EventResource.PERSISTENT_VOLUME, ActionType.ADD | ActionType.UPDATE),
        ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL),
        ClusterEventWithHint.of(EventResource.CSI_NODE, ActionType.ADD | ActionType.UPDATE),
        ClusterEventWithHint.of(EventResource.CSI_DRIVER, ActionType.UPDATE),
        ClusterEventWithHint.of(
            EventResource.CSI_STORAGE_CAPACITY, ActionType.ADD | ActionType.UPDATE));
  }

  static QueueingHint isSchedulableAfterClaimChange(V1Pod pod, Object oldObj, Object newObj) {
    V1PersistentVolumeClaim pvc = EventObjects.required(V1PersistentVolumeClaim.class, newObj);
    if (!java.util.Objects.equals(
        pvc.getMetadata().getNamespace(), pod.getMetadata().getNamespace())) {
      return QueueingHint.SKIP;
    }
    return claimNames(pod).contains(pvc.getMetadata().getName())
        ? QueueingHint.QUEUE
        : QueueingHint.SKIP;
  }

  // ---------------------------------------------------------------- cached reads

  V1PersistentVolume pv(String name) {
    return pvCache.view(name, storage.getPersistentVolume(name).orElse(null));
  }

  V1PersistentVolumeClaim pvc(String namespace, String name) {
    String key = namespace + "/" + name;
    return pvcCache.view(key, storage.getPersistentVolumeClaim(namespace, name).orElse(null));
  }

  private List<V1PersistentVolume> pvsOfClass(String className) {
    List<V1PersistentVolume> out = new ArrayList<>();
    for (V1PersistentVolume p : storage.listPersistentVolumes()) {
      V1PersistentVolume v = pvCache.view(p.getMetadata().getName(), p);
      if (PersistentVolumes.volumeClass(v).equals(className)) {
        out.add(v);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- PreFilter

  /** Sorts the pod's claims into bound and WaitForFirstConsumer ones; skips pods without any. */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    V1Pod p = pod.pod();
    boolean volumes = Volumes.hasVolumes(p);
    String problem = volumes ? claimProblem(p) : null;
    if (problem == null && (!volumes || claimNames(p).isEmpty())) {
      state.write(STATE_KEY, VolumeBindingState.empty());
      return PreFilterResult.skip();
    }
    if (problem != null) {
      return PreFilterResult.of(Status.unresolvable(problem));
    }
    List<V1PersistentVolumeClaim> bound = new ArrayList<>();
    List<V1PersistentVolumeClaim> delayed = new ArrayList<>();
    boolean immediate = false;
    for (String name : claimNames(p)) {
      V1PersistentVolumeClaim c = pvc(pod.namespace(), name);
      if (c == null) {
        return PreFilterResult.of(
            Status.error("error getting PVC \"" + pod.namespace() + "/" + name + "\": not found"));
      }
      if (fullyBound(c)) {
        bound.add(c);
        continue;
      }
      boolean delay = delayBinding(c);
      String volumeName = c.getSpec() == null ? null : c.getSpec().getVolumeName();
      if (delay && (volumeName == null || volumeName.isEmpty())) {
        delayed.add(c);
      } else {
        immediate = true;
      }
    }
    if (immediate) {
      return PreFilterResult.of(Status.unresolvable(REASON_UNBOUND_IMMEDIATE));
    }
    Map<String, List<V1PersistentVolume>> byClass = new HashMap<>();
    for (V1PersistentVolumeClaim c : delayed) {
      byClass.computeIfAbsent(Volumes.claimClass(c), this::pvsOfClass);
    }
    state.write(STATE_KEY, new VolumeBindingState(bound, delayed, byClass));
    return PreFilterResult.success();
  }

  /** The names of the pod's claims, ephemeral ones included ({@code <pod>-<volume>}). */
  static List<String> claimNames(V1Pod pod) {
    List<String> out = new ArrayList<>();
    if (pod.getSpec() == null || pod.getSpec().getVolumes() == null) {
      return out;
    }
    for (V1Volume v : pod.getSpec().getVolumes()) {
      if (v.getPersistentVolumeClaim() != null) {
        out.add(v.getPersistentVolumeClaim().getClaimName());
      } else if (v.getEphemeral() != null) {
        out.add(pod.getMetadata().getName() + "-" + v.getName());
      }
    }
    return out;
  }

  /** kube's {@code podHasPVCs} checks: the reason the pod cannot use its claims, or null. */
  private String claimProblem(V1Pod pod) {
    if (pod.getSpec() == null || pod.getSpec().getVolumes() == null) {
      return null;
    }
    String ns = pod.getMetadata().getNamespace();
    for (V1Volume v : pod.getSpec().getVolumes()) {
      boolean ephemeral = v.getEphemeral() != null;
      String name;
      if (v.getPersistentVolumeClaim() != null) {
        name = v.getPersistentVolumeClaim().getClaimName();
      } else if (ephemeral) {
        name = pod.getMetadata().getName() + "-" + v.getName();
      } else {
        continue;
      }
      Optional<V1PersistentVolumeClaim> c = storage.getPersistentVolumeClaim(ns, name);
      if (c.isEmpty()) {
        return ephemeral
            ? "waiting for ephemeral volume controller to create the persistentvolumeclaim \""
                + name
                + "\""
            : Volumes.notFound(Volumes.PVCS, name);
      }
      V1PersistentVolumeClaim pvc = c.get();
      if (pvc.getStatus() != null && "Lost".equals(pvc.getStatus().getPhase())) {
        return "persistentvolumeclaim \""
            + name
            + "\" bound to non-existent persistentvolume \""
            + (pvc.getSpec() == null ? "" : pvc.getSpec().getVolumeName())
            + "\"";
      }
      if (pvc.getMetadata().getDeletionTimestamp() != null) {
        return "persistentvolumeclaim \"" + name + "\" is being deleted";
      }
      if (ephemeral && !ownedBy(pvc, pod)) {
        return "PVC "
            + ns
            + "/"
            + name
            + " was not created for pod "
            + ns
            + "/"
            + pod.getMetadata().getName()
            + " (pod is not owner)";
      }
    }
    return null;
  }

  private static boolean ownedBy(V1PersistentVolumeClaim pvc, V1Pod pod) {
    if (pvc.getMetadata().getOwnerReferences() != null) {
      for (var r : pvc.getMetadata().getOwnerReferences()) {
        if (Boolean.TRUE.equals(r.getController())) {
          return r.getUid() != null && r.getUid().equals(pod.getMetadata().getUid());
        }
      }
    }
    return false;
  }

  static boolean fullyBound(V1PersistentVolumeClaim c) {
    String vn = c.getSpec() == null ? null : c.getSpec().getVolumeName();
    Map<String, String> ann = c.getMetadata().getAnnotations();
    return vn != null
        && !vn.isEmpty()
        && ann != null
        && ann.containsKey(PersistentVolumes.ANN_BIND_COMPLETED);
  }

  /** Whether the claim's class binds on first consumer; false for no class or a missing one. */
  private boolean delayBinding(V1PersistentVolumeClaim c) {
    String className = Volumes.claimClass(c);
    if (className.isEmpty()) {
      return false;
    }
    Optional<V1StorageClass> sc = storage.getStorageClass(className);
    if (sc.isEmpty()) {
      // kube's IsDelayBindingMode: a class that does not exist means immediate binding, so the
      // claim is reported as an unbound immediate claim rather than as an error.
      return false;
    }
    return "WaitForFirstConsumer".equals(sc.get().getVolumeBindingMode());
  }

  // ---------------------------------------------------------------- Filter

  @Override
  public Status filter(CycleState cycle, PodInfo pod, NodeInfo nodeInfo) {
    Optional<VolumeBindingState> s = cycle.read(STATE_KEY);
    if (s.isEmpty()) {
      return Status.error("cannot read \"" + NAME + "\" from cycleState");
    }
    VolumeBindingState state = s.get();
    V1Node node = nodeInfo.node();
    String nodeName = nodeInfo.name();
    Map<String, String> labels = nodeInfo.labels();
    boolean boundSatisfied = true;
    boolean boundPvsFound = true;
    boolean unboundSatisfied = true;
    boolean sufficientStorage = true;
    List<Binding> staticBindings = new ArrayList<>();
    List<V1PersistentVolumeClaim> provisions = new ArrayList<>();
    for (V1PersistentVolumeClaim c : state.boundClaims()) {
      V1PersistentVolume pv = pv(c.getSpec().getVolumeName());
      if (pv == null) {
        boundPvsFound = false;
        break;
      }
      if (!PersistentVolumes.nodeAffinityFits(pv, nodeName, labels)) {
        boundSatisfied = false;
        break;
      }
    }
    if (!state.delayedClaims().isEmpty()) {
      List<V1PersistentVolumeClaim> toMatch = new ArrayList<>();
      List<V1PersistentVolumeClaim> toProvision = new ArrayList<>();
      for (V1PersistentVolumeClaim c : state.delayedClaims()) {
        Map<String, String> ann = c.getMetadata().getAnnotations();
        String selected = ann == null ? null : ann.get(PersistentVolumes.ANN_SELECTED_NODE);
        if (selected != null) {
          if (!selected.equals(nodeName)) {
            unboundSatisfied = false;
            break;
          }
          toProvision.add(c);
        } else {
          toMatch.add(c);
        }
      }
      if (unboundSatisfied) {
        toMatch.sort(Comparator.comparing(PersistentVolumes::requested));
        Set<String> chosen = new HashSet<>();
        for (V1PersistentVolumeClaim c : toMatch) {
          List<V1PersistentVolume> pvs =
              state.volumesByClass().getOrDefault(Volumes.claimClass(c), List.of());
          V1PersistentVolume pv =
              PersistentVolumes.findMatchingVolume(c, pvs, nodeName, labels, chosen, true);
          if (pv == null) {
            toProvision.add(c);
            unboundSatisfied = false;
            continue;
          }
          chosen.add(pv.getMetadata().getName());
          staticBindings.add(new Binding(pv, c));
        }
        if (!toProvision.isEmpty()) {
          ProvisionCheck check = checkProvisions(toProvision, node, labels);
          if (check.error() != null) {
            return Status.error(check.error());
          }
          unboundSatisfied = check.satisfied();
          sufficientStorage = check.sufficientStorage();
          provisions = check.provisions();
        }
      }
    }
    List<String> reasons = new ArrayList<>();
    if (!boundSatisfied) {
      reasons.add(REASON_NODE_CONFLICT);
    }
    if (!unboundSatisfied) {
      reasons.add(REASON_BIND_CONFLICT);
    }
    if (!sufficientStorage) {
      reasons.add(REASON_NOT_ENOUGH_SPACE);
    }
    if (!boundPvsFound) {
      reasons.add(REASON_PV_NOT_EXIST);
    }
    if (!reasons.isEmpty()) {
      return Status.unresolvable(reasons.toArray(String[]::new));
    }
    state.podVolumesByNode().put(nodeName, new PodVolumes(staticBindings, provisions));
    return Status.success();
  }

  private record ProvisionCheck(
      boolean satisfied,
      boolean sufficientStorage,
      List<V1PersistentVolumeClaim> provisions,
      String error) {}

  private ProvisionCheck checkProvisions(
      List<V1PersistentVolumeClaim> claims, V1Node node, Map<String, String> labels) {
    List<V1PersistentVolumeClaim> out = new ArrayList<>();
    for (V1PersistentVolumeClaim c : claims) {
      String className = Volumes.claimClass(c);
      String key = c.getMetadata().getNamespace() + "/" + c.getMetadata().getName();
      if (className.isEmpty()) {
        return new ProvisionCheck(false, false, null, "no class for claim \"" + key + "\"");
      }
      Optional<V1StorageClass> sc = storage.getStorageClass(className);
      if (sc.isEmpty()) {
        return new ProvisionCheck(
            false, false, null, "failed to find storage class \"" + className + "\"");
      }
      String provisioner = sc.get().getProvisioner();
      if (provisioner == null
          || provisioner.isEmpty()
          || provisioner.equals(PersistentVolumes.NO_PROVISIONER)) {
        return new ProvisionCheck(false, true, null, null);
      }
      if (!PersistentVolumes.topologyAllows(sc.get().getAllowedTopologies(), labels)) {
        return new ProvisionCheck(false, true, null, null);
      }
      if (!hasEnoughCapacity(provisioner, c, sc.get(), labels)) {
        return new ProvisionCheck(true, false, null, null);
      }
      out.add(c);
    }
    return new ProvisionCheck(true, true, out, null);
  }

  private boolean hasEnoughCapacity(
      String provisioner,
      V1PersistentVolumeClaim claim,
      V1StorageClass sc,
      Map<String, String> nodeLabels) {
    if (claim.getSpec() == null
        || claim.getSpec().getResources() == null
        || claim.getSpec().getResources().getRequests() == null
        || !claim.getSpec().getResources().getRequests().containsKey("storage")) {
      return true;
    }
    Optional<V1CSIDriver> driver = storage.getCSIDriver(provisioner);
    if (driver.isEmpty()
        || driver.get().getSpec() == null
        || !Boolean.TRUE.equals(driver.get().getSpec().getStorageCapacity())) {
      return true;
    }
    BigDecimal size = PersistentVolumes.requested(claim);
    for (V1CSIStorageCapacity cap : storage.listCSIStorageCapacities()) {
      if (!sc.getMetadata().getName().equals(cap.getStorageClassName())) {
        continue;
      }
      var limit =
          cap.getMaximumVolumeSize() != null ? cap.getMaximumVolumeSize() : cap.getCapacity();
      if (limit == null || limit.getNumber().compareTo(size) < 0) {
        continue;
      }
      if (cap.getNodeTopology() == null) {
        continue;
      }
      if (LabelSelector.compile(cap.getNodeTopology()).matches(nodeLabels)) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- Score

  /** Skips scoring unless StorageCapacityScoring is on and the pod has static bindings. */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    if (!capacityScoring) {
      return Status.skip();
    }
    Optional<VolumeBindingState> s = state.read(STATE_KEY);
    if (s.isEmpty()) {
      return Status.error("cannot read \"" + NAME + "\" from cycleState");
    }
    for (PodVolumes v : s.get().podVolumesByNode().values()) {
      if (!v.staticBindings().isEmpty()) {
        return Status.success();
      }
    }
    return Status.skip();
  }

  /** Scores a node by the utilisation of the static PVs chosen there, per class, on the shape. */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    if (!capacityScoring) {
      return 0;
    }
    PodVolumes v =
        state.read(STATE_KEY).map(s -> s.podVolumesByNode().get(node.name())).orElse(null);
    if (v == null || v.staticBindings().isEmpty()) {
      return 0;
    }
    Map<String, BigDecimal[]> byClass = new LinkedHashMap<>();
    for (Binding b : v.staticBindings()) {
      BigDecimal[] rc =
          byClass.computeIfAbsent(
              PersistentVolumes.volumeClass(b.pv()),
              k -> new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO});
      rc[0] = rc[0].add(PersistentVolumes.requested(b.pvc()));
      rc[1] = rc[1].add(PersistentVolumes.capacity(b.pv()));
    }
    List<UtilizationShapePoint> shape =
        args.shape().isEmpty() ? VolumeBindingArgs.DEFAULT_SHAPE : args.shape();
    long sum = 0;
    for (BigDecimal[] rc : byClass.values()) {
      long utilization;
      if (rc[1].signum() == 0 || rc[0].compareTo(rc[1]) > 0) {
        utilization = 100;
      } else {
        utilization =
            rc[0].multiply(BigDecimal.valueOf(100)).divideToIntegralValue(rc[1]).longValue();
      }
      sum += brokenLinear(shape, utilization);
    }
    return Math.round((double) sum / byClass.size());
  }

  /** kube's BuildBrokenLinearFunction with scores scaled from 0..10 to 0..100. */
  static long brokenLinear(List<UtilizationShapePoint> shape, long p) {
    for (int i = 0; i < shape.size(); i++) {
      if (p <= shape.get(i).utilization()) {
        long y = shape.get(i).score() * 10L;
        if (i == 0) {
          return y;
        }
        long x0 = shape.get(i - 1).utilization();
        long y0 = shape.get(i - 1).score() * 10L;
        long x1 = shape.get(i).utilization();
        return y0 + (y - y0) * (p - x0) / (x1 - x0);
      }
    }
    return shape.get(shape.size() - 1).score() * 10L;
  }

  // ---------------------------------------------------------------- Reserve, PreBind

  /** Assumes the node's bindings: PVs claimed, claims to provision marked with the node. */
  @Override
  public Status reserve(CycleState cycle, PodInfo pod, String nodeName) {
    Optional<VolumeBindingState> s = cycle.read(STATE_KEY);
    if (s.isEmpty()) {
      return Status.error("cannot read \"" + NAME + "\" from cycleState");
    }
    VolumeBindingState state = s.get();
    PodVolumes v = state.podVolumesByNode().get(nodeName);
    if (v == null) {
      state.setAllBound(true);
      return Status.success();
    }
    List<Binding> assumedBindings = new ArrayList<>();
    for (Binding b : v.staticBindings()) {
      V1PersistentVolume current = pv(b.pv().getMetadata().getName());
      if (current != null && PersistentVolumes.isBoundToClaim(current, b.pvc())) {
        continue;
      }
      V1PersistentVolume changed = bindToClaim(current == null ? b.pv() : current, b.pvc());
      pvCache.assume(b.pv().getMetadata().getName(), current == null ? b.pv() : current, changed);
      assumedBindings.add(new Binding(changed, b.pvc()));
    }
    List<V1PersistentVolumeClaim> assumedProvisions = new ArrayList<>();
    for (V1PersistentVolumeClaim c : v.provisions()) {
      V1PersistentVolumeClaim changed = withSelectedNode(c, nodeName);
      pvcCache.assume(c.getMetadata().getNamespace() + "/" + c.getMetadata().getName(), c, changed);
      assumedProvisions.add(changed);
    }
    state.podVolumesByNode().put(nodeName, new PodVolumes(assumedBindings, assumedProvisions));
    state.setAllBound(assumedBindings.isEmpty() && assumedProvisions.isEmpty());
    return Status.success();
  }

  /** Forgets the assumed bindings of the node. */
  @Override
  public void unreserve(CycleState cycle, PodInfo pod, String nodeName) {
    cycle
        .read(STATE_KEY)
        .map(s -> s.podVolumesByNode().get(nodeName))
        .ifPresent(
            v -> {
              v.staticBindings().forEach(b -> pvCache.restore(b.pv().getMetadata().getName()));
              v.provisions()
                  .forEach(
                      c ->
                          pvcCache.restore(
                              c.getMetadata().getNamespace() + "/" + c.getMetadata().getName()));
            });
  }

  /** Writes the assumed bindings and waits up to {@code bindTimeoutSeconds} for them. */
  @Override
  public Status preBind(CycleState cycle, PodInfo pod, String nodeName) {
    Optional<VolumeBindingState> s = cycle.read(STATE_KEY);
    if (s.isEmpty()) {
      return Status.error("cannot read \"" + NAME + "\" from cycleState");
    }
    if (s.get().allBound()) {
      return Status.success();
    }
    PodVolumes v = s.get().podVolumesByNode().get(nodeName);
    if (v == null) {
      return Status.error("no pod volumes found for node \"" + nodeName + "\"");
    }
    try {
      for (Binding b : v.staticBindings()) {
        log.atDebug()
            .setMessage("binding volume")
            .addKeyValue("pod", pod.key())
            .addKeyValue("node", nodeName)
            .addKeyValue("plugin", NAME)
            .addKeyValue("pv", b.pv().getMetadata().getName())
            .log();
        storage.updatePersistentVolume(b.pv());
      }
      for (V1PersistentVolumeClaim c : v.provisions()) {
        storage.updatePersistentVolumeClaim(c);
      }
      return waitForBindings(pod, v);
    } catch (SchedulingException e) {
      return Status.error("binding volumes: " + e.getMessage());
    }
  }

  private Status waitForBindings(PodInfo pod, PodVolumes v) {
    long waits = args.bindTimeoutSeconds();
    for (long i = 0; ; i++) {
      String pending = pendingBinding(pod, v);
      if (pending == null) {
        return Status.success();
      }
      if (i >= waits) {
        return Status.error("binding volumes: timed out waiting for the condition: " + pending);
      }
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.error("binding volumes: interrupted");
      }
    }
  }

  /** Returns what is not bound yet (kube's checkBindings), or null when all is. */
  private String pendingBinding(PodInfo pod, PodVolumes v) {
    for (Binding b : v.staticBindings()) {
      V1PersistentVolumeClaim c =
          storage
              .getPersistentVolumeClaim(
                  b.pvc().getMetadata().getNamespace(), b.pvc().getMetadata().getName())
              .orElse(null);
      if (c == null) {
        return "claim " + b.pvc().getMetadata().getName() + " is gone";
      }
      if (!fullyBound(c)) {
        return "claim " + c.getMetadata().getName() + " is not bound yet";
      }
    }
    for (V1PersistentVolumeClaim p : v.provisions()) {
      V1PersistentVolumeClaim c =
          storage
              .getPersistentVolumeClaim(p.getMetadata().getNamespace(), p.getMetadata().getName())
              .orElse(null);
      if (c == null) {
        return "claim " + p.getMetadata().getName() + " is gone";
      }
      if (!fullyBound(c)) {
        return "claim " + c.getMetadata().getName() + " is not provisioned yet";
      }
    }
    return null;
  }

  /**
   * Returns a copy of {@code pv} whose claim reference names {@code pvc} (kube's
   * GetBindVolumeToClaim).
   */
  static V1PersistentVolume bindToClaim(V1PersistentVolume pv, V1PersistentVolumeClaim pvc) {
    V1PersistentVolume copy =
        new V1PersistentVolume()
            .apiVersion(pv.getApiVersion())
            .kind(pv.getKind())
            .metadata(copyMeta(pv.getMetadata()))
            .spec(pv.getSpec())
            .status(pv.getStatus());
    copy.spec(copySpec(pv));
    copy.getSpec()
        .claimRef(
            new V1ObjectReference()
                .apiVersion("v1")
                .kind("PersistentVolumeClaim")
                .namespace(pvc.getMetadata().getNamespace())
                .name(pvc.getMetadata().getName())
                .uid(pvc.getMetadata().getUid())
                .resourceVersion(pvc.getMetadata().getResourceVersion()));
    copy.getMetadata().putAnnotationsItem(PersistentVolumes.ANN_BOUND_BY_CONTROLLER, "yes");
    return copy;
  }

  private static io.kubernetes.client.openapi.models.V1PersistentVolumeSpec copySpec(
      V1PersistentVolume pv) {
    return deepCopy(pv.getSpec(), io.kubernetes.client.openapi.models.V1PersistentVolumeSpec.class);
  }

  private static V1ObjectMeta copyMeta(V1ObjectMeta m) {
    return deepCopy(m, V1ObjectMeta.class);
  }

  /** A deep copy through the client's own JSON codec (the models have no copy constructors). */
  private static <T> T deepCopy(T obj, Class<T> type) {
    io.kubernetes.client.openapi.JSON json = new io.kubernetes.client.openapi.JSON();
    return json.deserialize(json.serialize(obj), type);
  }

  private static V1PersistentVolumeClaim withSelectedNode(V1PersistentVolumeClaim c, String node) {
    V1PersistentVolumeClaim copy =
        new V1PersistentVolumeClaim()
            .apiVersion(c.getApiVersion())
            .kind(c.getKind())
            .metadata(copyMeta(c.getMetadata()))
            .spec(c.getSpec())
            .status(c.getStatus());
    copy.getMetadata().putAnnotationsItem(PersistentVolumes.ANN_SELECTED_NODE, node);
    return copy;
  }
}
