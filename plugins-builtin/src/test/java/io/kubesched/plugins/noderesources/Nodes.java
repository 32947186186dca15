package io.kubesched.plugins.noderesources;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test helpers: a snapshot-like list of node infos and a score run. */
final class Nodes {
  private Nodes() {}

  /** Returns node infos for {@code nodes}, each holding the {@code pods} bound to it. */
  static List<NodeInfo> infos(List<V1Node> nodes, List<V1Pod> pods) {
    List<NodeInfo> out = new ArrayList<>();
    for (V1Node n : nodes) {
      NodeInfo info = NodeInfo.of(n);
      for (V1Pod p : pods) {
        if (n.getMetadata().getName().equals(p.getSpec().getNodeName())) {
          info.addPod(PodInfo.of(p));
        }
      }
      out.add(info);
    }
    return out;
  }

  /** kube's {@code makeNode}: cpu in millicores, memory in bytes, plus scalar resources. */
  static V1Node node(String name, long milliCpu, long memory, Map<String, Long> scalars) {
    List<String> pairs = new ArrayList<>(List.of("cpu", milliCpu + "m", "memory", memory + ""));
    scalars.forEach(
        (k, v) -> {
          pairs.add(k);
          pairs.add(v.toString());
        });
    return MakeNode.node().name(name).capacity(pairs.toArray(new String[0])).obj();
  }

  /**
   * Runs PreScore (when asked; it must succeed) then Score on every node, and returns the raw
   * scores.
   */
  static <P extends PreScorePlugin & ScorePlugin> List<NodeScore> score(
      P plugin, PodInfo pod, List<NodeInfo> nodes, boolean runPreScore) {
    CycleState state = new CycleState();
    if (runPreScore) {
      Status s = plugin.preScore(state, pod, nodes);
      if (!s.isSuccess()) {
        throw new AssertionError("PreScore returned " + s);
      }
    }
    List<NodeScore> out = new ArrayList<>();
    long[] raw = BoundFaces.assertScoreFaces(plugin, state, pod, nodes);
    for (int i = 0; i < nodes.size(); i++) {
      out.add(new NodeScore(nodes.get(i).name(), raw[i]));
    }
    if (plugin instanceof CycleBoundScore b) {
      // The framework's path: the Score bound once for the cycle must answer the same.
      CycleBoundScore.NodeScorer scorer = b.bindScore(state, pod);
      List<NodeScore> bound = new ArrayList<>();
      for (NodeInfo n : nodes) {
        bound.add(new NodeScore(n.name(), scorer.score(n)));
      }
      if (!bound.equals(out)) {
        throw new AssertionError("bound Score " + bound + " differs from Score " + out);
      }
    }
    return out;
  }
}
