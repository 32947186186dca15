package io.kubesched.plugins.podtopologyspread;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeRows;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterExtensions;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.plugins.helper.LabelColumns;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code PodTopologySpread} is a plugin that spreads pods over topology domains as their {@code
 * topologySpreadConstraints} (or the cluster's default constraints) ask (kube-scheduler v1.33).
 *
 * <p>{@code DoNotSchedule} constraints are enforced in Filter, {@code ScheduleAnyway} constraints
 * rank nodes in Score. Counts are precomputed once per cycle in PreFilter and PreScore; Filter and
 * Score only look them up. The per-node counts behind them are kept across cycles in a {@link
 * CountMemo} (only nodes whose info or generation changed are counted again), with results
 * identical to counting afresh. Thread-safe: per-cycle data lives in the {@link CycleState}; the
 * memos are guarded by a lock.
 */
public final class PodTopologySpread
    implements PreFilterPlugin,
        PreFilterExtensions,
        CycleBoundFilter,
        PreScorePlugin,
        CycleBoundScore,
        ScoreExtensions,
        EnqueueExtensions,
        SignPlugin {
  private static final Logger log = LoggerFactory.getLogger(PodTopologySpread.class);

  /** The plugin's name. */
  public static final String NAME = "PodTopologySpread";

  /** Filter reason when placing the pod on the node would exceed a constraint's maxSkew. */
  public static final String REASON_CONSTRAINTS_NOT_MATCH =
      "node(s) didn't match pod topology spread constraints";

  /** Filter reason when the node lacks the topology key of a hard constraint. */
  public static final String REASON_NODE_LABEL_NOT_MATCH =
      REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)";

  /** The label of the hostname topology. */
  static final String LABEL_HOSTNAME = "kubernetes.io/hostname";

  /** The label of the zone topology. */
  static final String LABEL_ZONE = "topology.kubernetes.io/zone";

  /** The constraints used with {@code defaultingType: System}. */
  public static final List<V1TopologySpreadConstraint> SYSTEM_DEFAULT_CONSTRAINTS =
      List.of(
          new V1TopologySpreadConstraint()
              .topologyKey(LABEL_HOSTNAME)
              .whenUnsatisfiable(SpreadConstraint.SCHEDULE_ANYWAY)
              .maxSkew(3),
          new V1TopologySpreadConstraint()
              .topologyKey(LABEL_ZONE)
              .whenUnsatisfiable(SpreadConstraint.SCHEDULE_ANYWAY)
              .maxSkew(5));

  static final StateKey<PreFilterState> PRE_FILTER_KEY =
      StateKey.of("PreFilter" + NAME, PreFilterState.class);
  static final StateKey<PreScoreState> PRE_SCORE_KEY =
      StateKey.of("PreScore" + NAME, PreScoreState.class);

  private static final Status STATUS_LABEL_MISSING =
      Status.unresolvable(REASON_NODE_LABEL_NOT_MATCH);
  static final Status STATUS_SKEW = Status.unschedulable(REASON_CONSTRAINTS_NOT_MATCH);

  private final FrameworkHandle handle;
  private final List<V1TopologySpreadConstraint> defaultConstraints;
  private final boolean systemDefaulted;
  private final boolean enableMatchLabelKeys;

  /**
   * The default constraints converted once per action when none has match label keys (then the
   * conversion does not depend on the pod); {@code null} otherwise.
   */
  private final @Nullable Map<String, List<SpreadConstraint>> defaultsWithoutMatchLabelKeys;

  /** Counts kept across cycles; guarded by itself. */
  private final CountMemo.Store memos = new CountMemo.Store();

  /**
   * The nodes' topology values kept across cycles, for a PreScore whose feasible nodes do not say
   * which rows of the snapshot's columns they are (else it reads the label columns).
   */
  private final TopologyValues topologyValues = new TopologyValues();

  /**
   * Creates the plugin.
   *
   * @param args validated arguments
   * @param handle the framework handle: its snapshot, parallelizer and cluster client are used, and
   *     its {@code MatchLabelKeysInPodTopologySpread} gate
   */
  public PodTopologySpread(PodTopologySpreadArgs args, FrameworkHandle handle) {
    this.handle = Objects.requireNonNull(handle, "handle must not be null");
    this.enableMatchLabelKeys =
        handle.featureGates().enabled(FeatureGates.MATCH_LABEL_KEYS_IN_POD_TOPOLOGY_SPREAD);
    if (PodTopologySpreadArgs.SYSTEM_DEFAULTING.equals(args.defaultingType())) {
      this.defaultConstraints = SYSTEM_DEFAULT_CONSTRAINTS;
      this.systemDefaulted = true;
    } else {
      this.defaultConstraints = args.defaultConstraints();
      this.systemDefaulted = false;
    }
    this.defaultsWithoutMatchLabelKeys =
        convertedDefaults(defaultConstraints, enableMatchLabelKeys);
  }

  @Override
  public String name() {
    return NAME;
  }

  // ---------------------------------------------------------------- constraints

  /**
   * Returns the pod's constraints with {@code whenUnsatisfiable == action}, or the default ones
   * when the pod has none.
   *
   * @throws IllegalArgumentException when a selector does not parse
   */
  List<SpreadConstraint> constraints(PodInfo pod, String action) {
    if (!pod.topologySpreadConstraints().isEmpty()) {
      return SpreadConstraint.convert(
          pod.topologySpreadConstraints(), pod.labels(), action, enableMatchLabelKeys);
    }
    return defaultConstraints(pod, action);
  }

  private static @Nullable Map<String, List<SpreadConstraint>> convertedDefaults(
      List<V1TopologySpreadConstraint> defaults, boolean enableMatchLabelKeys) {
    for (V1TopologySpreadConstraint c : defaults) {
      if (c.getMatchLabelKeys() != null && !c.getMatchLabelKeys().isEmpty()) {
        return null;
      }
    }
    try {
      return Map.of(
          SpreadConstraint.DO_NOT_SCHEDULE,
          List.copyOf(
              SpreadConstraint.convert(
                  defaults, Map.of(), SpreadConstraint.DO_NOT_SCHEDULE, enableMatchLabelKeys)),
          SpreadConstraint.SCHEDULE_ANYWAY,
          List.copyOf(
              SpreadConstraint.convert(
                  defaults, Map.of(), SpreadConstraint.SCHEDULE_ANYWAY, enableMatchLabelKeys)));
    } catch (IllegalArgumentException e) {
      return null; // a selector that does not parse: reported per pod, as before
    }
  }

  private List<SpreadConstraint> defaultConstraints(PodInfo pod, String action) {
    if (defaultConstraints.isEmpty()) {
      return List.of();
    }
    List<SpreadConstraint> cs =
        defaultsWithoutMatchLabelKeys != null
            ? defaultsWithoutMatchLabelKeys.getOrDefault(action, List.of())
            : SpreadConstraint.convert(
                defaultConstraints, pod.labels(), action, enableMatchLabelKeys);
    if (cs.isEmpty()) {
      return cs;
    }
    if (handle.client() == null) {
      return List.of(); // no cluster objects to deduce a selector from
    }
    LabelSelector selector = DefaultSelector.of(pod, handle.client());
    if (selector.isEverything()) {
      return List.of();
    }
    List<SpreadConstraint> out = new ArrayList<>(cs.size());
    for (SpreadConstraint c : cs) {
      out.add(c.withSelector(selector));
    }
    return out;
  }

  // ---------------------------------------------------------------- PreFilter / Filter

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    List<SpreadConstraint> list;
    try {
      list = constraints(pod, SpreadConstraint.DO_NOT_SCHEDULE);
    } catch (IllegalArgumentException e) {
      String which =
          pod.topologySpreadConstraints().isEmpty()
              ? "setting default hard topology spread constraints: "
              : "obtaining pod's hard topology spread constraints: ";
      return PreFilterResult.of(
          Status.error("get constraints from pod: " + which + e.getMessage()));
    }
    if (list.isEmpty()) {
      return PreFilterResult.skip();
    }
    state.write(PRE_FILTER_KEY, computePreFilterState(pod, list, nodes));
    return PreFilterResult.success();
  }

  private PreFilterState computePreFilterState(
      PodInfo pod, List<SpreadConstraint> list, List<NodeInfo> nodes) {
    SpreadConstraint[] cs = list.toArray(new SpreadConstraint[0]);
    int nc = cs.length;
    ValueCounts[] counts = new ValueCounts[nc];
    CountMemo.Key key = CountMemo.keyOf(false, true, pod, cs);
    synchronized (memos) {
      ValueCounts[] totals =
          memos
              .get(key)
              .update(handle.snapshot(), nodes, pod, cs, true, false, handle.parallelizer());
      for (int j = 0; j < nc; j++) {
        counts[j] = totals[j].copy();
      }
    }
    PreFilterState.CriticalPaths[] paths = new PreFilterState.CriticalPaths[nc];
    boolean[] selfMatch = new boolean[nc];
    for (int j = 0; j < nc; j++) {
      paths[j] = new PreFilterState.CriticalPaths();
      ValueCounts m = counts[j];
      for (int s = 0; s < m.capacity(); s++) {
        if (m.keyAt(s) != null) {
          paths[j].update(m.keyAt(s), m.valueAt(s));
        }
      }
      selfMatch[j] = cs[j].selector().matches(pod.labels());
    }
    return new PreFilterState(cs, selfMatch, counts, paths);
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    return filterWith(state.get(PRE_FILTER_KEY), pod.key(), node);
  }

  /** The Filter with the PreFilter state read once for the cycle. */
  @Override
  public NodeCheck bindFilter(CycleState state, PodInfo pod) {
    return new BoundFilter(this, state.get(PRE_FILTER_KEY), pod.key());
  }

  /** Returns the Filter status of {@code node} under {@code s} for the pod {@code podKey}. */
  Status filterWith(PreFilterState s, String podKey, NodeInfo node) {
    SpreadConstraint[] cs = s.constraints;
    Map<String, String> labels = node.labels();
    for (int i = 0; i < cs.length; i++) {
      SpreadConstraint c = cs[i];
      String value = labels.get(c.topologyKey());
      if (value == null) {
        if (log.isTraceEnabled()) {
          log.atTrace()
              .setMessage("node lacks the topology key of a spread constraint")
              .addKeyValue("pod", podKey)
              .addKeyValue("node", node.name())
              .addKeyValue("plugin", NAME)
              .addKeyValue("topologyKey", c.topologyKey())
              .log();
        }
        return STATUS_LABEL_MISSING;
      }
      int skew = s.counts[i].get(value) + (s.selfMatch[i] ? 1 : 0) - s.minMatchNum(i);
      if (skew > c.maxSkew()) {
        return STATUS_SKEW;
      }
    }
    return Status.success();
  }

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    updateWithPod(state.get(PRE_FILTER_KEY), podToAdd, podToSchedule, node, 1);
    return Status.success();
  }

  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    updateWithPod(state.get(PRE_FILTER_KEY), podToRemove, podToSchedule, node, -1);
    return Status.success();
  }

  private static void updateWithPod(
      PreFilterState s, PodInfo updated, PodInfo preemptor, NodeInfo node, int delta) {
    if (!updated.namespace().equals(preemptor.namespace()) || node.node() == null) {
      return;
    }
    if (!SpreadConstraint.nodeHasAllKeys(node.labels(), s.constraints)) {
      return;
    }
    for (int i = 0; i < s.constraints.length; i++) {
      SpreadConstraint c = s.constraints[i];
      if (!c.selector().matches(updated.labels())
          || !c.matchesNodeInclusionPolicies(preemptor, node)) {
        continue;
      }
      String v = node.labels().get(c.topologyKey());
      int count = s.counts[i].add(v, delta);
      s.paths[i].update(v, count);
    }
  }

  // ---------------------------------------------------------------- PreScore / Score

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> filtered) {
    List<NodeInfo> all = handle.snapshot().list();
    if (all.isEmpty()) {
      return Status.skip();
    }
    boolean requireAll = !pod.topologySpreadConstraints().isEmpty() || !systemDefaulted;
    List<SpreadConstraint> list;
    try {
      list = constraints(pod, SpreadConstraint.SCHEDULE_ANYWAY);
    } catch (IllegalArgumentException e) {
      String which =
          pod.topologySpreadConstraints().isEmpty()
              ? "setting default soft topology spread constraints: "
              : "obtaining pod's soft topology spread constraints: ";
      return Status.error("calculating preScoreState: " + which + e.getMessage());
    }
    if (list.isEmpty()) {
      return Status.skip();
    }
    SpreadConstraint[] cs = list.toArray(new SpreadConstraint[0]);
    int nc = cs.length;
    boolean[] hostname = new boolean[nc];
    ValueCounts[] counts = new ValueCounts[nc];
    int[] domains = new int[nc];
    for (int j = 0; j < nc; j++) {
      hostname[j] = LABEL_HOSTNAME.equals(cs[j].topologyKey());
      counts[j] = new ValueCounts(hostname[j] ? filtered.size() : 8);
    }
    Set<String> ignored = new HashSet<>();
    // each feasible node's value of each constraint's key, null when it lacks it
    String[] keys = new String[nc];
    for (int j = 0; j < nc; j++) {
      keys[j] = cs[j].topologyKey();
    }
    String[] values = new String[filtered.size() * nc];
    if (!fillFromColumns(filtered, keys, values)) {
      topologyValues.fill(handle.snapshot(), filtered, keys, values);
    }
    for (int i = 0, f = filtered.size(); i < f; i++) {
      boolean hasAll = true;
      for (int j = 0; j < nc; j++) {
        hasAll &= values[i * nc + j] != null;
      }
      if (requireAll && !hasAll) {
        ignored.add(filtered.get(i).name());
        continue;
      }
      for (int j = 0; j < nc; j++) {
        if (hostname[j]) {
          continue;
        }
        String v = values[i * nc + j] == null ? "" : values[i * nc + j];
        if (!counts[j].contains(v)) {
          counts[j].add(v, 0);
          domains[j]++;
        }
      }
    }
    double[] weights = new double[nc];
    for (int j = 0; j < nc; j++) {
      int size = hostname[j] ? filtered.size() - ignored.size() : domains[j];
      weights[j] = Math.log(size + 2);
    }

    String namespace = pod.namespace();
    CountMemo.Key key = CountMemo.keyOf(true, requireAll, pod, cs);
    synchronized (memos) {
      CountMemo memo = memos.get(key);
      ValueCounts[] totals =
          memo.update(handle.snapshot(), all, pod, cs, requireAll, true, handle.parallelizer());
      for (int j = 0; j < nc; j++) {
        if (hostname[j]) {
          // Hostname domains are single nodes: the feasible nodes' own pods.
          for (int i = 0, f = filtered.size(); i < f; i++) {
            NodeInfo node = filtered.get(i);
            counts[j].add(node.name(), memo.hostnameCount(node, j, cs, namespace));
          }
          continue;
        }
        ValueCounts m = counts[j];
        for (int s = 0; s < m.capacity(); s++) {
          String v = m.keyAt(s);
          if (v != null) {
            int c = totals[j].get(v);
            if (c > 0) {
              m.add(v, c);
            }
          }
        }
      }
    }
    // each feasible node's raw score, as scoreWith computes it, from the values read above
    long[] raw = new long[filtered.size()];
    for (int i = 0, f = filtered.size(); i < f; i++) {
      NodeInfo node = filtered.get(i);
      if (!ignored.isEmpty() && ignored.contains(node.name())) {
        continue;
      }
      double score = 0;
      for (int j = 0; j < nc; j++) {
        String v = values[i * nc + j];
        if (v == null) {
          continue;
        }
        int count = hostname[j] ? counts[j].get(node.name()) : counts[j].get(v);
        score += count * weights[j] + (cs[j].maxSkew() - 1);
      }
      raw[i] = Math.round(score);
    }
    state.write(
        PRE_SCORE_KEY, new PreScoreState(cs, hostname, ignored, counts, weights, filtered, raw));
    return Status.success();
  }

  /**
   * Fills {@code out} as {@link TopologyValues#fill} does from the snapshot's label columns, when
   * {@code nodes} knows its rows and every key has a column; returns whether it did.
   */
  private static boolean fillFromColumns(List<NodeInfo> nodes, String[] keys, String[] out) {
    if (!(nodes instanceof NodeRows r) || r.columns() == null) {
      return false;
    }
    int nc = keys.length;
    String[][] byRow = LabelColumns.of(r.columns(), keys);
    if (byRow == null) {
      return false;
    }
    int[] rows = r.rows();
    for (int i = 0, f = nodes.size(); i < f; i++) {
      for (int j = 0; j < nc; j++) {
        out[i * nc + j] = byRow[j][rows[i]];
      }
    }
    return true;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return scoreWith(state.get(PRE_SCORE_KEY), node);
  }

  /** The Score with the PreScore state read once for the cycle. */
  @Override
  public NodeScorer bindScore(CycleState state, PodInfo pod) {
    return new BoundScore(state.get(PRE_SCORE_KEY));
  }

  /** Returns {@code node}'s raw score under {@code s}. */
  static long scoreWith(PreScoreState s, NodeInfo node) {
    if (!s.ignoredNodes.isEmpty() && s.ignoredNodes.contains(node.name())) {
      return 0;
    }
    Map<String, String> labels = node.labels();
    double score = 0;
    SpreadConstraint[] cs = s.constraints;
    for (int i = 0; i < cs.length; i++) {
      String v = labels.get(cs[i].topologyKey());
      if (v == null) {
        continue;
      }
      int count = s.hostname[i] ? s.counts[i].get(node.name()) : s.counts[i].get(v);
      score += count * s.weights[i] + (cs[i].maxSkew() - 1);
    }
    return Math.round(score);
  }

  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    PreScoreState s = state.get(PRE_SCORE_KEY);
    long min = Long.MAX_VALUE;
    long max = 0;
    int n = scores.size();
    boolean anyIgnored = !s.ignoredNodes.isEmpty();
    for (int i = 0; i < n; i++) {
      if (anyIgnored && s.ignoredNodes.contains(scores.name(i))) {
        continue;
      }
      long v = scores.score(i);
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    for (int i = 0; i < n; i++) {
      if (anyIgnored && s.ignoredNodes.contains(scores.name(i))) {
        scores.set(i, 0);
      } else if (max == 0) {
        scores.set(i, MAX_NODE_SCORE);
      } else {
        scores.set(i, MAX_NODE_SCORE * (max + min - scores.score(i)) / max);
      }
    }
    return Status.success();
  }

  // ---------------------------------------------------------------- events

  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.POD,
            ActionType.ADD
                | ActionType.UPDATE_POD_LABEL
                | ActionType.UPDATE_POD_TOLERATION
                | ActionType.DELETE,
            this::isSchedulableAfterPodChange),
        ClusterEventWithHint.of(
            EventResource.NODE,
            ActionType.ADD
                | ActionType.DELETE
                | ActionType.UPDATE_NODE_LABEL
                | ActionType.UPDATE_NODE_TAINT,
            this::isSchedulableAfterNodeChange));
  }

  QueueingHint isSchedulableAfterPodChange(V1Pod pod, Object oldObj, Object newObj) {
    V1Pod original = as(V1Pod.class, oldObj);
    V1Pod modified = as(V1Pod.class, newObj);
    if ((modified != null && !involvedInTopologySpreading(modified, pod))
        || (original != null && !involvedInTopologySpreading(original, pod))) {
      return QueueingHint.SKIP;
    }
    List<SpreadConstraint> cs = constraints(PodInfo.of(pod), SpreadConstraint.DO_NOT_SCHEDULE);
    if (modified != null && original != null) {
      if (uid(modified).equals(uid(pod))
          && !Objects.equals(tolerations(modified), tolerations(original))
          && hasHonorTaints(cs)) {
        return QueueingHint.QUEUE;
      }
      Map<String, String> oldLabels = labels(original);
      Map<String, String> newLabels = labels(modified);
      if (oldLabels.equals(newLabels)) {
        return QueueingHint.SKIP;
      }
      for (SpreadConstraint c : cs) {
        if (c.selector().matches(oldLabels) != c.selector().matches(newLabels)) {
          return QueueingHint.QUEUE;
        }
      }
      return QueueingHint.SKIP;
    }
    V1Pod changed = modified != null ? modified : original;
    if (changed == null) {
      return QueueingHint.QUEUE;
    }
    Map<String, String> l = labels(changed);
    for (SpreadConstraint c : cs) {
      if (c.selector().matches(l)) {
        return QueueingHint.QUEUE;
      }
    }
    return QueueingHint.SKIP;
  }

  QueueingHint isSchedulableAfterNodeChange(V1Pod pod, Object oldObj, Object newObj) {
    V1Node original = as(V1Node.class, oldObj);
    V1Node modified = as(V1Node.class, newObj);
    SpreadConstraint[] cs =
        constraints(PodInfo.of(pod), SpreadConstraint.DO_NOT_SCHEDULE)
            .toArray(new SpreadConstraint[0]);
    boolean originalMatching =
        original != null && SpreadConstraint.nodeHasAllKeys(labels(original), cs);
    boolean modifiedMatching =
        modified != null && SpreadConstraint.nodeHasAllKeys(labels(modified), cs);
    if (original != null && modified != null) {
      if (originalMatching != modifiedMatching) {
        return QueueingHint.QUEUE;
      }
      if (modifiedMatching
          && (topologyLabelsChanged(labels(original), labels(modified), cs)
              || !Objects.equals(taints(original), taints(modified)))) {
        return QueueingHint.QUEUE;
      }
      return QueueingHint.SKIP;
    }
    if (modified != null) {
      return modifiedMatching ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }
    return originalMatching ? QueueingHint.QUEUE : QueueingHint.SKIP;
  }

  private static boolean topologyLabelsChanged(
      Map<String, String> a, Map<String, String> b, SpreadConstraint[] cs) {
    for (SpreadConstraint c : cs) {
      if (!a.getOrDefault(c.topologyKey(), "").equals(b.getOrDefault(c.topologyKey(), ""))) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasHonorTaints(List<SpreadConstraint> cs) {
    for (SpreadConstraint c : cs) {
      if (c.honorNodeTaints()) {
        return true;
      }
    }
    return false;
  }

  private static boolean involvedInTopologySpreading(V1Pod incoming, V1Pod withSpreading) {
    if (uid(incoming).equals(uid(withSpreading))) {
      return true;
    }
    String nodeName = incoming.getSpec() == null ? null : incoming.getSpec().getNodeName();
    return nodeName != null
        && !nodeName.isEmpty()
        && namespace(incoming).equals(namespace(withSpreading));
  }

  private static <T> T as(Class<T> type, Object o) {
    if (o == null) {
      return null;
    }
    if (!type.isInstance(o)) {
      throw new IllegalArgumentException(
          "expected a " + type.getSimpleName() + ", got " + o.getClass().getName());
    }
    return type.cast(o);
  }

  private static String namespace(V1Pod p) {
    String ns = p.getMetadata() == null ? null : p.getMetadata().getNamespace();
    return ns == null ? "" : ns;
  }

  private static String uid(V1Pod p) {
    String uid = p.getMetadata() == null ? null : p.getMetadata().getUid();
    if (uid != null && !uid.isEmpty()) {
      return uid;
    }
    String name = p.getMetadata() == null ? null : p.getMetadata().getName();
    return namespace(p) + "/" + (name == null ? "" : name);
  }

  private static Map<String, String> labels(V1Pod p) {
    Map<String, String> l = p.getMetadata() == null ? null : p.getMetadata().getLabels();
    return l == null ? Map.of() : l;
  }

  private static Map<String, String> labels(V1Node n) {
    Map<String, String> l = n.getMetadata() == null ? null : n.getMetadata().getLabels();
    return l == null ? Map.of() : l;
  }

  private static Object tolerations(V1Pod p) {
    return p.getSpec() == null || p.getSpec().getTolerations() == null
        ? List.of()
        : p.getSpec().getTolerations();
  }

  private static Object taints(V1Node n) {
    return n.getSpec() == null || n.getSpec().getTaints() == null
        ? List.of()
        : n.getSpec().getTaints();
  }

  /**
   * Signs a pod without spreading constraints (its own or defaulted) with an empty fragment;
   * unsignable otherwise, since its results depend on where other pods run.
   */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    try {
      if (constraints(pod, SpreadConstraint.DO_NOT_SCHEDULE).isEmpty()
          && constraints(pod, SpreadConstraint.SCHEDULE_ANYWAY).isEmpty()) {
        return Optional.of("");
      }
    } catch (IllegalArgumentException e) {
      // a selector that does not parse: PreFilter reports it
    }
    return Optional.empty();
  }
}
