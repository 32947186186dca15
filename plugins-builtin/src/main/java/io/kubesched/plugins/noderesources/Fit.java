package io.kubesched.plugins.noderesources;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodRequests;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Resource;
import io.kubesched.framework.ResourceNames;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.EventObjects;
import io.kubesched.plugins.helper.LastFragment;
import io.kubesched.plugins.helper.Signatures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@code NodeResourcesFit} is a plugin that checks that a node has the resources a pod requests
 * (Filter), and scores nodes with the configured strategy: {@code LeastAllocated}, {@code
 * MostAllocated} or {@code RequestedToCapacityRatio} (Score).
 */
public final class Fit
    implements PreFilterPlugin,
        FilterPlugin,
        CycleBoundFilter,
        PreScorePlugin,
        ScorePlugin,
        CycleBoundScore,
        EnqueueExtensions,
        SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.NODE_RESOURCES_FIT;

  /** The reason when the node already runs its maximum number of pods. */
  public static final String REASON_TOO_MANY_PODS = "Too many pods";

  /** The prefix of the reason for a resource that does not fit, followed by its name. */
  public static final String REASON_INSUFFICIENT_PREFIX = "Insufficient ";

  /** The reason for CPU. */
  public static final String REASON_INSUFFICIENT_CPU = "Insufficient cpu";

  /** The reason for memory. */
  public static final String REASON_INSUFFICIENT_MEMORY = "Insufficient memory";

  /** The reason for ephemeral storage. */
  public static final String REASON_INSUFFICIENT_EPHEMERAL_STORAGE =
      "Insufficient ephemeral-storage";

  static final StateKey<PreFilterState> PRE_FILTER_KEY =
      StateKey.of("PreFilter" + NAME, PreFilterState.class);
  static final StateKey<PreScoreState> PRE_SCORE_KEY =
      StateKey.of("PreScore" + NAME, PreScoreState.class);

  private final Set<String> ignoredResources;
  private final Set<String> ignoredResourceGroups;
  private final Scorer scorer;

  /**
   * The pod's effective request, computed in PreFilter; scalar resources that are zero or ignored
   * are left out of the arrays.
   *
   * @param milliCpu the CPU request
   * @param memory the memory request
   * @param ephemeralStorage the ephemeral storage request
   * @param requestsNothing whether the pod requests no resource at all (only the pod count counts)
   * @param scalarNames the checked scalar resources, sorted by name
   * @param scalarValues their requests
   * @param scalarReasons their reasons, {@code Insufficient <name>}
   */
  record PreFilterState(
      long milliCpu,
      long memory,
      long ephemeralStorage,
      boolean requestsNothing,
      String[] scalarNames,
      long[] scalarValues,
      String[] scalarReasons)
      implements StateData {}

  /**
   * The pod's requests of the scored resources, computed in PreScore.
   *
   * @param podRequests the requests, index-aligned with the strategy's resources
   */
  record PreScoreState(long[] podRequests) implements StateData {}

  /** Creates the plugin with validated {@code args}. */
  public Fit(NodeResourcesFitArgs args) {
    this.ignoredResources = Set.copyOf(args.ignoredResources());
    this.ignoredResourceGroups = Set.copyOf(args.ignoredResourceGroups());
    this.scorer = Scorer.of(args.scoringStrategy());
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Stores the pod's effective request (init containers, sidecars and overhead included). */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    state.write(
        PRE_FILTER_KEY, computeState(pod.requests(), ignoredResources, ignoredResourceGroups));
    return PreFilterResult.success();
  }

  private static PreFilterState computeState(
      Resource req, Set<String> ignored, Set<String> ignoredGroups) {
    List<String> names = new ArrayList<>();
    List<Long> values = new ArrayList<>();
    for (Map.Entry<String, Long> e : req.scalarResources().entrySet()) {
      String name = e.getKey();
      long v = e.getValue();
      if (v == 0) {
        continue;
      }
      if (ResourceNames.isExtended(name)) {
        int slash = name.indexOf('/');
        String prefix = slash < 0 ? name : name.substring(0, slash);
        if (ignored.contains(name) || ignoredGroups.contains(prefix)) {
          continue;
        }
      }
      names.add(name);
      values.add(v);
    }
    String[] n = names.toArray(new String[0]);
    long[] v = new long[n.length];
    String[] reasons = new String[n.length];
    for (int i = 0; i < n.length; i++) {
      v[i] = values.get(i);
      reasons[i] = REASON_INSUFFICIENT_PREFIX + n[i];
    }
    boolean nothing =
        req.milliCpu() == 0
            && req.memory() == 0
            && req.ephemeralStorage() == 0
            && req.scalarResources().isEmpty();
    return new PreFilterState(
        req.milliCpu(), req.memory(), req.ephemeralStorage(), nothing, n, v, reasons);
  }

  /**
   * Returns success when the node fits; otherwise {@code Unschedulable} with every failure, in
   * kube's order: {@code Too many pods}, cpu, memory, ephemeral-storage, then scalar resources by
   * name.
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    return filterWith(state.get(PRE_FILTER_KEY), node);
  }

  /** The Filter with the PreFilter state read once for the cycle. */
  @Override
  public NodeCheck bindFilter(CycleState state, PodInfo pod) {
    return new BoundFilter(state.get(PRE_FILTER_KEY));
  }

  /** The Filter of one cycle; {@link #filterAll} runs one loop over the nodes. */
  private record BoundFilter(PreFilterState s) implements NodeCheck {
    @Override
    public Status filter(NodeInfo node) {
      return filterWith(s, node);
    }

    @Override
    public void filterAll(
        NodeInfo[] nodes, int count, NodeColumns columns, int[] rows, Status[] out) {
      if (s.requestsNothing() || s.scalarNames().length == 0) {
        Status success = Status.success();
        for (int k = 0; k < count; k++) {
          int mask =
              columns != null
                  ? standardFailures(s, columns, rows[k])
                  : standardFailures(s, nodes[k]);
          out[k] = mask == 0 ? success : STANDARD_FAILURES[mask];
        }
        return;
      }
      for (int k = 0; k < count; k++) {
        out[k] = filterWith(s, nodes[k]);
      }
    }
  }

  // pods, cpu, memory and ephemeral storage: the statuses of every combination of their failures
  private static final int TOO_MANY_PODS = 1;
  private static final int CPU = 2;
  private static final int MEMORY = 4;
  private static final int EPHEMERAL_STORAGE = 8;
  private static final Status[] STANDARD_FAILURES = standardFailures();

  private static Status[] standardFailures() {
    Status[] out = new Status[16];
    for (int mask = 1; mask < 16; mask++) {
      List<String> reasons = new ArrayList<>();
      if ((mask & TOO_MANY_PODS) != 0) {
        reasons.add(REASON_TOO_MANY_PODS);
      }
      if ((mask & CPU) != 0) {
        reasons.add(REASON_INSUFFICIENT_CPU);
      }
      if ((mask & MEMORY) != 0) {
        reasons.add(REASON_INSUFFICIENT_MEMORY);
      }
      if ((mask & EPHEMERAL_STORAGE) != 0) {
        reasons.add(REASON_INSUFFICIENT_EPHEMERAL_STORAGE);
      }
      out[mask] = Status.unschedulable(reasons.toArray(new String[0]));
    }
    return out;
  }

  /**
   * Which of the pod count, cpu, memory and ephemeral storage the node lacks, as bits; reads the
   * node's primitive copies, not its Resource objects: this runs per node per pod.
   */
  private static int standardFailures(PreFilterState s, NodeInfo node) {
    int mask = node.podCount() + 1 > node.allowedPodNumber() ? TOO_MANY_PODS : 0;
    if (s.requestsNothing()) {
      return mask;
    }
    long milliCpu = s.milliCpu();
    if (milliCpu > 0 && milliCpu > node.allocatableMilliCpu() - node.requestedMilliCpu()) {
      mask |= CPU;
    }
    long memory = s.memory();
    if (memory > 0 && memory > node.allocatableMemory() - node.requestedMemory()) {
      mask |= MEMORY;
    }
    long storage = s.ephemeralStorage();
    if (storage > 0
        && storage > node.allocatableEphemeralStorage() - node.requestedEphemeralStorage()) {
      mask |= EPHEMERAL_STORAGE;
    }
    return mask;
  }

  /** {@link #standardFailures(PreFilterState, NodeInfo)} from the snapshot's columns at row r. */
  private static int standardFailures(PreFilterState s, NodeColumns c, int r) {
    int mask = c.podCount(r) + 1 > c.allowedPodNumber(r) ? TOO_MANY_PODS : 0;
    if (s.requestsNothing()) {
      return mask;
    }
    long milliCpu = s.milliCpu();
    if (milliCpu > 0 && milliCpu > c.allocatableMilliCpu(r) - c.requestedMilliCpu(r)) {
      mask |= CPU;
    }
    long memory = s.memory();
    if (memory > 0 && memory > c.allocatableMemory(r) - c.requestedMemory(r)) {
      mask |= MEMORY;
    }
    long storage = s.ephemeralStorage();
    if (storage > 0
        && storage > c.allocatableEphemeralStorage(r) - c.requestedEphemeralStorage(r)) {
      mask |= EPHEMERAL_STORAGE;
    }
    return mask;
  }

  private static Status filterWith(PreFilterState s, NodeInfo node) {
    if (s.requestsNothing() || s.scalarNames().length == 0) {
      // no scalar resource: the status is one of the shared ones (no allocation per node)
      int mask = standardFailures(s, node);
      return mask == 0 ? Status.success() : STANDARD_FAILURES[mask];
    }
    List<InsufficientResource> insufficient = fitsRequest(s, node);
    if (insufficient.isEmpty()) {
      return Status.success();
    }
    String[] reasons = new String[insufficient.size()];
    for (int i = 0; i < reasons.length; i++) {
      reasons[i] = insufficient.get(i).reason();
    }
    return Status.unschedulable(reasons);
  }

  /** Returns why {@code pod} does not fit {@code node}, ignoring no resource; empty if it fits. */
  public static List<InsufficientResource> fits(PodInfo pod, NodeInfo node) {
    return fitsRequest(computeState(pod.requests(), Set.of(), Set.of()), node);
  }

  static List<InsufficientResource> fitsRequest(PreFilterState s, NodeInfo node) {
    List<InsufficientResource> out = List.of();
    int mask = standardFailures(s, node);
    if ((mask & TOO_MANY_PODS) != 0) {
      out =
          add(
              out,
              new InsufficientResource(
                  ResourceNames.PODS,
                  REASON_TOO_MANY_PODS,
                  1,
                  node.podCount(),
                  node.allowedPodNumber()));
    }
    if (s.requestsNothing()) {
      return out;
    }
    if ((mask & CPU) != 0) {
      out =
          add(
              out,
              new InsufficientResource(
                  ResourceNames.CPU,
                  REASON_INSUFFICIENT_CPU,
                  s.milliCpu(),
                  node.requestedMilliCpu(),
                  node.allocatableMilliCpu()));
    }
    if ((mask & MEMORY) != 0) {
      out =
          add(
              out,
              new InsufficientResource(
                  ResourceNames.MEMORY,
                  REASON_INSUFFICIENT_MEMORY,
                  s.memory(),
                  node.requestedMemory(),
                  node.allocatableMemory()));
    }
    if ((mask & EPHEMERAL_STORAGE) != 0) {
      out =
          add(
              out,
              new InsufficientResource(
                  ResourceNames.EPHEMERAL_STORAGE,
                  REASON_INSUFFICIENT_EPHEMERAL_STORAGE,
                  s.ephemeralStorage(),
                  node.requestedEphemeralStorage(),
                  node.allocatableEphemeralStorage()));
    }
    String[] names = s.scalarNames();
    if (names.length == 0) {
      return out;
    }
    Resource alloc = node.allocatable();
    Resource used = node.requested();
    for (int i = 0; i < names.length; i++) {
      long a = alloc.scalar(names[i]);
      long u = used.scalar(names[i]);
      if (s.scalarValues()[i] > a - u) {
        out =
            add(
                out,
                new InsufficientResource(
                    names[i], s.scalarReasons()[i], s.scalarValues()[i], u, a));
      }
    }
    return out;
  }

  private static List<InsufficientResource> add(
      List<InsufficientResource> list, InsufficientResource r) {
    List<InsufficientResource> out = list.isEmpty() ? new ArrayList<>(4) : list;
    out.add(r);
    return out;
  }

  /** Stores the pod's requests of the scored resources (with the 100m / 200 MiB defaults). */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    state.write(PRE_SCORE_KEY, new PreScoreState(scorer.resources.podRequests(pod)));
    return Status.success();
  }

  /** Returns the node's score under the configured strategy, in [0, 100]. */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return scorer.score(node, podRequests(state, pod));
  }

  /** The Score with the pod's requests read once for the cycle. */
  @Override
  public NodeScorer bindScore(CycleState state, PodInfo pod) {
    return new BoundScore(scorer, podRequests(state, pod));
  }

  /** The Score of one cycle; {@link #scoreAll} runs one loop over the nodes. */
  private record BoundScore(Scorer scorer, long[] podRequests) implements NodeScorer {
    @Override
    public long score(NodeInfo node) {
      return scorer.score(node, podRequests);
    }

    @Override
    public void scoreAll(
        List<NodeInfo> nodes, int from, int to, NodeColumns columns, int[] rows, long[] out) {
      scorer.scoreAll(nodes, from, to, columns, rows, podRequests, out);
    }
  }

  private long[] podRequests(CycleState state, PodInfo pod) {
    PreScoreState s = state.read(PRE_SCORE_KEY).orElse(null);
    return s != null ? s.podRequests() : scorer.resources.podRequests(pod);
  }

  /** Registers deletions and scale-downs of pods, and node additions and allocatable changes. */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.POD,
            ActionType.DELETE | ActionType.UPDATE_POD_SCALE_DOWN,
            Fit::isSchedulableAfterPodEvent),
        ClusterEventWithHint.of(
            EventResource.NODE,
            ActionType.ADD | ActionType.UPDATE_NODE_ALLOCATABLE,
            Fit::isSchedulableAfterNodeChange));
  }

  /**
   * Queues the pod when an assigned pod is deleted, or when the pod itself or an assigned pod
   * scales down a resource the pod requests.
   */
  static QueueingHint isSchedulableAfterPodEvent(V1Pod pod, Object oldObj, Object newObj) {
    V1Pod original = EventObjects.as(V1Pod.class, oldObj);
    V1Pod modified = EventObjects.as(V1Pod.class, newObj);
    if (modified == null) {
      if (original == null) {
        throw new IllegalArgumentException("expected a deleted pod, got nothing");
      }
      return isEmpty(nodeName(original)) ? QueueingHint.SKIP : QueueingHint.QUEUE;
    }
    return isSchedulableAfterPodScaleDown(pod, original, modified)
        ? QueueingHint.QUEUE
        : QueueingHint.SKIP;
  }

  private static boolean isSchedulableAfterPodScaleDown(
      V1Pod target, V1Pod original, V1Pod modified) {
    if (Objects.equals(uid(modified), uid(target))) {
      return true;
    }
    if (isEmpty(nodeName(modified)) || original == null) {
      return false;
    }
    Resource before = PodRequests.of(original.getSpec());
    Resource after = PodRequests.of(modified.getSpec());
    Resource wanted = PodRequests.of(target.getSpec());
    if (wanted.milliCpu() != 0 && before.milliCpu() > after.milliCpu()) {
      return true;
    }
    if (wanted.memory() != 0 && before.memory() > after.memory()) {
      return true;
    }
    if (wanted.ephemeralStorage() != 0 && before.ephemeralStorage() > after.ephemeralStorage()) {
      return true;
    }
    for (Map.Entry<String, Long> e : wanted.scalarResources().entrySet()) {
      if (e.getValue() != 0 && before.scalar(e.getKey()) > after.scalar(e.getKey())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Queues the pod when an added node could fit it, or when an updated node could fit it and gained
   * allocatable pods or a resource the pod requests.
   */
  static QueueingHint isSchedulableAfterNodeChange(V1Pod pod, Object oldObj, Object newObj) {
    V1Node original = EventObjects.as(V1Node.class, oldObj);
    V1Node modified = EventObjects.required(V1Node.class, newObj);
    PodInfo podInfo = PodInfo.of(pod);
    NodeInfo modifiedInfo = NodeInfo.of(modified);
    if (!fits(podInfo, modifiedInfo).isEmpty()) {
      return QueueingHint.SKIP;
    }
    if (original == null) {
      return QueueingHint.QUEUE;
    }
    return haveAnyRequestedResourcesIncreased(
            podInfo.requests(), NodeInfo.of(original).allocatable(), modifiedInfo.allocatable())
        ? QueueingHint.QUEUE
        : QueueingHint.SKIP;
  }

  private static boolean haveAnyRequestedResourcesIncreased(
      Resource req, Resource before, Resource after) {
    if (after.allowedPodNumber() > before.allowedPodNumber()) {
      return true;
    }
    if (req.milliCpu() == 0
        && req.memory() == 0
        && req.ephemeralStorage() == 0
        && req.scalarResources().isEmpty()) {
      return false;
    }
    if ((req.milliCpu() > 0 && after.milliCpu() > before.milliCpu())
        || (req.memory() > 0 && after.memory() > before.memory())
        || (req.ephemeralStorage() > 0 && after.ephemeralStorage() > before.ephemeralStorage())) {
      return true;
    }
    for (Map.Entry<String, Long> e : req.scalarResources().entrySet()) {
      if (e.getValue() != 0 && after.scalar(e.getKey()) > before.scalar(e.getKey())) {
        return true;
      }
    }
    return false;
  }

  private static String nodeName(V1Pod p) {
    return p.getSpec() == null ? null : p.getSpec().getNodeName();
  }

  private static String uid(V1Pod p) {
    return p.getMetadata() == null ? null : p.getMetadata().getUid();
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }

  /** Signs the pod by its effective requests (with and without the non-zero defaults). */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    return requestFragments.of(Signatures.Requests.of(pod));
  }

  private final LastFragment<Signatures.Requests> requestFragments =
      new LastFragment<>(Signatures::requests);
}
