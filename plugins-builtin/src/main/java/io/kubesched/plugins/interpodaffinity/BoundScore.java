package io.kubesched.plugins.interpodaffinity;

import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.plugins.helper.LabelColumns;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@link InterPodAffinity}'s Score bound to one cycle's {@link PreScoreState} (never changed after
 * PreScore): the topology keys and their sums are resolved once, at binding.
 */
final class BoundScore implements CycleBoundScore.NodeScorer {
  private final String[] keys;
  private final TopologyCounts.ValueMap[] sums;

  BoundScore(PreScoreState s) {
    TopologyCounts t = s.topologyScore;
    keys = new String[t.keyCount()];
    sums = new TopologyCounts.ValueMap[keys.length];
    for (int k = 0; k < keys.length; k++) {
      keys[k] = t.keyAt(k);
      sums[k] = t.valuesAt(k);
    }
  }

  @Override
  public long score(NodeInfo node) {
    return sumOn(node.labels());
  }

  @Override
  public void scoreAll(
      List<NodeInfo> nodes,
      int from,
      int to,
      @Nullable NodeColumns columns,
      int @Nullable [] rows,
      long[] out) {
    String[][] byRow = LabelColumns.of(columns, keys);
    if (byRow == null) {
      for (int i = from; i < to; i++) {
        out[i] = sumOn(nodes.get(i).labels());
      }
      return;
    }
    for (int i = from; i < to; i++) {
      int r = rows[i];
      long sum = 0;
      for (int k = 0; k < keys.length; k++) {
        String v = byRow[k][r];
        if (v != null) {
          sum += sums[k].get(v);
        }
      }
      out[i] = sum;
    }
  }

  private long sumOn(Map<String, String> labels) {
    long sum = 0;
    for (int k = 0; k < keys.length; k++) {
      String v = labels.get(keys[k]);
      if (v != null) {
        sum += sums[k].get(v);
      }
    }
    return sum;
  }
}
