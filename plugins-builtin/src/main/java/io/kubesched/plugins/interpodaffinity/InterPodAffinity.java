package io.kubesched.plugins.interpodaffinity;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.AffinityTerm;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
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
import io.kubesched.framework.WeightedAffinityTerm;
import io.kubesched.plugins.helper.LastFragment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code InterPodAffinity} is a plugin that places pods near (affinity) or away from
 * (anti-affinity) other pods by topology domain (kube-scheduler v1.33).
 *
 * <p>Required terms of the incoming pod and the required anti-affinity of existing pods are
 * enforced in Filter from three counters built once in PreFilter; preferred terms of both sides
 * (and existing pods' required affinity, weighted by {@code hardPodAffinityWeight}) rank nodes in
 * Score from sums built once in PreScore. Those counters and sums add up per-node contributions
 * that are kept across cycles in a {@link PairMemo} (only nodes whose info or generation changed
 * are computed again), with results identical to computing afresh. Thread-safe: per-cycle data
 * lives in the {@link CycleState}; the memos are guarded by a lock.
 */
public final class InterPodAffinity
    implements PreFilterPlugin,
        PreFilterExtensions,
        CycleBoundFilter,
        PreScorePlugin,
        CycleBoundScore,
        ScoreExtensions,
        EnqueueExtensions,
        SignPlugin {

  /** The plugin's name. */
  public static final String NAME = "InterPodAffinity";

  /** Filter reason when the node breaks an existing pod's required anti-affinity. */
  public static final String REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
      "node(s) didn't satisfy existing pods anti-affinity rules";

  /** Filter reason when the node breaks the pod's required affinity. */
  public static final String REASON_AFFINITY_RULES_NOT_MATCH =
      "node(s) didn't match pod affinity rules";

  /** Filter reason when the node breaks the pod's required anti-affinity. */
  public static final String REASON_ANTI_AFFINITY_RULES_NOT_MATCH =
      "node(s) didn't match pod anti-affinity rules";

  static final StateKey<PreFilterState> PRE_FILTER_KEY =
      StateKey.of("PreFilter" + NAME, PreFilterState.class);
  static final StateKey<PreScoreState> PRE_SCORE_KEY =
      StateKey.of("PreScore" + NAME, PreScoreState.class);

  static final Status STATUS_AFFINITY = Status.unresolvable(REASON_AFFINITY_RULES_NOT_MATCH);
  static final Status STATUS_ANTI_AFFINITY =
      Status.unschedulable(REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
  static final Status STATUS_EXISTING_ANTI_AFFINITY =
      Status.unschedulable(REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);

  private final FrameworkHandle handle;
  private final InterPodAffinityArgs args;

  /** Sums kept across cycles; guarded by itself. */
  private final PairMemo.Store memos = new PairMemo.Store();

  /**
   * Creates the plugin.
   *
   * @param args validated arguments
   * @param handle the framework handle: its snapshot, parallelizer and cluster client are used
   */
  public InterPodAffinity(InterPodAffinityArgs args, FrameworkHandle handle) {
    this.args = Objects.requireNonNull(args, "args must not be null");
    this.handle = Objects.requireNonNull(handle, "handle must not be null");
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Returns whether {@code pod} matches every term; {@code false} when there are none. */
  static boolean matchesAll(AffinityTerm[] terms, PodInfo pod) {
    if (terms.length == 0) {
      return false;
    }
    for (AffinityTerm t : terms) {
      if (!t.matches(pod, null)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Replaces a term's namespace selector by the names of the namespaces it selects (kube's {@code
   * mergeAffinityTermNamespacesIfNotEmpty}); an empty selector (all namespaces) stays.
   */
  private AffinityTerm resolveNamespaces(AffinityTerm term, List<V1Namespace>[] cache) {
    if (term.namespaceSelector().isEverything()) {
      return term;
    }
    Set<String> names = new HashSet<>(term.namespaces());
    if (!term.namespaceSelector().isNothing()) {
      if (cache[0] == null) {
        ClusterClient client = handle.client();
        cache[0] = client == null ? List.of() : client.listNamespaces();
      }
      for (V1Namespace ns : cache[0]) {
        Map<String, String> labels = ns.getMetadata() == null ? null : ns.getMetadata().getLabels();
        if (term.namespaceSelector().matches(labels == null ? Map.of() : labels)
            && ns.getMetadata().getName() != null) {
          names.add(ns.getMetadata().getName());
        }
      }
    }
    return term.withResolvedNamespaces(names);
  }

  /** Returns the labels of {@code namespace}; empty when unknown or without a cluster client. */
  private Map<String, String> namespaceLabels(String namespace) {
    ClusterClient client = handle.client();
    Map<String, String> labels = client == null ? null : client.namespaceLabels(namespace);
    return labels == null ? Map.of() : labels;
  }

  private AffinityTerm[] resolveAll(List<AffinityTerm> terms, List<V1Namespace>[] cache) {
    AffinityTerm[] out = new AffinityTerm[terms.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = resolveNamespaces(terms.get(i), cache);
    }
    return out;
  }

  private ResolvedWeighted[] resolveWeighted(
      List<WeightedAffinityTerm> terms, List<V1Namespace>[] cache) {
    ResolvedWeighted[] out = new ResolvedWeighted[terms.size()];
    for (int i = 0; i < out.length; i++) {
      WeightedAffinityTerm w = terms.get(i);
      out[i] = new ResolvedWeighted(resolveNamespaces(w.term(), cache), w.weight());
    }
    return out;
  }

  private record ResolvedWeighted(AffinityTerm term, int weight) {}

  // ---------------------------------------------------------------- PreFilter / Filter

  @Override
  @SuppressWarnings("unchecked")
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    if (pod.affinityParseError() != null) {
      return PreFilterResult.of(Status.unresolvable("parsing pod: " + pod.affinityParseError()));
    }
    List<NodeInfo> withAnti = handle.snapshot().havePodsWithRequiredAntiAffinityList();
    if (withAnti.isEmpty()
        && pod.requiredAffinityTerms().isEmpty()
        && pod.requiredAntiAffinityTerms().isEmpty()) {
      // no existing pod's anti-affinity to count and no term of its own: what the sums below
      // would conclude, without reading a memo
      return PreFilterResult.skip();
    }
    List<V1Namespace>[] cache = new List[1];
    AffinityTerm[] affinity = resolveAll(pod.requiredAffinityTerms(), cache);
    AffinityTerm[] anti = resolveAll(pod.requiredAntiAffinityTerms(), cache);
    Map<String, String> nsLabels = namespaceLabels(pod.namespace());

    TopologyCounts existingAnti =
        withAnti.isEmpty()
            ? new TopologyCounts()
            : existingAntiAffinityCounts(pod, nsLabels, memoNodes(withAnti));
    TopologyCounts[] incoming = incomingCounts(affinity, anti, nodes);

    if (existingAnti.isEmpty() && affinity.length == 0 && anti.length == 0) {
      return PreFilterResult.skip();
    }
    state.write(
        PRE_FILTER_KEY,
        new PreFilterState(pod, affinity, anti, nsLabels, existingAnti, incoming[0], incoming[1]));
    return PreFilterResult.success();
  }

  private TopologyCounts existingAntiAffinityCounts(
      PodInfo pod, Map<String, String> nsLabels, List<NodeInfo> nodes) {
    List<Object> key = Arrays.asList("existingAnti", pod.namespace(), pod.labels(), nsLabels);
    return memoSum(
        key,
        nodes,
        node -> {
          Map<String, String> labels = node.labels();
          TopologyCounts local = null;
          for (PodInfo existing : node.podsWithRequiredAntiAffinity()) {
            for (AffinityTerm t : existing.requiredAntiAffinityTerms()) {
              if (t.matches(pod, nsLabels) && labels.containsKey(t.topologyKey())) {
                if (local == null) {
                  local = new TopologyCounts();
                }
                local.addForNode(labels, t.topologyKey(), 1);
              }
            }
          }
          return local;
        });
  }

  /**
   * Returns the nodes to sum a contribution over that only the nodes of {@code subList} (one of the
   * snapshot's has-affinity lists) make, every other node contributing nothing: the snapshot's
   * whole list when it keeps a journal, so that the memo looks again only at the nodes the journal
   * names (a sub-list shifts its positions whenever a node enters or leaves it, and the memo would
   * then compare the nodes past that point by name); the sub-list otherwise. The sums are the same.
   */
  private List<NodeInfo> memoNodes(List<NodeInfo> subList) {
    NodeInfoLister lister = handle.snapshot();
    return lister.journal() != null ? lister.list() : subList;
  }

  /** Returns the sum of {@code compute} over {@code nodes}, from the memo of {@code key}. */
  private TopologyCounts memoSum(
      List<Object> key, List<NodeInfo> nodes, Function<NodeInfo, TopologyCounts> compute) {
    synchronized (memos) {
      return memos.get(key).update(handle.snapshot(), nodes, compute, handle.parallelizer());
    }
  }

  /** Returns what identifies {@code terms} for a memo key (selectors have no equality). */
  private static List<Object> termsKey(AffinityTerm[] terms) {
    List<Object> out = new ArrayList<>(terms.length * 6);
    for (AffinityTerm t : terms) {
      addTermKey(out, t);
    }
    return out;
  }

  private static void addTermKey(List<Object> out, AffinityTerm t) {
    out.add(t.namespaces());
    out.add(t.selector().isNothing());
    out.add(t.selector().requirements());
    out.add(String.valueOf(t.topologyKey()));
    out.add(t.namespaceSelector().isNothing());
    out.add(t.namespaceSelector().requirements());
  }

  private static List<Object> weightedKey(ResolvedWeighted[] terms) {
    List<Object> out = new ArrayList<>(terms.length * 7);
    for (ResolvedWeighted w : terms) {
      addTermKey(out, w.term());
      out.add(w.weight());
    }
    return out;
  }

  private TopologyCounts[] incomingCounts(
      AffinityTerm[] affinity, AffinityTerm[] anti, List<NodeInfo> nodes) {
    TopologyCounts affinityCounts = new TopologyCounts();
    TopologyCounts antiCounts = new TopologyCounts();
    if (affinity.length > 0) {
      affinityCounts =
          memoSum(
              Arrays.asList("affinity", termsKey(affinity)),
              nodes,
              node -> {
                Map<String, String> labels = node.labels();
                TopologyCounts aff = null;
                List<PodInfo> pods = node.pods();
                for (int p = 0, size = pods.size(); p < size; p++) {
                  if (matchesAll(affinity, pods.get(p))) {
                    for (AffinityTerm t : affinity) {
                      if (labels.containsKey(t.topologyKey())) {
                        if (aff == null) {
                          aff = new TopologyCounts();
                        }
                        aff.addForNode(labels, t.topologyKey(), 1);
                      }
                    }
                  }
                }
                return aff;
              });
    }
    if (anti.length > 0) {
      antiCounts =
          memoSum(
              Arrays.asList("antiAffinity", termsKey(anti)),
              nodes,
              node -> {
                Map<String, String> labels = node.labels();
                TopologyCounts an = null;
                List<PodInfo> pods = node.pods();
                for (int p = 0, size = pods.size(); p < size; p++) {
                  PodInfo existing = pods.get(p);
                  for (AffinityTerm t : anti) {
                    if (t.matches(existing, null) && labels.containsKey(t.topologyKey())) {
                      if (an == null) {
                        an = new TopologyCounts();
                      }
                      an.addForNode(labels, t.topologyKey(), 1);
                    }
                  }
                }
                return an;
              });
    }
    return new TopologyCounts[] {affinityCounts, antiCounts};
  }

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    state.get(PRE_FILTER_KEY).updateWithPod(podToAdd, node, 1);
    return Status.success();
  }

  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    state.get(PRE_FILTER_KEY).updateWithPod(podToRemove, node, -1);
    return Status.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    return filterWith(state.get(PRE_FILTER_KEY), node.labels());
  }

  /** The Filter with the PreFilter state read once for the cycle. */
  @Override
  public NodeCheck bindFilter(CycleState state, PodInfo pod) {
    return new BoundFilter(state.get(PRE_FILTER_KEY));
  }

  /** Returns the Filter status of a node with {@code labels} under {@code s}. */
  static Status filterWith(PreFilterState s, Map<String, String> labels) {
    if (!satisfiesPodAffinity(s, labels)) {
      return STATUS_AFFINITY;
    }
    if (!s.antiAffinity.isEmpty()) {
      for (AffinityTerm t : s.antiAffinityTerms) {
        String v = labels.get(t.topologyKey());
        if (v != null && s.antiAffinity.get(t.topologyKey(), v) > 0) {
          return STATUS_ANTI_AFFINITY;
        }
      }
    }
    if (!s.existingAntiAffinity.isEmpty() && s.existingAntiAffinity.anyPositiveOnNode(labels)) {
      return STATUS_EXISTING_ANTI_AFFINITY;
    }
    return Status.success();
  }

  private static boolean satisfiesPodAffinity(PreFilterState s, Map<String, String> labels) {
    boolean podsExist = true;
    for (AffinityTerm t : s.affinityTerms) {
      String v = labels.get(t.topologyKey());
      if (v == null) {
        return false;
      }
      if (s.affinity.get(t.topologyKey(), v) <= 0) {
        podsExist = false;
      }
    }
    if (!podsExist) {
      // The first pod of a group with affinity to itself: allowed if no pod matches yet.
      return s.affinity.isEmpty() && s.matchesOwnAffinity;
    }
    return true;
  }

  // ---------------------------------------------------------------- PreScore / Score

  @Override
  @SuppressWarnings("unchecked")
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> filtered) {
    if (filtered.isEmpty()) {
      return Status.skip();
    }
    V1Affinity affinity = pod.pod().getSpec() == null ? null : pod.pod().getSpec().getAffinity();
    boolean hasPreferredAffinity =
        affinity != null
            && affinity.getPodAffinity() != null
            && affinity.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()
                != null
            && !affinity
                .getPodAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution()
                .isEmpty();
    boolean hasPreferredAnti =
        affinity != null
            && affinity.getPodAntiAffinity() != null
            && affinity.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()
                != null
            && !affinity
                .getPodAntiAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution()
                .isEmpty();
    boolean hasConstraints = hasPreferredAffinity || hasPreferredAnti;
    if (args.ignorePreferredTermsOfExistingPods() && !hasConstraints) {
      return Status.skip();
    }
    List<NodeInfo> withAffinity =
        hasConstraints ? null : handle.snapshot().havePodsWithAffinityList();
    if (pod.affinityParseError() != null) {
      return Status.error("failed to parse pod: " + pod.affinityParseError());
    }
    if (withAffinity != null && withAffinity.isEmpty()) {
      // no preferred term of its own and no existing pod with affinity: nothing to score
      return Status.skip();
    }
    List<NodeInfo> nodes = hasConstraints ? handle.snapshot().list() : memoNodes(withAffinity);
    List<V1Namespace>[] cache = new List[1];
    ResolvedWeighted[] preferred = resolveWeighted(pod.preferredAffinityTerms(), cache);
    ResolvedWeighted[] preferredAnti = resolveWeighted(pod.preferredAntiAffinityTerms(), cache);
    Map<String, String> nsLabels = namespaceLabels(pod.namespace());
    int hardWeight = args.hardPodAffinityWeight();

    List<Object> key =
        Arrays.asList(
            "preScore",
            hasConstraints,
            weightedKey(preferred),
            weightedKey(preferredAnti),
            hardWeight,
            pod.namespace(),
            pod.labels(),
            nsLabels);
    TopologyCounts scores =
        memoSum(
            key,
            nodes,
            node -> {
              Map<String, String> labels = node.labels();
              if (labels.isEmpty()) {
                return null;
              }
              List<PodInfo> pods = hasConstraints ? node.pods() : node.podsWithAffinity();
              TopologyCounts local = null;
              for (int p = 0, size = pods.size(); p < size; p++) {
                PodInfo existing = pods.get(p);
                for (ResolvedWeighted w : preferred) {
                  local = processTerm(local, w.term(), w.weight(), existing, null, labels);
                }
                for (ResolvedWeighted w : preferredAnti) {
                  local = processTerm(local, w.term(), -w.weight(), existing, null, labels);
                }
                if (hardWeight > 0) {
                  for (AffinityTerm t : existing.requiredAffinityTerms()) {
                    local = processTerm(local, t, hardWeight, pod, nsLabels, labels);
                  }
                }
                for (WeightedAffinityTerm w : existing.preferredAffinityTerms()) {
                  local = processTerm(local, w.term(), w.weight(), pod, nsLabels, labels);
                }
                for (WeightedAffinityTerm w : existing.preferredAntiAffinityTerms()) {
                  local = processTerm(local, w.term(), -w.weight(), pod, nsLabels, labels);
                }
              }
              return local == null || local.neverWritten() ? null : local;
            });
    if (scores.neverWritten()) {
      return Status.skip();
    }
    state.write(PRE_SCORE_KEY, new PreScoreState(scores));
    return Status.success();
  }

  /**
   * Adds {@code weight} for the node's value of the term's key when {@code pod} matches the term
   * (kube's {@code processTerm}); returns {@code scores}, created on the first write.
   */
  private static TopologyCounts processTerm(
      TopologyCounts scores,
      AffinityTerm term,
      long weight,
      PodInfo pod,
      Map<String, String> nsLabels,
      Map<String, String> nodeLabels) {
    if (term.matches(pod, nsLabels) && nodeLabels.containsKey(term.topologyKey())) {
      TopologyCounts out = scores == null ? new TopologyCounts() : scores;
      out.addForNode(nodeLabels, term.topologyKey(), weight);
      return out;
    }
    return scores;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return state.get(PRE_SCORE_KEY).topologyScore.sumOnNode(node.labels());
  }

  /** The Score with the PreScore sums resolved once for the cycle. */
  @Override
  public NodeScorer bindScore(CycleState state, PodInfo pod) {
    return new BoundScore(state.get(PRE_SCORE_KEY));
  }

  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    PreScoreState s = state.get(PRE_SCORE_KEY);
    if (s.topologyScore.neverWritten()) {
      return Status.success();
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    int n = scores.size();
    for (int i = 0; i < n; i++) {
      long v = scores.score(i);
      max = Math.max(max, v);
      min = Math.min(min, v);
    }
    long diff = max - min;
    for (int i = 0; i < n; i++) {
      double f = 0;
      if (diff > 0) {
        f = MAX_NODE_SCORE * ((double) (scores.score(i) - min) / (double) diff);
      }
      scores.set(i, (long) f);
    }
    return Status.success();
  }

  // ---------------------------------------------------------------- events

  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.POD,
            ActionType.ADD | ActionType.UPDATE_POD_LABEL | ActionType.DELETE,
            this::isSchedulableAfterPodChange),
        ClusterEventWithHint.of(
            EventResource.NODE,
            ActionType.ADD | ActionType.UPDATE_NODE_LABEL,
            this::isSchedulableAfterNodeChange));
  }

  QueueingHint isSchedulableAfterPodChange(V1Pod pod, Object oldObj, Object newObj) {
    V1Pod original = as(V1Pod.class, oldObj);
    V1Pod modified = as(V1Pod.class, newObj);
    if ((modified != null && isUnassigned(modified))
        || (original != null && isUnassigned(original))) {
      return QueueingHint.SKIP;
    }
    PodInfo target = PodInfo.of(pod);
    if (target.affinityParseError() != null) {
      return QueueingHint.QUEUE;
    }
    AffinityTerm[] terms = target.requiredAffinityTerms().toArray(new AffinityTerm[0]);
    AffinityTerm[] antiTerms = target.requiredAntiAffinityTerms().toArray(new AffinityTerm[0]);
    if (modified != null && original != null) {
      PodInfo o = PodInfo.of(original);
      PodInfo m = PodInfo.of(modified);
      if (!matchesAll(terms, o) && matchesAll(terms, m)) {
        return QueueingHint.QUEUE;
      }
      if (matchesAll(antiTerms, o) && !matchesAll(antiTerms, m)) {
        return QueueingHint.QUEUE;
      }
      return QueueingHint.SKIP;
    }
    if (modified != null) {
      return matchesAll(terms, PodInfo.of(modified)) ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }
    if (original == null) {
      return QueueingHint.QUEUE;
    }
    return matchesAll(antiTerms, PodInfo.of(original)) ? QueueingHint.QUEUE : QueueingHint.SKIP;
  }

  QueueingHint isSchedulableAfterNodeChange(V1Pod pod, Object oldObj, Object newObj) {
    V1Node original = as(V1Node.class, oldObj);
    V1Node modified = as(V1Node.class, newObj);
    PodInfo target = PodInfo.of(pod);
    if (target.affinityParseError() != null) {
      return QueueingHint.QUEUE;
    }
    Map<String, String> oldLabels = labels(original);
    Map<String, String> newLabels = labels(modified);
    for (AffinityTerm t : target.requiredAffinityTerms()) {
      String key = t.topologyKey();
      if (original == null) {
        if (newLabels.containsKey(key)) {
          return QueueingHint.QUEUE;
        }
        continue;
      }
      String before = oldLabels.get(key);
      String after = newLabels.get(key);
      if (before == null && after != null) {
        return QueueingHint.QUEUE;
      }
      if (before != null && after != null && !before.equals(after)) {
        return QueueingHint.QUEUE;
      }
    }
    for (AffinityTerm t : target.requiredAntiAffinityTerms()) {
      if (original == null) {
        return QueueingHint.QUEUE;
      }
      String before = oldLabels.get(t.topologyKey());
      String after = newLabels.get(t.topologyKey());
      if (before != null && after == null) {
        return QueueingHint.QUEUE;
      }
      if (before != null && after != null && !before.equals(after)) {
        return QueueingHint.QUEUE;
      }
    }
    return QueueingHint.SKIP;
  }

  private static boolean isUnassigned(V1Pod p) {
    return p.getSpec() == null
        || p.getSpec().getNodeName() == null
        || p.getSpec().getNodeName().isEmpty();
  }

  private static Map<String, String> labels(V1Node n) {
    Map<String, String> l =
        n == null || n.getMetadata() == null ? null : n.getMetadata().getLabels();
    return l == null ? Map.of() : l;
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

  /**
   * Unsignable when the pod has pod affinity or anti-affinity of its own (its results then depend
   * on where the pods it matches run); otherwise signed by its namespace and labels, which decide
   * the existing pods' terms that match it.
   */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    if (pod.hasAffinity() || pod.affinityParseError() != null) {
      return Optional.empty();
    }
    return labelFragments.of(new LastFragment.Pair<>(pod.namespace(), pod.labels()));
  }

  /** What a pod without affinity terms signs: its namespace and labels. */
  private final LastFragment<LastFragment.Pair<String, Map<String, String>>> labelFragments =
      new LastFragment<>(k -> k.first() + "/" + new java.util.TreeMap<>(k.second()));
}
