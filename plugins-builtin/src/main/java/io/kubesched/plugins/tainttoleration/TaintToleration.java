package io.kubesched.plugins.tainttoleration;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubernetes.client.openapi.models.V1Toleration;
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
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.framework.Taint;
import io.kubesched.framework.Toleration;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.EventObjects;
import io.kubesched.plugins.helper.LastFragment;
import io.kubesched.plugins.helper.ScoreNormalization;
import io.kubesched.plugins.helper.Signatures;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code TaintToleration} is a plugin that checks if a pod tolerates a node's taints: Filter
 * rejects nodes with an untolerated {@code NoSchedule} or {@code NoExecute} taint, and Score
 * prefers nodes with fewer untolerated {@code PreferNoSchedule} taints.
 */
public final class TaintToleration
    implements FilterPlugin,
        CycleBoundFilter,
        PreScorePlugin,
        ScorePlugin,
        CycleBoundScore,
        ScoreExtensions,
        EnqueueExtensions,
        SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.TAINT_TOLERATION;

  /**
   * The format of the Filter reason, with the taint's key and value: {@code node(s) had untolerated
   * taint {key: value}}.
   */
  public static final String REASON_FORMAT = "node(s) had untolerated taint {%s: %s}";

  static final StateKey<PreScoreState> PRE_SCORE_KEY =
      StateKey.of("PreScore" + NAME, PreScoreState.class);

  /**
   * The pod's tolerations that apply to {@code PreferNoSchedule} taints (effect empty or {@code
   * PreferNoSchedule}), computed in PreScore.
   *
   * @param tolerationsPreferNoSchedule those tolerations
   */
  record PreScoreState(List<Toleration> tolerationsPreferNoSchedule) implements StateData {}

  // the state of most pods (their tolerations are the default NoExecute ones): one shared value
  private static final PreScoreState NO_PREFER_NO_SCHEDULE = new PreScoreState(List.of());

  /** Creates the plugin. */
  public TaintToleration() {}

  @Override
  public String name() {
    return NAME;
  }

  /** Returns the Filter reason for {@code taint}. */
  public static String untoleratedReason(Taint taint) {
    return "node(s) had untolerated taint {" + taint.key() + ": " + taint.value() + "}";
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    Taint taint = findUntoleratedDoNotScheduleTaint(node.taints(), pod.tolerations());
    if (taint == null) {
      return Status.success();
    }
    return Status.unresolvable(untoleratedReason(taint));
  }

  /** The Filter with the pod's tolerations read once for the cycle. */
  @Override
  public NodeCheck bindFilter(CycleState state, PodInfo pod) {
    List<Toleration> tolerations = pod.tolerations();
    return new NodeCheck() {
      @Override
      public Status filter(NodeInfo node) {
        Taint taint = findUntoleratedDoNotScheduleTaint(node.taints(), tolerations);
        return taint == null ? Status.success() : Status.unresolvable(untoleratedReason(taint));
      }

      @Override
      public void filterAll(
          NodeInfo[] nodes, int count, NodeColumns columns, int[] rows, Status[] out) {
        Status success = Status.success();
        for (int k = 0; k < count; k++) {
          boolean untainted =
              columns != null ? !columns.hasTaints(rows[k]) : nodes[k].taints().isEmpty();
          out[k] = untainted ? success : filter(nodes[k]);
        }
      }

      @Override
      public boolean passesAllRows(NodeColumns columns) {
        return columns.rowsWithTaints() == 0;
      }
    };
  }

  /**
   * Returns the first {@code NoSchedule}/{@code NoExecute} taint that no toleration tolerates, or
   * {@code null}.
   */
  static Taint findUntoleratedDoNotScheduleTaint(List<Taint> taints, List<Toleration> tolerations) {
    for (int i = 0; i < taints.size(); i++) {
      Taint t = taints.get(i);
      String effect = t.effect();
      if (!Taint.NO_SCHEDULE.equals(effect) && !Taint.NO_EXECUTE.equals(effect)) {
        continue;
      }
      if (!Toleration.anyTolerates(tolerations, t)) {
        return t;
      }
    }
    return null;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    if (nodes.isEmpty()) {
      return Status.success();
    }
    List<Toleration> prefer = preferNoScheduleTolerations(pod.tolerations());
    state.write(
        PRE_SCORE_KEY, prefer.isEmpty() ? NO_PREFER_NO_SCHEDULE : new PreScoreState(prefer));
    return Status.success();
  }

  private static List<Toleration> preferNoScheduleTolerations(List<Toleration> tolerations) {
    List<Toleration> out = null;
    for (int i = 0; i < tolerations.size(); i++) {
      Toleration t = tolerations.get(i);
      if (t.effect().isEmpty() || Taint.PREFER_NO_SCHEDULE.equals(t.effect())) {
        if (out == null) {
          out = new ArrayList<>(tolerations.size() - i);
        }
        out.add(t);
      }
    }
    return out == null ? List.of() : List.copyOf(out);
  }

  /** Returns the number of {@code PreferNoSchedule} taints the pod does not tolerate. */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return countIntolerable(state.get(PRE_SCORE_KEY).tolerationsPreferNoSchedule(), node);
  }

  /** The Score with the pod's PreferNoSchedule tolerations read once for the cycle. */
  @Override
  public NodeScorer bindScore(CycleState state, PodInfo pod) {
    List<Toleration> tolerations = state.get(PRE_SCORE_KEY).tolerationsPreferNoSchedule();
    return new NodeScorer() {
      @Override
      public long score(NodeInfo node) {
        return countIntolerable(tolerations, node);
      }

      @Override
      public void scoreAll(
          List<NodeInfo> nodes, int from, int to, NodeColumns columns, int[] rows, long[] out) {
        for (int i = from; i < to; i++) {
          boolean untainted =
              columns != null ? !columns.hasTaints(rows[i]) : nodes.get(i).taints().isEmpty();
          out[i] = untainted ? 0 : countIntolerable(tolerations, nodes.get(i));
        }
      }
    };
  }

  private static long countIntolerable(List<Toleration> tolerations, NodeInfo node) {
    List<Taint> taints = node.taints();
    long count = 0;
    for (int i = 0; i < taints.size(); i++) {
      Taint t = taints.get(i);
      if (Taint.PREFER_NO_SCHEDULE.equals(t.effect()) && !Toleration.anyTolerates(tolerations, t)) {
        count++;
      }
    }
    return count;
  }

  /** Reverses the counts onto [0, 100]: the fewest untolerated taints score highest. */
  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    ScoreNormalization.defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
    return Status.success();
  }

  /** Registers node additions and taint changes, and changes of the pod's own tolerations. */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.NODE,
            ActionType.ADD | ActionType.UPDATE_NODE_TAINT,
            TaintToleration::isSchedulableAfterNodeChange),
        ClusterEventWithHint.of(
            EventResource.POD,
            ActionType.UPDATE_POD_TOLERATION,
            TaintToleration::isSchedulableAfterPodTolerationChange));
  }

  /** Queues the pod when the node went from having an untolerated taint to having none. */
  static QueueingHint isSchedulableAfterNodeChange(V1Pod pod, Object oldObj, Object newObj) {
    V1Node original = EventObjects.as(V1Node.class, oldObj);
    V1Node modified = EventObjects.required(V1Node.class, newObj);
    List<Toleration> tolerations = tolerations(pod);
    boolean wasUntolerated =
        original == null
            || findUntoleratedDoNotScheduleTaint(taints(original), tolerations) != null;
    boolean isUntolerated =
        findUntoleratedDoNotScheduleTaint(taints(modified), tolerations) != null;
    return wasUntolerated && !isUntolerated ? QueueingHint.QUEUE : QueueingHint.SKIP;
  }

  /** Queues the pod when the update is to the pod itself. */
  static QueueingHint isSchedulableAfterPodTolerationChange(
      V1Pod pod, Object oldObj, Object newObj) {
    V1Pod modified = EventObjects.required(V1Pod.class, newObj);
    return Objects.equals(uid(pod), uid(modified)) ? QueueingHint.QUEUE : QueueingHint.SKIP;
  }

  private static List<Toleration> tolerations(V1Pod pod) {
    if (pod.getSpec() == null || pod.getSpec().getTolerations() == null) {
      return List.of();
    }
    List<Toleration> out = new ArrayList<>();
    for (V1Toleration t : pod.getSpec().getTolerations()) {
      out.add(Toleration.of(t));
    }
    return out;
  }

  private static List<Taint> taints(V1Node node) {
    if (node.getSpec() == null || node.getSpec().getTaints() == null) {
      return List.of();
    }
    List<Taint> out = new ArrayList<>();
    for (V1Taint t : node.getSpec().getTaints()) {
      out.add(Taint.of(t));
    }
    return out;
  }

  private static String uid(V1Pod p) {
    return p.getMetadata() == null ? null : p.getMetadata().getUid();
  }

  /** Signs the pod by its tolerations, the only pod field this plugin reads. */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    return tolerationFragments.of(pod.tolerations());
  }

  private final LastFragment<List<Toleration>> tolerationFragments =
      new LastFragment<>(Signatures::tolerations);
}
