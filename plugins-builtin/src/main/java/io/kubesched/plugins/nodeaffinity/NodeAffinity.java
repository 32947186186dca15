package io.kubesched.plugins.nodeaffinity;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PreferredSchedulingTerm;
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
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.NodeSelector;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.framework.WeightedNodeSelectorTerm;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.EventObjects;
import io.kubesched.plugins.helper.LastFragment;
import io.kubesched.plugins.helper.ScoreNormalization;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code NodeAffinity} is a plugin that checks a pod's node selector and required node affinity
 * (plus the profile's added affinity) in Filter, narrows the nodes to those named by {@code
 * metadata.name} field terms in PreFilter, and scores nodes by the weights of the preferred terms
 * they match.
 */
public final class NodeAffinity
    implements PreFilterPlugin,
        FilterPlugin,
        CycleBoundFilter,
        PreScorePlugin,
        ScorePlugin,
        CycleBoundScore,
        ScoreExtensions,
        EnqueueExtensions,
        SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.NODE_AFFINITY;

  /** The reason for a node that does not match the pod's node selector or required affinity. */
  public static final String REASON_POD = "node(s) didn't match Pod's node affinity/selector";

  /** The reason for a node that does not match the profile's added affinity. */
  public static final String REASON_ENFORCED =
      "node(s) didn't match scheduler-enforced node affinity";

  /** The PreFilter reason when the {@code metadata.name} terms leave no node. */
  public static final String REASON_CONFLICT = "pod affinity terms conflict";

  static final StateKey<PreFilterState> PRE_FILTER_KEY =
      StateKey.of("PreFilter" + NAME, PreFilterState.class);
  static final StateKey<PreScoreState> PRE_SCORE_KEY =
      StateKey.of("PreScore" + NAME, PreScoreState.class);

  private static final String NODE_NAME_FIELD = "metadata.name";
  private static final Status POD_MISMATCH = Status.unresolvable(REASON_POD);
  private static final Status ENFORCED_MISMATCH = Status.unresolvable(REASON_ENFORCED);
  private static final String[] NO_STRINGS = new String[0];

  private final NodeSelector addedNodeSelector;
  private final List<WeightedNodeSelectorTerm> addedPreferredTerms;

  /**
   * The pod's required node selector and affinity, computed in PreFilter.
   *
   * @param selectorKeys the keys of {@code spec.nodeSelector}
   * @param selectorValues the values, index-aligned with the keys
   * @param requiredTerms the required node affinity terms (ORed), or {@code null} when the pod has
   *     no required node affinity
   * @param validTerms whether each term's label keys and values are valid; an invalid term matches
   *     nothing, as kube's label requirement parsing rejects it
   */
  record PreFilterState(
      String[] selectorKeys,
      String[] selectorValues,
      NodeSelector.Term[] requiredTerms,
      boolean[] validTerms)
      implements StateData {
    static PreFilterState of(PodInfo pod) {
      Map<String, String> sel = pod.nodeSelector();
      String[] keys = sel.keySet().toArray(NO_STRINGS);
      String[] values = new String[keys.length];
      for (int i = 0; i < keys.length; i++) {
        values[i] = sel.get(keys[i]);
      }
      NodeSelector required = pod.requiredNodeAffinity();
      if (required == null) {
        return new PreFilterState(keys, values, null, null);
      }
      NodeSelector.Term[] terms = required.terms().toArray(new NodeSelector.Term[0]);
      boolean[] valid = new boolean[terms.length];
      List<V1NodeSelectorTerm> raw = requiredAffinity(pod.pod()).getNodeSelectorTerms();
      for (int i = 0; i < terms.length; i++) {
        valid[i] = raw == null || i >= raw.size() || LabelValidation.validTerm(raw.get(i));
      }
      return new PreFilterState(keys, values, terms, valid);
    }

    boolean matches(NodeInfo node) {
      Map<String, String> labels = node.labels();
      for (int i = 0; i < selectorKeys.length; i++) {
        if (!selectorValues[i].equals(labels.get(selectorKeys[i]))) {
          return false;
        }
      }
      if (requiredTerms == null) {
        return true;
      }
      for (int i = 0; i < requiredTerms.length; i++) {
        if (validTerms[i] && requiredTerms[i].matches(node.name(), labels)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * The pod's preferred terms, computed in PreScore.
   *
   * @param preferred the terms with their weights; {@code null} when the pod has none
   */
  record PreScoreState(List<WeightedNodeSelectorTerm> preferred) implements StateData {}

  /** Creates the plugin with validated {@code args}. */
  public NodeAffinity(NodeAffinityArgs args) {
    var added = args.addedAffinity();
    V1NodeSelector required =
        added == null ? null : added.getRequiredDuringSchedulingIgnoredDuringExecution();
    this.addedNodeSelector = required == null ? null : NodeSelector.compile(required);
    List<V1PreferredSchedulingTerm> preferred =
        added == null ? null : added.getPreferredDuringSchedulingIgnoredDuringExecution();
    if (preferred == null || preferred.isEmpty()) {
      this.addedPreferredTerms = null;
    } else {
      List<WeightedNodeSelectorTerm> terms = new ArrayList<>();
      for (V1PreferredSchedulingTerm t : preferred) {
        if (t.getWeight() == null || t.getWeight() == 0 || t.getPreference() == null) {
          continue;
        }
        terms.add(
            new WeightedNodeSelectorTerm(
                NodeSelector.Term.compile(t.getPreference()), t.getWeight()));
      }
      this.addedPreferredTerms = List.copyOf(terms);
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Skips pods with neither node selector nor required affinity (when no affinity is added);
   * otherwise stores the requirements and returns the nodes named by {@code metadata.name In} field
   * terms: intersected within a term, united across terms, all nodes as soon as one term has none.
   * An empty result is {@code UnschedulableAndUnresolvable} "pod affinity terms conflict".
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    V1NodeSelector required = requiredAffinity(pod.pod());
    boolean noNodeAffinity = required == null;
    // client-java initialises absent maps to empty ones, so empty stands for kube's nil here.
    boolean noNodeSelector = pod.nodeSelector().isEmpty();
    if (noNodeAffinity && addedNodeSelector == null && noNodeSelector) {
      return PreFilterResult.skip();
    }
    state.write(PRE_FILTER_KEY, PreFilterState.of(pod));
    if (noNodeAffinity
        || required.getNodeSelectorTerms() == null
        || required.getNodeSelectorTerms().isEmpty()) {
      return PreFilterResult.success();
    }
    Set<String> nodeNames = null;
    for (V1NodeSelectorTerm term : required.getNodeSelectorTerms()) {
      Set<String> termNames = null;
      if (term.getMatchFields() != null) {
        for (V1NodeSelectorRequirement r : term.getMatchFields()) {
          if (NODE_NAME_FIELD.equals(r.getKey()) && "In".equals(r.getOperator())) {
            Set<String> s = r.getValues() == null ? new HashSet<>() : new HashSet<>(r.getValues());
            if (termNames == null) {
              termNames = s;
            } else {
              termNames.retainAll(s);
            }
          }
        }
      }
      if (termNames == null) {
        return PreFilterResult.success();
      }
      if (nodeNames == null) {
        nodeNames = new HashSet<>();
      }
      nodeNames.addAll(termNames);
    }
    if (nodeNames != null && nodeNames.isEmpty()) {
      return PreFilterResult.of(Status.unresolvable(REASON_CONFLICT));
    }
    return nodeNames == null ? PreFilterResult.success() : PreFilterResult.nodes(nodeNames);
  }

  private static V1NodeSelector requiredAffinity(V1Pod pod) {
    V1Affinity a = pod.getSpec() == null ? null : pod.getSpec().getAffinity();
    if (a == null || a.getNodeAffinity() == null) {
      return null;
    }
    return a.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (addedNodeSelector != null && !addedNodeSelector.matches(node.name(), node.labels())) {
      return ENFORCED_MISMATCH;
    }
    return filterWith(preFilterState(state, pod), node);
  }

  /** The Filter with the PreFilter state read once for the cycle. */
  @Override
  public NodeCheck bindFilter(CycleState state, PodInfo pod) {
    PreFilterState s = preFilterState(state, pod);
    return new NodeCheck() {
      @Override
      public Status filter(NodeInfo node) {
        if (addedNodeSelector != null && !addedNodeSelector.matches(node.name(), node.labels())) {
          return ENFORCED_MISMATCH;
        }
        return filterWith(s, node);
      }

      @Override
      public void filterAll(
          NodeInfo[] nodes, int count, NodeColumns columns, int[] rows, Status[] out) {
        for (int k = 0; k < count; k++) {
          out[k] = filter(nodes[k]);
        }
      }
    };
  }

  private static PreFilterState preFilterState(CycleState state, PodInfo pod) {
    PreFilterState s = state.read(PRE_FILTER_KEY).orElse(null);
    return s != null ? s : PreFilterState.of(pod);
  }

  private static Status filterWith(PreFilterState s, NodeInfo node) {
    return s.matches(node) ? Status.success() : POD_MISMATCH;
  }

  /**
   * Skips pods without preferred terms (when no preferred affinity is added); a preferred term that
   * does not parse is an error.
   */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    if (nodes.isEmpty()) {
      return Status.success();
    }
    if (pod.preferredNodeAffinityError() != null) {
      return Status.error(pod.preferredNodeAffinityError());
    }
    List<WeightedNodeSelectorTerm> preferred = preferred(pod);
    if (preferred == null && addedPreferredTerms == null) {
      return Status.skip();
    }
    state.write(PRE_SCORE_KEY, new PreScoreState(preferred));
    return Status.success();
  }

  private static List<WeightedNodeSelectorTerm> preferred(PodInfo pod) {
    V1Affinity a = pod.pod().getSpec() == null ? null : pod.pod().getSpec().getAffinity();
    if (a == null
        || a.getNodeAffinity() == null
        || a.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution() == null
        || a.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution().isEmpty()) {
      return null;
    }
    return pod.preferredNodeAffinity();
  }

  /**
   * Returns the sum of the weights of the preferred terms (added and the pod's) the node matches.
   */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return scoreWith(preferredTerms(state, pod), node);
  }

  /** The Score with the pod's preferred terms read once for the cycle. */
  @Override
  public NodeScorer bindScore(CycleState state, PodInfo pod) {
    List<WeightedNodeSelectorTerm> preferred = preferredTerms(state, pod);
    return new NodeScorer() {
      @Override
      public long score(NodeInfo node) {
        return scoreWith(preferred, node);
      }

      @Override
      public void scoreAll(
          List<NodeInfo> nodes, int from, int to, NodeColumns columns, int[] rows, long[] out) {
        for (int i = from; i < to; i++) {
          out[i] = scoreWith(preferred, nodes.get(i));
        }
      }
    };
  }

  private static List<WeightedNodeSelectorTerm> preferredTerms(CycleState state, PodInfo pod) {
    PreScoreState s = state.read(PRE_SCORE_KEY).orElse(null);
    if (s != null) {
      return s.preferred();
    }
    if (pod.preferredNodeAffinityError() != null) {
      throw new IllegalStateException(pod.preferredNodeAffinityError());
    }
    return preferred(pod);
  }

  private long scoreWith(List<WeightedNodeSelectorTerm> preferred, NodeInfo node) {
    long count = 0;
    if (addedPreferredTerms != null) {
      count += sumMatching(addedPreferredTerms, node);
    }
    if (preferred != null) {
      count += sumMatching(preferred, node);
    }
    return count;
  }

  private static long sumMatching(List<WeightedNodeSelectorTerm> terms, NodeInfo node) {
    long sum = 0;
    for (int i = 0; i < terms.size(); i++) {
      WeightedNodeSelectorTerm t = terms.get(i);
      if (t.term().matches(node.name(), node.labels())) {
        sum += t.weight();
      }
    }
    return sum;
  }

  /** Scales the scores onto [0, 100] relative to the highest. */
  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    ScoreNormalization.defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
    return Status.success();
  }

  /** Registers node additions and label changes. */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.NODE,
            ActionType.ADD | ActionType.UPDATE_NODE_LABEL,
            this::isSchedulableAfterNodeChange));
  }

  /**
   * Queues the pod when an added node matches its required affinity (and the added affinity), or an
   * updated node newly matches it.
   */
  QueueingHint isSchedulableAfterNodeChange(V1Pod pod, Object oldObj, Object newObj) {
    V1Node original = EventObjects.as(V1Node.class, oldObj);
    V1Node modified = EventObjects.required(V1Node.class, newObj);
    if (addedNodeSelector != null
        && !addedNodeSelector.matches(nodeName(modified), labels(modified))) {
      return QueueingHint.SKIP;
    }
    PreFilterState required = PreFilterState.of(PodInfo.of(pod));
    if (!matches(required, modified)) {
      return QueueingHint.SKIP;
    }
    if (original == null) {
      return QueueingHint.QUEUE;
    }
    return matches(required, original) ? QueueingHint.SKIP : QueueingHint.QUEUE;
  }

  private static boolean matches(PreFilterState s, V1Node node) {
    return s.matches(NodeInfo.of(node));
  }

  private static String nodeName(V1Node n) {
    return n.getMetadata() == null ? null : n.getMetadata().getName();
  }

  private static Map<String, String> labels(V1Node n) {
    return n.getMetadata() == null || n.getMetadata().getLabels() == null
        ? Map.of()
        : n.getMetadata().getLabels();
  }

  /**
   * Signs the pod by its node selector and node affinity (the plugin's added affinity is fixed).
   */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    var spec = pod.pod().getSpec();
    if (spec == null) {
      return Optional.of("");
    }
    Object nodeAffinity = spec.getAffinity() == null ? null : spec.getAffinity().getNodeAffinity();
    return selectorFragments.of(new LastFragment.Pair<>(spec.getNodeSelector(), nodeAffinity));
  }

  /** What a pod signs: its node selector and node affinity (never changed in place). */
  private final LastFragment<LastFragment.Pair<Map<String, String>, Object>> selectorFragments =
      new LastFragment<>(k -> k.first() + "/" + k.second());
}
