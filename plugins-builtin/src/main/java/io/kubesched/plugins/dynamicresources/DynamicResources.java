package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceSubRequest;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1ResourceClaimConsumerReference;
import io.kubernetes.client.openapi.models.V1ResourceClaimStatus;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.ClusterWatcher;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeSelector;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostFilterPlugin;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreBindPlugin;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.plugins.PluginNames;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code DynamicResources} is kube-scheduler's DRA plugin: it makes sure that a pod's
 * ResourceClaims ({@code resource.k8s.io/v1}) are allocated on the node it goes to. PreEnqueue
 * holds pods whose claims do not exist yet; PreFilter sets up the {@link Allocator} for the
 * unallocated claims; Filter checks allocated claims' node selectors and tries the allocation on
 * each node; PostFilter deallocates an allocated claim that kept the pod off every node; Reserve
 * marks the chosen node's allocation as in flight (so no other pod gets those devices); Unreserve
 * forgets it; PreBind writes {@code status.allocation} and {@code status.reservedFor} to each
 * claim.
 *
 * <p>Behind the {@code DynamicResourceAllocation} gate: with it off the plugin does nothing, as
 * kube's. With it on the DRA sub-gates take kube v1.34's defaults unless set explicitly ({@code
 * DRAPrioritizedList} and {@code DRAAdminAccess} on). Partitionable devices, device taints and
 * binding conditions (alpha) are not supported: devices using them are never picked.
 */
public final class DynamicResources
    implements PreEnqueuePlugin,
        PreFilterPlugin,
        FilterPlugin,
        PostFilterPlugin,
        ReservePlugin,
        PreBindPlugin,
        EnqueueExtensions,
        SignPlugin,
        AutoCloseable {
  /** The plugin's name. */
  public static final String NAME = PluginNames.DYNAMIC_RESOURCES;

  /** The finalizer kube adds to allocated claims. */
  public static final String FINALIZER = "resource.kubernetes.io/delete-protection";

  private static final Logger log = LoggerFactory.getLogger(DynamicResources.class);
  private static final StateKey<State> KEY = StateKey.of(NAME, State.class);
  private static final int UPDATE_RETRIES = 5;

  /** The cycle's state; shared by clones as kube's (Filter writes under its own lock). */
  static final class State implements StateData {
    final List<ResourceV1ResourceClaim> claims;
    final List<NodeSelector> availableOnNodes;
    final Allocator allocator;
    final Map<String, List<V1AllocationResult>> nodeAllocations;
    final V1AllocationResult[] reserved;

    /** Indices of allocated claims whose node selector failed on some node (Filter, parallel). */
    final Set<Integer> unavailableClaims = ConcurrentHashMap.newKeySet();

    State(
        List<ResourceV1ResourceClaim> claims,
        List<NodeSelector> availableOnNodes,
        Allocator allocator,
        int nodesWithDevices) {
      this.claims = new ArrayList<>(claims);
      this.availableOnNodes = availableOnNodes;
      this.allocator = allocator;
      // sized for every node that publishes devices, so that Filter never grows it
      this.nodeAllocations =
          new ConcurrentHashMap<>(allocator == null ? 16 : Math.min(nodesWithDevices, 1 << 16));
      this.reserved = new V1AllocationResult[claims.size()];
    }
  }

  private final boolean enabled;
  private final Allocator.Features features;
  private final ClusterClient client;
  private final CelSelectors cel = new CelSelectors();

  /** Allocations between Reserve and the end of PreBind, by claim UID (kube's in-flight set). */
  private final Map<String, ResourceV1ResourceClaim> inFlight = new ConcurrentHashMap<>();

  // The devices of allocated claims, from the cluster's claim events (made on first need); null
  // with a cluster that delivers no events, where every allocated claim is listed per pod.
  private AllocatedDevices tracker;
  private boolean trackerUnavailable;
  private ClusterWatcher.Registration registration;
  private volatile SliceIndex sliceIndex;

  // one object per device id, shared by the pools and the allocated-devices tracker
  private final DeviceIds deviceIds = new DeviceIds();

  /** Creates the plugin for {@code handle}'s cluster and feature gates. */
  public DynamicResources(FrameworkHandle handle) {
    FeatureGates gates = handle.featureGates();
    this.enabled = gates.enabled(FeatureGates.DYNAMIC_RESOURCE_ALLOCATION);
    this.features =
        new Allocator.Features(
            subGate(gates, FeatureGates.DRA_PRIORITIZED_LIST),
            subGate(gates, FeatureGates.DRA_ADMIN_ACCESS));
    this.client = handle.client();
  }

  /** A DRA sub-gate: its explicit setting, else kube v1.34's default (on for these two). */
  private static boolean subGate(FeatureGates gates, String name) {
    Boolean explicit = gates.explicit().get(name);
    return explicit == null || explicit;
  }

  /** Signs only pods without resource claims; a pod with claims is not batched (as upstream). */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    var spec = pod.pod().getSpec();
    return spec == null || spec.getResourceClaims() == null || spec.getResourceClaims().isEmpty()
        ? Optional.of("")
        : Optional.empty();
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Returns whether the feature gate turned the plugin on. */
  public boolean enabled() {
    return enabled;
  }

  /**
   * Returns why PreEnqueue holds {@code pod} back (a claim that does not exist yet, is being
   * deleted or belongs to another pod), in kube's words; empty when its claims are all there.
   */
  public static Optional<String> claimProblem(ClusterClient client, V1Pod pod) {
    try {
      ClaimLookup.claims(client, pod);
      return Optional.empty();
    } catch (ClaimLookup.ClaimException e) {
      return Optional.of(e.getMessage());
    }
  }

  @Override
  public Status preEnqueue(PodInfo pod) {
    if (!enabled) {
      return Status.success();
    }
    try {
      ClaimLookup.claims(client, pod.pod());
      return Status.success();
    } catch (ClaimLookup.ClaimException e) {
      return unschedulable(pod, e.getMessage());
    }
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    if (!enabled) {
      return PreFilterResult.skip();
    }
    List<ResourceV1ResourceClaim> claims;
    try {
      claims = ClaimLookup.claims(client, pod.pod());
    } catch (ClaimLookup.ClaimException e) {
      return PreFilterResult.of(unschedulable(pod, e.getMessage()));
    }
    if (claims.isEmpty()) {
      return PreFilterResult.skip();
    }
    String podUid = uid(pod);
    List<ResourceV1ResourceClaim> toAllocate = new ArrayList<>();
    List<NodeSelector> available = new ArrayList<>();
    for (ResourceV1ResourceClaim claim : claims) {
      NodeSelector selector = null;
      if (ClaimLookup.allocated(claim)) {
        if (!ClaimLookup.canBeReserved(claim) && !ClaimLookup.isReservedFor(podUid, claim)) {
          return PreFilterResult.of(unschedulable(pod, "resourceclaim in use"));
        }
        if (claim.getStatus().getAllocation().getNodeSelector() != null) {
          selector = NodeSelector.compile(claim.getStatus().getAllocation().getNodeSelector());
        }
      } else {
        toAllocate.add(claim);
        String uid = claim.getMetadata().getUid();
        if (uid != null && inFlight.containsKey(uid)) {
          return PreFilterResult.of(
              unschedulable(
                  pod,
                  "resource claim "
                      + Allocator.ref(claim)
                      + " is in the process of being allocated"));
        }
        Status s = validateClasses(pod, claim);
        if (s != null) {
          return PreFilterResult.of(s);
        }
      }
      available.add(selector);
    }
    Allocator allocator = null;
    int nodesWithDevices = 0;
    if (!toAllocate.isEmpty()) {
      SliceIndex index = sliceIndex();
      nodesWithDevices = index.nodesWithOwnSlices();
      allocator =
          new Allocator(
              features, toAllocate, allocatedDevices(), client::getDeviceClass, index, cel);
    }
    state.write(KEY, new State(claims, available, allocator, nodesWithDevices));
    return PreFilterResult.success();
  }

  private Status validateClasses(PodInfo pod, ResourceV1ResourceClaim claim) {
    if (claim.getSpec() == null
        || claim.getSpec().getDevices() == null
        || claim.getSpec().getDevices().getRequests() == null) {
      return null;
    }
    for (V1DeviceRequest request : claim.getSpec().getDevices().getRequests()) {
      List<V1DeviceSubRequest> subs = request.getFirstAvailable();
      if (subs == null || subs.isEmpty()) {
        String cls =
            request.getExactly() == null ? null : request.getExactly().getDeviceClassName();
        Status s = validateClass(pod, cls, request.getName());
        if (s != null) {
          return s;
        }
      } else {
        if (!features.prioritizedList()) {
          return unschedulable(
              pod,
              "resource claim "
                  + Allocator.ref(claim)
                  + ", request "
                  + request.getName()
                  + ": has subrequests, but the DRAPrioritizedList feature is disabled");
        }
        for (V1DeviceSubRequest sub : subs) {
          Status s =
              validateClass(pod, sub.getDeviceClassName(), request.getName() + "/" + sub.getName());
          if (s != null) {
            return s;
          }
        }
      }
    }
    return null;
  }

  private Status validateClass(PodInfo pod, String className, String requestName) {
    if (className == null || className.isEmpty()) {
      return Status.error("request " + requestName + ": unsupported request type");
    }
    if (client.getDeviceClass(className).isEmpty()) {
      return unschedulable(
          pod, "request " + requestName + ": device class " + className + " does not exist");
    }
    return null;
  }

  /**
   * Returns the index of the cluster's ResourceSlices: the last one while the cluster lists the
   * very same slice objects (so each node's pools are gathered once, not per pod), else a new one.
   */
  private SliceIndex sliceIndex() {
    List<V1ResourceSlice> current = client.listResourceSlices();
    SliceIndex index = sliceIndex;
    if (index == null || !index.sameSlices(current)) {
      index = new SliceIndex(current, deviceIds::intern);
      sliceIndex = index;
    }
    return index;
  }

  /** Devices of allocated claims and of in-flight allocations. */
  private Set<DeviceId> allocatedDevices() {
    AllocatedDevices t = tracker();
    if (t == null) {
      return listAllocatedDevices();
    }
    // The in-flight claims first, then the tracker: PreBind (on a binding thread) tells the tracker
    // of its write before it leaves the in-flight set, so a claim that leaves in between is in the
    // view taken second. The other order loses it when its PreBind ends between the two reads.
    List<DeviceId> flying = new ArrayList<>();
    for (ResourceV1ResourceClaim c : inFlight.values()) {
      flying.addAll(AllocatedDevices.devicesOf(c));
    }
    return t.view(flying);
  }

  /** The same by listing every claim of the cluster (for a cluster that delivers no events). */
  private Set<DeviceId> listAllocatedDevices() {
    Set<DeviceId> out = new HashSet<>();
    Set<String> seen = new HashSet<>();
    for (ResourceV1ResourceClaim c : inFlight.values()) {
      seen.add(c.getMetadata().getUid());
      out.addAll(AllocatedDevices.devicesOf(c));
    }
    for (ResourceV1ResourceClaim c : client.listResourceClaims(null)) {
      if (!seen.contains(c.getMetadata().getUid())) {
        out.addAll(AllocatedDevices.devicesOf(c));
      }
    }
    return out;
  }

  /**
   * Returns the allocated-devices tracker, registering it with the cluster and seeding it on first
   * use; null when the cluster delivers no events.
   */
  private synchronized AllocatedDevices tracker() {
    if (tracker != null || trackerUnavailable) {
      return tracker;
    }
    AllocatedDevices t = new AllocatedDevices(deviceIds);
    try {
      registration = client.watch(t);
    } catch (RuntimeException e) {
      registration = null;
    }
    if (registration == null) {
      trackerUnavailable = true;
      return null;
    }
    t.seed(() -> client.listResourceClaims(null));
    tracker = t;
    return t;
  }

  /** Tells the tracker at once of a claim this plugin wrote (its event may come later). */
  private void written(ResourceV1ResourceClaim claim) {
    AllocatedDevices t;
    synchronized (this) {
      t = tracker;
    }
    if (t != null && claim != null) {
      t.onResourceClaimChange(null, claim);
    }
  }

  /** Stops watching the cluster's claims. */
  @Override
  public void close() {
    ClusterWatcher.Registration r;
    synchronized (this) {
      r = registration;
      registration = null;
    }
    if (r != null) {
      r.cancel();
    }
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (!enabled) {
      return Status.success();
    }
    Optional<State> maybe = state.read(KEY);
    if (maybe.isEmpty()) {
      return Status.success();
    }
    State s = maybe.get();
    List<Integer> unavailable = List.of();
    for (int i = 0; i < s.claims.size(); i++) {
      NodeSelector sel = s.availableOnNodes.get(i);
      if (sel != null) {
        Map<String, String> labels = node.node().getMetadata().getLabels();
        if (!sel.matches(node.name(), labels == null ? Map.of() : labels)) {
          if (unavailable.isEmpty()) {
            unavailable = new ArrayList<>();
          }
          unavailable.add(i);
        }
      }
    }
    if (s.allocator != null) {
      Optional<List<V1AllocationResult>> a;
      try {
        a = s.allocator.allocate(node.node());
      } catch (Allocator.AllocationException e) {
        if (e.onlyThisNode()) {
          return unschedulable(pod, e.getMessage());
        }
        log.atDebug()
            .setMessage("dynamic resource plugin failed")
            .addKeyValue("pod", pod.key())
            .addKeyValue("node", node.name())
            .addKeyValue("plugin", NAME)
            .addKeyValue("err", e.getMessage())
            .log();
        return Status.error(e.getMessage());
      }
      if (a.isEmpty() || a.get().size() != s.allocator.claims().size()) {
        return unschedulable(pod, CANNOT_ALLOCATE);
      }
      if (unavailable.isEmpty()) {
        s.nodeAllocations.put(node.name(), a.get());
      }
    }
    if (!unavailable.isEmpty()) {
      for (Integer i : unavailable) {
        if (!s.unavailableClaims.contains(i)) { // a read: most nodes name the same claims
          s.unavailableClaims.add(i);
        }
      }
      return unschedulable(pod, NOT_AVAILABLE);
    }
    return Status.success();
  }

  /**
   * kube's PostFilter: when no node fits, deallocates one allocated claim that was not available on
   * some node and is reserved for nobody else (clears {@code status.allocation}, {@code
   * reservedFor} and {@code devices}), so that the next attempt can allocate it elsewhere. Always
   * Unschedulable (the attempt fails either way; DefaultPreemption runs next): {@code "deallocation
   * of ResourceClaim completed"}, {@code "still not schedulable"}, {@code "no new claims to
   * deallocate"} (no claims, or PreFilter stopped early) or {@code "plugin disabled"}; Error when
   * the status update fails. kube picks the claim at random among the candidates; this takes the
   * one the pod lists first.
   */
  @Override
  public PostFilterResult postFilter(
      CycleState state, PodInfo pod, NodeToStatusReader filteredNodeStatuses) {
    if (!enabled) {
      return PostFilterResult.of(Status.unschedulable("plugin disabled"));
    }
    Optional<State> maybe = state.read(KEY);
    if (maybe.isEmpty() || maybe.get().claims.isEmpty()) {
      return PostFilterResult.of(Status.unschedulable("no new claims to deallocate"));
    }
    State s = maybe.get();
    String podUid = uid(pod);
    for (int index : new TreeSet<>(s.unavailableClaims)) {
      ResourceV1ResourceClaim claim = s.claims.get(index);
      List<V1ResourceClaimConsumerReference> reserved =
          claim.getStatus() == null ? null : claim.getStatus().getReservedFor();
      if (reserved == null
          || reserved.isEmpty()
          || reserved.size() == 1 && podUid.equals(reserved.get(0).getUid())) {
        log.atDebug()
            .setMessage("Deallocation of ResourceClaim")
            .addKeyValue("pod", pod.key())
            .addKeyValue("plugin", NAME)
            .addKeyValue("resourceclaim", Allocator.ref(claim))
            .log();
        try {
          written(
              client.updateResourceClaimStatus(
                  new ResourceV1ResourceClaim()
                      .metadata(copyMeta(claim.getMetadata()))
                      .spec(claim.getSpec())
                      .status(new V1ResourceClaimStatus().devices(null).reservedFor(null))));
        } catch (RuntimeException e) {
          return PostFilterResult.of(Status.error(e.getMessage()));
        }
        return PostFilterResult.of(Status.unschedulable("deallocation of ResourceClaim completed"));
      }
    }
    return PostFilterResult.of(Status.unschedulable("still not schedulable"));
  }

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    if (!enabled) {
      return Status.success();
    }
    Optional<State> maybe = state.read(KEY);
    if (maybe.isEmpty() || maybe.get().allocator == null) {
      return Status.success();
    }
    State s = maybe.get();
    List<ResourceV1ResourceClaim> toAllocate = s.allocator.claims();
    List<V1AllocationResult> allocations = s.nodeAllocations.get(nodeName);
    if (allocations == null) {
      return Status.error("claim allocation not found for node");
    }
    if (allocations.size() != toAllocate.size()) {
      return Status.error(
          "internal error, have "
              + allocations.size()
              + " allocations, "
              + toAllocate.size()
              + " claims to allocate");
    }
    for (int i = 0; i < toAllocate.size(); i++) {
      ResourceV1ResourceClaim claim = toAllocate.get(i);
      int index = s.claims.indexOf(claim);
      if (index < 0) {
        return Status.error(
            "internal error, claim "
                + claim.getMetadata().getName()
                + " with allocation not found");
      }
      s.reserved[index] = allocations.get(i);
      ResourceV1ResourceClaim assumed =
          new ResourceV1ResourceClaim()
              .metadata(claim.getMetadata())
              .spec(claim.getSpec())
              .status(new V1ResourceClaimStatus().allocation(allocations.get(i)));
      inFlight.put(claimUid(claim), assumed);
    }
    return Status.success();
  }

  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    if (!enabled) {
      return;
    }
    Optional<State> maybe = state.read(KEY);
    if (maybe.isEmpty()) {
      return;
    }
    State s = maybe.get();
    String podUid = uid(pod);
    for (ResourceV1ResourceClaim claim : s.claims) {
      inFlight.remove(claimUid(claim));
      Optional<ResourceV1ResourceClaim> current =
          client.getResourceClaim(
              claim.getMetadata().getNamespace(), claim.getMetadata().getName());
      if (current.isPresent()
          && ClaimLookup.allocated(current.get())
          && ClaimLookup.isReservedFor(podUid, current.get())) {
        ResourceV1ResourceClaim c = current.get();
        List<V1ResourceClaimConsumerReference> rest = new ArrayList<>();
        for (V1ResourceClaimConsumerReference r : c.getStatus().getReservedFor()) {
          if (!podUid.equals(r.getUid())) {
            rest.add(r);
          }
        }
        try {
          client.updateResourceClaimStatus(
              new ResourceV1ResourceClaim()
                  .metadata(copyMeta(c.getMetadata()).resourceVersion(null))
                  .spec(c.getSpec())
                  .status(
                      new V1ResourceClaimStatus()
                          .allocation(c.getStatus().getAllocation())
                          .devices(c.getStatus().getDevices())
                          .reservedFor(rest.isEmpty() ? null : rest)));
        } catch (RuntimeException e) {
          log.atWarn()
              .setMessage("unreserve")
              .addKeyValue("pod", pod.key())
              .addKeyValue("plugin", NAME)
              .addKeyValue("resourceclaim", Allocator.ref(c))
              .addKeyValue("err", e.getMessage())
              .log();
        }
      }
    }
  }

  @Override
  public Status preBind(CycleState state, PodInfo pod, String nodeName) {
    if (!enabled) {
      return Status.success();
    }
    Optional<State> maybe = state.read(KEY);
    if (maybe.isEmpty()) {
      return Status.success();
    }
    State s = maybe.get();
    String podUid = uid(pod);
    for (int i = 0; i < s.claims.size(); i++) {
      if (ClaimLookup.isReservedFor(podUid, s.claims.get(i))) {
        continue;
      }
      try {
        s.claims.set(i, bindClaim(s, i, pod, podUid));
      } catch (RuntimeException e) {
        return Status.error(e.getMessage());
      }
    }
    return Status.success();
  }

  private ResourceV1ResourceClaim bindClaim(State s, int index, PodInfo pod, String podUid) {
    ResourceV1ResourceClaim claim = s.claims.get(index);
    V1AllocationResult allocation = s.reserved[index];
    try {
      RuntimeException last = null;
      for (int attempt = 0; attempt < UPDATE_RETRIES; attempt++) {
        if (attempt > 0) {
          claim =
              client
                  .getResourceClaim(
                      claim.getMetadata().getNamespace(), claim.getMetadata().getName())
                  .orElseThrow(
                      () ->
                          new IllegalStateException(
                              "get updated claim "
                                  + Allocator.ref(s.claims.get(index))
                                  + " after conflict: not found"));
        }
        if (claim.getMetadata().getDeletionTimestamp() != null) {
          throw new IllegalStateException(
              "claim " + Allocator.ref(claim) + " got deleted in the meantime");
        }
        V1ObjectMeta meta = copyMeta(claim.getMetadata());
        V1ResourceClaimStatus status =
            claim.getStatus() == null
                ? new V1ResourceClaimStatus()
                : new V1ResourceClaimStatus()
                    .allocation(claim.getStatus().getAllocation())
                    .devices(claim.getStatus().getDevices())
                    .reservedFor(
                        claim.getStatus().getReservedFor() == null
                            ? null
                            : new ArrayList<>(claim.getStatus().getReservedFor()));
        if (allocation != null) {
          if (status.getAllocation() != null) {
            throw new IllegalStateException(
                "claim " + Allocator.ref(claim) + " got allocated elsewhere in the meantime");
          }
          List<String> finalizers =
              meta.getFinalizers() == null
                  ? new ArrayList<>()
                  : new ArrayList<>(meta.getFinalizers());
          if (!finalizers.contains(FINALIZER)) {
            finalizers.add(FINALIZER);
          }
          meta.setFinalizers(finalizers);
          status.setAllocation(allocation);
        }
        status.addReservedForItem(
            new V1ResourceClaimConsumerReference().resource("pods").name(pod.name()).uid(podUid));
        try {
          ResourceV1ResourceClaim updated =
              client.updateResourceClaimStatus(
                  new ResourceV1ResourceClaim()
                      .metadata(meta)
                      .spec(claim.getSpec())
                      .status(status));
          written(updated);
          return updated;
        } catch (RuntimeException e) {
          last = e;
          if (!String.valueOf(e.getMessage()).contains("the object has been modified")) {
            break;
          }
        }
      }
      throw new IllegalStateException(
          (allocation != null
                  ? "add allocation and reservation to claim "
                  : "add reservation to claim ")
              + Allocator.ref(claim)
              + ": "
              + (last == null ? "conflict" : last.getMessage()),
          last);
    } finally {
      if (allocation != null) {
        inFlight.remove(claimUid(s.claims.get(index)));
      }
    }
  }

  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    if (!enabled) {
      return List.of();
    }
    return List.of(
        // kube v1.34 (with queueing hints): Node Add | UpdateNodeLabel | UpdateNodeAllocatable
        ClusterEventWithHint.of(
            EventResource.NODE,
            ActionType.ADD | ActionType.UPDATE_NODE_LABEL | ActionType.UPDATE_NODE_ALLOCATABLE),
        ClusterEventWithHint.of(
            EventResource.RESOURCE_CLAIM,
            ActionType.ADD | ActionType.UPDATE,
            this::isSchedulableAfterClaimChange),
        ClusterEventWithHint.of(
            EventResource.POD,
            ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM,
            this::isSchedulableAfterPodChange),
        ClusterEventWithHint.of(EventResource.DEVICE_CLASS, ActionType.ADD | ActionType.UPDATE),
        ClusterEventWithHint.of(EventResource.RESOURCE_SLICE, ActionType.ADD | ActionType.UPDATE));
  }

  QueueingHint isSchedulableAfterClaimChange(V1Pod pod, Object oldObj, Object newObj) {
    if (!(newObj instanceof ResourceV1ResourceClaim modified)) {
      return QueueingHint.QUEUE;
    }
    ResourceV1ResourceClaim original = oldObj instanceof ResourceV1ResourceClaim o ? o : null;
    List<ResourceV1ResourceClaim> claims;
    try {
      claims = ClaimLookup.claims(client, pod);
    } catch (ClaimLookup.ClaimException e) {
      return QueueingHint.SKIP;
    }
    boolean usesClaim =
        claims.stream()
            .anyMatch(
                c -> Objects.equals(c.getMetadata().getUid(), modified.getMetadata().getUid()));
    if (original != null && ClaimLookup.allocated(original) && !ClaimLookup.allocated(modified)) {
      return QueueingHint.QUEUE;
    }
    if (!usesClaim) {
      return QueueingHint.SKIP;
    }
    if (original == null) {
      return QueueingHint.QUEUE;
    }
    if (Objects.equals(original.getStatus(), modified.getStatus())) {
      return QueueingHint.SKIP;
    }
    return QueueingHint.QUEUE;
  }

  QueueingHint isSchedulableAfterPodChange(V1Pod pod, Object oldObj, Object newObj) {
    if (!(newObj instanceof V1Pod modified)) {
      return QueueingHint.QUEUE;
    }
    if (!Objects.equals(pod.getMetadata().getUid(), modified.getMetadata().getUid())) {
      return QueueingHint.SKIP;
    }
    try {
      ClaimLookup.claims(client, modified);
    } catch (ClaimLookup.ClaimException e) {
      return QueueingHint.SKIP;
    }
    return QueueingHint.QUEUE;
  }

  // Filter's rejections of a node, shared: made per node per pod otherwise
  private static final Status CANNOT_ALLOCATE = Status.unresolvable("cannot allocate all claims");
  private static final Status NOT_AVAILABLE =
      Status.unresolvable("resourceclaim not available on the node");

  private static Status unschedulable(PodInfo pod, String reason) {
    return unschedulable(pod, Status.unresolvable(reason));
  }

  private static Status unschedulable(PodInfo pod, Status status) {
    if (log.isDebugEnabled()) {
      log.atDebug()
          .setMessage("pod unschedulable")
          .addKeyValue("pod", pod.key())
          .addKeyValue("plugin", NAME)
          .addKeyValue("reason", status.message())
          .log();
    }
    return status;
  }

  private static String uid(PodInfo pod) {
    String uid = pod.pod().getMetadata().getUid();
    return uid == null || uid.isEmpty() ? pod.uid() : uid;
  }

  private static String claimUid(ResourceV1ResourceClaim claim) {
    String uid = claim.getMetadata().getUid();
    return uid == null || uid.isEmpty() ? Allocator.ref(claim) : uid;
  }

  private static V1ObjectMeta copyMeta(V1ObjectMeta m) {
    return new V1ObjectMeta()
        .name(m.getName())
        .namespace(m.getNamespace())
        .uid(m.getUid())
        .resourceVersion(m.getResourceVersion())
        .labels(m.getLabels())
        .annotations(m.getAnnotations())
        .ownerReferences(m.getOwnerReferences())
        .finalizers(m.getFinalizers())
        .creationTimestamp(m.getCreationTimestamp())
        .deletionTimestamp(m.getDeletionTimestamp())
        .generateName(m.getGenerateName());
  }
}
