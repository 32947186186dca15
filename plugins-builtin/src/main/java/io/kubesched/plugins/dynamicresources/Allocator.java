package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1DeviceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1DeviceConstraint;
import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceSelector;
import io.kubernetes.client.openapi.models.V1DeviceSubRequest;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubesched.plugins.dynamicresources.Pools.Pool;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * kube's structured-parameters allocator ({@code dynamic-resource-allocation/structured}, v1.34's
 * stable variant) for one set of claims: an exhaustive depth-first search over the devices of the
 * node's pools that takes the first complete solution. Requests are satisfied in order, each with
 * {@code count} devices ({@code ExactCount}) or every matching device ({@code All}); a {@code
 * firstAvailable} request takes the first sub-request that works; devices must match the class's
 * and the request's CEL selectors, must not be in use (allocated claims, in-flight allocations, or
 * earlier requests of this search) and must satisfy the claim's {@code matchAttribute} constraints.
 *
 * <p>Not thread-safe per {@link #allocate} call state; an instance can be shared because each call
 * has its own search state.
 */
final class Allocator {
  /** kube's {@code AllocationResultsMaxSize}. */
  static final int MAX_RESULTS = 32;

  /** The optional DRA features the allocator honours. */
  record Features(boolean prioritizedList, boolean adminAccess) {}

  /** A problem with a claim or class that makes allocation impossible anywhere (an error). */
  static final class AllocationException extends Exception {
    private final boolean onlyThisNode;

    AllocationException(String message) {
      this(message, false);
    }

    AllocationException(String message, boolean onlyThisNode) {
      super(message);
      this.onlyThisNode = onlyThisNode;
    }

    /**
     * Whether the problem is this node's only (kube's {@code ErrFailedAllocationOnNode}: invalid
     * pools), so the node is unschedulable rather than the attempt an error.
     */
    boolean onlyThisNode() {
      return onlyThisNode;
    }
  }

  private final Features features;
  private final List<ResourceV1ResourceClaim> claims;
  private final Set<DeviceId> allocated;
  private final Function<String, Optional<V1DeviceClass>> classes;
  private final SliceIndex slices;
  private final CelSelectors cel;

  Allocator(
      Features features,
      List<ResourceV1ResourceClaim> claims,
      Set<DeviceId> allocated,
      Function<String, Optional<V1DeviceClass>> classes,
      List<V1ResourceSlice> slices,
      CelSelectors cel) {
    this(features, claims, allocated, classes, new SliceIndex(slices), cel);
  }

  /** The same over an index of the cluster's slices that may be shared with other pods. */
  Allocator(
      Features features,
      List<ResourceV1ResourceClaim> claims,
      Set<DeviceId> allocated,
      Function<String, Optional<V1DeviceClass>> classes,
      SliceIndex slices,
      CelSelectors cel) {
    this.features = features;
    this.claims = List.copyOf(claims);
    this.onlyCountedRequests = onlyCountedRequests(this.claims);
    this.reqs = reqsOf(this.claims);
    this.singleDeviceShape = singleDeviceShape(this.claims);
    this.allocated = allocated;
    // looked up by every node's search: once per class and pod
    Map<String, Optional<V1DeviceClass>> known = new ConcurrentHashMap<>();
    this.classes = name -> known.computeIfAbsent(name, classes);
    this.slices = slices;
    this.cel = cel;
  }

  /**
   * The expressions of each request's selectors, by the selector list's identity: the same list
   * object for every node's search of this pod, so the list (and its hash) is made once.
   */
  private final Map<List<V1DeviceSelector>, List<String>> expressions =
      Collections.synchronizedMap(new IdentityHashMap<>());

  private List<String> expressions(List<V1DeviceSelector> selectors) {
    return expressions.computeIfAbsent(selectors, ReqData::expressionsOf);
  }

  /**
   * Each claim's requests as the search sees them, by claim, request and sub-request number (null
   * where the request has no {@code exactly}, which the search reports): the same for every node.
   */
  private final Req[][][] reqs;

  private Req req(int ci, int ri, int si) {
    return reqs[ci][ri][si];
  }

  private static Req[][][] reqsOf(List<ResourceV1ResourceClaim> claims) {
    Req[][][] out = new Req[claims.size()][][];
    for (int ci = 0; ci < claims.size(); ci++) {
      List<V1DeviceRequest> requests = requests(deviceClaim(claims.get(ci)));
      out[ci] = new Req[requests.size()][];
      for (int ri = 0; ri < requests.size(); ri++) {
        V1DeviceRequest r = requests.get(ri);
        List<V1DeviceSubRequest> subs = r.getFirstAvailable();
        if (subs != null && !subs.isEmpty()) {
          out[ci][ri] = new Req[subs.size()];
          for (int si = 0; si < subs.size(); si++) {
            out[ci][ri][si] = Req.sub(r, subs.get(si));
          }
        } else {
          out[ci][ri] = new Req[] {r.getExactly() == null ? null : Req.exact(r)};
        }
      }
    }
    return out;
  }

  /** The claims this allocator allocates, in order. */
  List<ResourceV1ResourceClaim> claims() {
    return claims;
  }

  /**
   * Allocates every claim for {@code node}.
   *
   * @return one result per claim, or empty when the node cannot satisfy them
   * @throws AllocationException when a claim or class is broken (kube's Filter error)
   */
  Optional<List<V1AllocationResult>> allocate(V1Node node) throws AllocationException {
    ReqTable single = singleDevice;
    if (single != null) {
      return allocateSingle(node, single);
    }
    if (searchedOnce && onlyCountedRequests && noFreeDevice(node)) {
      return Optional.empty();
    }
    Search search = new Search(node);
    Optional<List<V1AllocationResult>> out = search.run();
    searchedOnce = true;
    if (singleDeviceShape) {
      singleDevice = search.data;
    }
    return out;
  }

  /**
   * Whether the pod has one claim asking for one device of one request, without constraints or
   * admin access: the search then takes the first free device that passes the selectors.
   */
  private final boolean singleDeviceShape;

  /**
   * For a {@link #singleDeviceShape} pod, the request data of a search that ran without an error
   * (nothing in it depends on the node): later nodes take the short path of {@link
   * #allocateSingle}.
   */
  private volatile ReqTable singleDevice;

  private static boolean singleDeviceShape(List<ResourceV1ResourceClaim> claims) {
    if (claims.size() != 1) {
      return false;
    }
    V1DeviceClaim dc = deviceClaim(claims.get(0));
    List<V1DeviceRequest> requests = requests(dc);
    if (requests.size() != 1 || (dc.getConstraints() != null && !dc.getConstraints().isEmpty())) {
      return false;
    }
    V1DeviceRequest r = requests.get(0);
    return (r.getFirstAvailable() == null || r.getFirstAvailable().isEmpty())
        && r.getExactly() != null
        && r.getExactly().getAdminAccess() == null
        && (r.getExactly().getAllocationMode() == null
            || "ExactCount".equals(r.getExactly().getAllocationMode()))
        && (r.getExactly().getCount() == null || r.getExactly().getCount() == 1);
  }

  /**
   * The search's outcome for a {@link #singleDeviceShape} pod without its bookkeeping: the first
   * device of the node's complete, valid pools (in pool, slice and device order) that is not taken,
   * passes the selectors and consumes no counters; none, with an invalid pool, is that node's
   * error.
   */
  private Optional<List<V1AllocationResult>> allocateSingle(V1Node node, ReqTable data)
      throws AllocationException {
    ReqData d = data.get(0, 0, 0);
    SliceIndex.NodePools np = slices.nodePools(node);
    List<Pool> pools = np.pools();
    boolean invalid = false;
    for (int pi = 0; pi < pools.size(); pi++) {
      Pool p = pools.get(pi);
      invalid |= p.invalid();
      if (p.incomplete() || p.invalid()) {
        continue;
      }
      byte[][] known = np.outcomes().get(pi).of(d.selectors);
      for (int sl = 0; sl < p.slices().size(); sl++) {
        V1ResourceSlice s = p.slices().get(sl);
        List<V1Device> devs = Pools.devices(s);
        List<DeviceId> ids = p.ids().get(sl);
        for (int k = 0; k < devs.size(); k++) {
          DeviceId id = ids.get(k);
          if (allocated.contains(id)) {
            continue;
          }
          V1Device dev = devs.get(k);
          try {
            if (!selectable(node, 0, d, id, dev, s, known[sl], k)
                || (dev.getConsumesCounters() != null && !dev.getConsumesCounters().isEmpty())) {
              continue;
            }
          } catch (WrappedError e) {
            throw e.cause;
          }
          List<AllocationResults.Result> picked =
              List.of(new AllocationResults.Result(d.req, id, dev, s));
          if (!AllocationResults.cannotFail(picked)) {
            return Optional.of(List.of(AllocationResults.build(claims.get(0), 0, picked, data)));
          }
          return Optional.of(new LazyResults(claims, List.of(picked), data));
        }
      }
    }
    if (invalid) {
      throw new AllocationException("invalid resource pools were encountered", true);
    }
    return Optional.empty();
  }

  /**
   * Whether a search of this pod's claims ran to its end without an error: the errors a search can
   * raise before it looks at devices (classes, request shapes, sizes) do not depend on the node.
   */
  private volatile boolean searchedOnce;

  /** Whether there are requests and each wants a count of devices (no "All", no admin access). */
  private final boolean onlyCountedRequests;

  /**
   * Whether device {@code dev} of slice {@code s} passes the class's and the request's selectors
   * and can be used on {@code node}. {@code known}, when given, holds the selectors' outcomes of
   * the slice's devices and {@code k} is the device's position in it.
   */
  private boolean selectable(
      V1Node node,
      int ci,
      ReqData d,
      DeviceId id,
      V1Device dev,
      V1ResourceSlice s,
      byte[] known,
      int k)
      throws WrappedError {
    if (dev.getBindingConditions() != null && !dev.getBindingConditions().isEmpty()) {
      return false; // DRADeviceBindingConditions is off
    }
    byte outcome = known == null ? SliceIndex.Outcomes.UNKNOWN : known[k];
    boolean match;
    if (outcome != SliceIndex.Outcomes.UNKNOWN) {
      match = outcome == SliceIndex.Outcomes.MATCH;
    } else {
      match = selectorsMatch(ci, d, id, dev, s);
      if (known != null) {
        known[k] = match ? SliceIndex.Outcomes.MATCH : SliceIndex.Outcomes.NO_MATCH;
      }
    }
    if (match && Boolean.TRUE.equals(s.getSpec().getPerDeviceNodeSelection())) {
      match =
          Pools.nodeMatches(
              node,
              dev.getNodeName() == null ? "" : dev.getNodeName(),
              Boolean.TRUE.equals(dev.getAllNodes()),
              dev.getNodeSelector());
    }
    return match;
  }

  private boolean selectorsMatch(int ci, ReqData d, DeviceId id, V1Device dev, V1ResourceSlice s)
      throws WrappedError {
    // the selectors' outcome depends on the device, the class and the request's expressions
    // only: kept across pods and nodes in the slice index
    SliceIndex.Selectable key = new SliceIndex.Selectable(dev, d.selectors);
    Boolean known = slices.selectable(key);
    if (known != null) {
      return known;
    }
    boolean match;
    try {
      Candidate c = new Candidate(id, dev, s);
      String claimOwner = "claim " + ref(claims.get(ci));
      match =
          SelectorMatch.matches(
                  cel, "class " + name(d.deviceClass), c, classSelectors(d.deviceClass))
              && SelectorMatch.matches(cel, claimOwner, c, d.req.selectors());
    } catch (AllocationException e) {
      throw new WrappedError(e);
    }
    slices.rememberSelectable(key, match);
    return match;
  }

  /**
   * Whether every device of every complete pool {@code node} can use is taken, and no pool is
   * invalid: a search could then only end without a solution (it never evaluates a taken device's
   * selectors), so it is not run.
   */
  private boolean noFreeDevice(V1Node node) {
    for (Pool p : slices.pools(node)) {
      if (p.invalid()) {
        return false;
      }
      if (p.incomplete()) {
        continue;
      }
      for (List<DeviceId> ids : p.ids()) {
        for (DeviceId id : ids) {
          if (!allocated.contains(id)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private static boolean onlyCountedRequests(List<ResourceV1ResourceClaim> claims) {
    int requests = 0;
    for (ResourceV1ResourceClaim c : claims) {
      V1DeviceClaim dc = deviceClaim(c);
      for (V1DeviceRequest r : requests(dc)) {
        requests++;
        List<V1DeviceSubRequest> subs = r.getFirstAvailable();
        if (subs != null && !subs.isEmpty()) {
          for (V1DeviceSubRequest sub : subs) {
            if (!counted(sub.getAllocationMode(), sub.getCount())) {
              return false;
            }
          }
        } else if (r.getExactly() == null
            || r.getExactly().getAdminAccess() != null
            || !counted(r.getExactly().getAllocationMode(), r.getExactly().getCount())) {
          return false;
        }
      }
    }
    return requests > 0; // then at least one device is needed
  }

  private static boolean counted(String mode, Long count) {
    return (mode == null || "ExactCount".equals(mode)) && (count == null || count >= 1);
  }

  // ---------------------------------------------------------------- one search

  private final class Search {
    private final V1Node node;
    private List<Pool> pools;
    private List<SliceIndex.Outcomes> outcomes;
    private final ReqTable data = new ReqTable(claims.size());
    private final List<List<MatchAttribute>> constraints = new ArrayList<>(claims.size());
    private final List<List<AllocationResults.Result>> results = new ArrayList<>(claims.size());

    // the devices this search has picked so far, with the claim each is for (a stack: picks are
    // undone in reverse order); at most MAX_RESULTS per claim, so a scan beats a hash set
    private DeviceId[] allocatingIds = new DeviceId[8];
    private int[] allocatingClaims = new int[8];
    private int allocatingCount;

    Search(V1Node node) {
      this.node = node;
    }

    Optional<List<V1AllocationResult>> run() throws AllocationException {
      SliceIndex.NodePools np = slices.nodePools(node);
      pools = np.pools();
      outcomes = np.outcomes();
      for (int ci = 0; ci < claims.size(); ci++) {
        ResourceV1ResourceClaim claim = claims.get(ci);
        V1DeviceClaim dc = deviceClaim(claim);
        int minDevices = 0;
        List<V1DeviceRequest> requests = requests(dc);
        ReqData[][] rows = new ReqData[requests.size()][];
        data.claim(ci, rows);
        for (int ri = 0; ri < requests.size(); ri++) {
          V1DeviceRequest request = requests.get(ri);
          List<V1DeviceSubRequest> subs = request.getFirstAvailable();
          if (subs != null && !subs.isEmpty()) {
            if (!features.prioritizedList()) {
              throw new AllocationException(
                  "claim "
                      + ref(claim)
                      + ", request "
                      + request.getName()
                      + ": has subrequests, but the DRAPrioritizedList feature is disabled");
            }
            int min = Integer.MAX_VALUE;
            rows[ri] = new ReqData[subs.size()];
            for (int si = 0; si < subs.size(); si++) {
              ReqData d = validate(ci, req(ci, ri, si));
              rows[ri][si] = d;
              min = Math.min(min, d.numDevices);
            }
            minDevices += min;
          } else {
            if (request.getExactly() == null) {
              throw new AllocationException(
                  "claim "
                      + ref(claim)
                      + ", request "
                      + request.getName()
                      + ": missing device class name (unsupported request type?)");
            }
            ReqData d = validate(ci, req(ci, ri, 0));
            rows[ri] = new ReqData[] {d};
            minDevices += d.numDevices;
          }
        }
        if (minDevices > MAX_RESULTS) {
          throw new AllocationException(
              "claim "
                  + ref(claim)
                  + ": number of requested devices "
                  + minDevices
                  + " exceeds the claim limit of "
                  + MAX_RESULTS);
        }
        List<MatchAttribute> cs = new ArrayList<>();
        List<V1DeviceConstraint> constraintList = dc == null ? null : dc.getConstraints();
        if (constraintList != null) {
          for (int i = 0; i < constraintList.size(); i++) {
            V1DeviceConstraint c = constraintList.get(i);
            if (c.getMatchAttribute() == null) {
              throw new AllocationException(
                  "claim "
                      + ref(claim)
                      + ", constraint #"
                      + i
                      + ": empty constraint (unsupported constraint type?)");
            }
            cs.add(new MatchAttribute(c.getRequests(), c.getMatchAttribute()));
          }
        }
        constraints.add(cs);
        results.add(new ArrayList<>());
      }
      boolean done;
      try {
        done = allocateOne(0, 0, 0, 0, false);
      } catch (WrappedError e) {
        throw e.cause;
      }
      if (!done) {
        for (Pool p : pools) {
          if (p.invalid()) {
            throw new AllocationException("invalid resource pools were encountered", true);
          }
        }
        return Optional.empty();
      }
      boolean lazy = true;
      for (List<AllocationResults.Result> r : results) {
        lazy &= AllocationResults.cannotFail(r);
      }
      if (lazy) {
        // Filter keeps the results of every fitting node, Reserve reads one node's: build them
        // when read
        return Optional.of(new LazyResults(claims, results, data));
      }
      List<V1AllocationResult> out = new ArrayList<>();
      for (int ci = 0; ci < claims.size(); ci++) {
        out.add(AllocationResults.build(claims.get(ci), ci, results.get(ci), data));
      }
      return Optional.of(out);
    }

    private ReqData validate(int ci, Req r) throws AllocationException {
      ResourceV1ResourceClaim claim = claims.get(ci);
      for (int i = 0; i < r.selectors().size(); i++) {
        V1DeviceSelector s = r.selectors().get(i);
        if (s.getCel() == null || s.getCel().getExpression() == null) {
          throw new AllocationException(
              "claim "
                  + ref(claim)
                  + ", request "
                  + r.name()
                  + ", selector #"
                  + i
                  + ": CEL expression empty (unsupported selector type?)");
        }
      }
      if (!features.adminAccess() && r.hasAdminAccess()) {
        throw new AllocationException(
            "claim "
                + ref(claim)
                + ", request "
                + r.name()
                + ": admin access is requested, but the feature is disabled");
      }
      if (r.className() == null || r.className().isEmpty()) {
        throw new AllocationException(
            "claim "
                + ref(claim)
                + ", request "
                + r.name()
                + ": missing device class name (unsupported request type?)");
      }
      V1DeviceClass cls =
          classes
              .apply(r.className())
              .orElseThrow(
                  () ->
                      new AllocationException(
                          "claim "
                              + ref(claim)
                              + ", request "
                              + r.name()
                              + ": could not retrieve device class "
                              + r.className()
                              + ": deviceclass.resource.k8s.io \""
                              + r.className()
                              + "\" not found"));
      ReqData d = new ReqData(r, cls, expressions(r.selectors()));
      switch (r.mode()) {
        case "ExactCount" -> d.numDevices = (int) Math.min(Integer.MAX_VALUE, r.count());
        case "All" -> {
          d.allDevices = new ArrayList<>();
          for (Pool p : pools) {
            if (p.incomplete()) {
              throw new AllocationException(
                  "claim "
                      + ref(claim)
                      + ", request "
                      + r.name()
                      + ": asks for all devices, but resource pool "
                      + p.id()
                      + " is currently being updated");
            }
            if (p.invalid()) {
              throw new AllocationException(
                  "claim "
                      + ref(claim)
                      + ", request "
                      + r.name()
                      + ": asks for all devices, but resource pool "
                      + p.id()
                      + " is currently invalid");
            }
            for (V1ResourceSlice s : p.slices()) {
              for (V1Device dev : Pools.devices(s)) {
                Candidate c =
                    new Candidate(new DeviceId(p.driver(), p.name(), dev.getName()), dev, s);
                boolean selectable;
                try {
                  selectable = selectable(node, ci, d, c.id(), c.device(), c.slice(), null, 0);
                } catch (WrappedError e) {
                  throw e.cause;
                }
                if (selectable) {
                  d.allDevices.add(c);
                }
              }
            }
          }
          d.numDevices = d.allDevices.size();
        }
        default ->
            throw new AllocationException(
                "claim "
                    + ref(claim)
                    + ", request "
                    + r.name()
                    + ": unsupported count mode "
                    + r.mode());
      }
      return d;
    }

    /** Returns whether a full solution was found from this point on. */
    private boolean allocateOne(int ci, int ri, int si, int di, boolean inSub) throws WrappedError {
      if (ci >= claims.size()) {
        return true;
      }
      List<V1DeviceRequest> requests = requests(deviceClaim(claims.get(ci)));
      if (ri >= requests.size()) {
        return allocateOne(ci + 1, 0, 0, 0, false);
      }
      ReqData d = data.get(ci, ri, si);
      if (!inSub && d.req.parentName() != null) {
        for (int sub = 0; data.has(ci, ri, sub); sub++) {
          if (allocateOne(ci, ri, sub, di, true)) {
            data.get(ci, ri, 0).selectedSub = sub;
            return true;
          }
        }
        return false;
      }
      boolean all = "All".equals(d.req.mode());
      if (all && d.allDevices.isEmpty()) {
        return false;
      }
      if (di >= d.numDevices) {
        return allocateOne(ci, ri + 1, 0, 0, false);
      }
      if (results.get(ci).size() + d.numDevices - di > MAX_RESULTS) {
        return false;
      }
      if (all) {
        Candidate c = d.allDevices.get(di);
        Runnable undo = allocateDevice(ci, d, c, true);
        if (undo == null) {
          return false;
        }
        if (allocateOne(ci, ri, si, di + 1, inSub)) {
          return true;
        }
        undo.run();
        return false;
      }
      for (int pi = 0; pi < pools.size(); pi++) {
        Pool p = pools.get(pi);
        if (p.incomplete() || p.invalid()) {
          continue;
        }
        byte[][] known = outcomes.get(pi).of(d.selectors);
        for (int sl = 0; sl < p.slices().size(); sl++) {
          V1ResourceSlice s = p.slices().get(sl);
          List<V1Device> devs = Pools.devices(s);
          List<DeviceId> ids = p.ids().get(sl);
          byte[] knownInSlice = known[sl];
          for (int k = 0; k < devs.size(); k++) {
            DeviceId id = ids.get(k);
            if (d.req.adminAccess() ? allocatingFor(id, ci) : inUse(id)) {
              continue;
            }
            V1Device dev = devs.get(k);
            if (!selectable(node, ci, d, id, dev, s, knownInSlice, k)) {
              continue;
            }
            Runnable undo = allocateDevice(ci, d, new Candidate(id, dev, s), false);
            if (undo == null) {
              continue;
            }
            if (allocateOne(ci, ri, si, di + 1, inSub)) {
              return true;
            }
            undo.run();
          }
        }
      }
      return false;
    }

    private boolean inUse(DeviceId id) {
      return allocated.contains(id) || allocatingFor(id, -1);
    }

    /** Whether this search picked {@code id} for claim {@code ci} (any claim for {@code -1}). */
    private boolean allocatingFor(DeviceId id, int ci) {
      for (int i = 0; i < allocatingCount; i++) {
        if ((ci < 0 || allocatingClaims[i] == ci) && allocatingIds[i].equals(id)) {
          return true;
        }
      }
      return false;
    }

    private void pushAllocating(DeviceId id, int ci) {
      if (allocatingCount == allocatingIds.length) {
        allocatingIds = Arrays.copyOf(allocatingIds, allocatingCount * 2);
        allocatingClaims = Arrays.copyOf(allocatingClaims, allocatingCount * 2);
      }
      allocatingIds[allocatingCount] = id;
      allocatingClaims[allocatingCount++] = ci;
    }

    private void popAllocating(DeviceId id, int ci) {
      for (int i = allocatingCount - 1; i >= 0; i--) {
        if (allocatingClaims[i] == ci && allocatingIds[i].equals(id)) {
          System.arraycopy(allocatingIds, i + 1, allocatingIds, i, allocatingCount - i - 1);
          System.arraycopy(allocatingClaims, i + 1, allocatingClaims, i, allocatingCount - i - 1);
          allocatingIds[--allocatingCount] = null;
          return;
        }
      }
    }

    private Runnable allocateDevice(int ci, ReqData d, Candidate c, boolean must)
        throws WrappedError {
      if (d.req.adminAccess() ? allocatingFor(c.id(), ci) : inUse(c.id())) {
        return null;
      }
      if (c.device().getConsumesCounters() != null && !c.device().getConsumesCounters().isEmpty()) {
        return null; // partitionable devices (DRAPartitionableDevices) are not supported
      }
      List<MatchAttribute> cs = constraints.get(ci);
      for (int i = 0; i < cs.size(); i++) {
        if (!cs.get(i).add(d.req, c)) {
          if (must) {
            throw new WrappedError(
                new AllocationException(
                    "claim "
                        + ref(claims.get(ci))
                        + ", request "
                        + d.req.name()
                        + ": cannot add device "
                        + c.id()
                        + " because a claim constraint would not be satisfied"));
          }
          for (int e = 0; e < i; e++) {
            cs.get(e).remove(d.req);
          }
          return null;
        }
      }
      pushAllocating(c.id(), ci);
      List<AllocationResults.Result> rs = results.get(ci);
      int before = rs.size();
      rs.add(new AllocationResults.Result(d.req, c.id(), c.device(), c.slice()));
      return () -> {
        for (MatchAttribute m : cs) {
          m.remove(d.req);
        }
        popAllocating(c.id(), ci);
        while (rs.size() > before) {
          rs.remove(rs.size() - 1);
        }
      };
    }
  }

  /** One node's allocation results, each built from the search's choices when first read. */
  private static final class LazyResults extends AbstractList<V1AllocationResult> {
    private final List<ResourceV1ResourceClaim> claims;
    private final List<List<AllocationResults.Result>> results;
    private final ReqTable data;
    private final V1AllocationResult[] built;

    LazyResults(
        List<ResourceV1ResourceClaim> claims,
        List<List<AllocationResults.Result>> results,
        ReqTable data) {
      this.claims = claims;
      this.results = results;
      this.data = data;
      this.built = new V1AllocationResult[claims.size()];
    }

    @Override
    public synchronized V1AllocationResult get(int ci) {
      if (built[ci] == null) {
        try {
          built[ci] = AllocationResults.build(claims.get(ci), ci, results.get(ci), data);
        } catch (AllocationException e) {
          throw new IllegalStateException("checked by cannotFail", e);
        }
      }
      return built[ci];
    }

    @Override
    public int size() {
      return built.length;
    }
  }

  /** Carries a checked error out of the recursive search. */
  private static final class WrappedError extends Exception {
    final AllocationException cause;

    WrappedError(AllocationException cause) {
      super(null, null, false, false);
      this.cause = cause;
    }
  }

  private static List<V1DeviceSelector> classSelectors(V1DeviceClass cls) {
    return cls.getSpec() == null || cls.getSpec().getSelectors() == null
        ? List.of()
        : cls.getSpec().getSelectors();
  }

  static V1DeviceClaim deviceClaim(ResourceV1ResourceClaim claim) {
    return claim.getSpec() == null ? null : claim.getSpec().getDevices();
  }

  static List<V1DeviceRequest> requests(V1DeviceClaim dc) {
    return dc == null || dc.getRequests() == null ? List.of() : dc.getRequests();
  }

  static String ref(ResourceV1ResourceClaim claim) {
    String ns = claim.getMetadata().getNamespace();
    return (ns == null || ns.isEmpty() ? "" : ns + "/") + claim.getMetadata().getName();
  }

  static String name(V1DeviceClass cls) {
    return cls.getMetadata().getName();
  }
}
