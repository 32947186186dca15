package io.kubesched.plugins.podtopologyspread;

import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import java.util.List;

/**
 * {@link PodTopologySpread}'s Score bound to one cycle's {@link PreScoreState} (never changed after
 * PreScore); the scores are those of {@link PodTopologySpread#score} node by node.
 */
final class BoundScore implements CycleBoundScore.NodeScorer {
  private final PreScoreState s;

  BoundScore(PreScoreState s) {
    this.s = s;
  }

  @Override
  public long score(NodeInfo node) {
    return PodTopologySpread.scoreWith(s, node);
  }

  @Override
  public void scoreAll(
      List<NodeInfo> nodes, int from, int to, NodeColumns columns, int[] rows, long[] out) {
    if (nodes == s.scored && s.rawScores != null) {
      // the nodes PreScore saw: their scores were computed there
      System.arraycopy(s.rawScores, from, out, from, to - from);
      return;
    }
    for (int i = from; i < to; i++) {
      out[i] = PodTopologySpread.scoreWith(s, nodes.get(i));
    }
  }
}
