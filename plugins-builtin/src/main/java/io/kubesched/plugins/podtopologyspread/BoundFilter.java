package io.kubesched.plugins.podtopologyspread;

import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Status;
import io.kubesched.plugins.helper.LabelColumns;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@link PodTopologySpread}'s Filter bound to one cycle's {@link PreFilterState}.
 *
 * <p>{@link #filterAll} reads each constraint's global minimum once per call instead of once per
 * node; its statuses are those of {@link PodTopologySpread#filter} node by node (a node lacking a
 * key goes through the single-node path, which logs it). The state is read per call, not at
 * binding, since AddPod and RemovePod change its counts in place (preemption's dry runs).
 */
final class BoundFilter implements CycleBoundFilter.NodeCheck {
  private final PodTopologySpread plugin;
  private final PreFilterState s;
  private final String podKey;
  // each constraint's topology key (the constraints do not change after PreFilter)
  private final String[] keys;

  BoundFilter(PodTopologySpread plugin, PreFilterState s, String podKey) {
    this.plugin = plugin;
    this.s = s;
    this.podKey = podKey;
    this.keys = new String[s.constraints.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = s.constraints[i].topologyKey();
    }
  }

  @Override
  public Status filter(NodeInfo node) {
    return plugin.filterWith(s, podKey, node);
  }

  @Override
  public void filterAll(
      NodeInfo[] nodes,
      int count,
      @Nullable NodeColumns columns,
      int @Nullable [] rows,
      Status[] out) {
    SpreadConstraint[] cs = s.constraints;
    int nc = cs.length;
    String[][] byRow = LabelColumns.of(columns, keys);
    int[] self = new int[nc];
    int[] min = new int[nc];
    for (int i = 0; i < nc; i++) {
      self[i] = s.selfMatch[i] ? 1 : 0;
      min[i] = s.minMatchNum(i);
    }
    Status success = Status.success();
    for (int k = 0; k < count; k++) {
      Map<String, String> labels = byRow == null ? nodes[k].labels() : null;
      Status result = success;
      for (int i = 0; i < nc; i++) {
        String value = byRow != null ? byRow[i][rows[k]] : labels.get(cs[i].topologyKey());
        if (value == null) {
          result = filter(nodes[k]);
          break;
        }
        int skew = s.counts[i].get(value) + self[i] - min[i];
        if (skew > cs[i].maxSkew()) {
          result = PodTopologySpread.STATUS_SKEW;
          break;
        }
      }
      out[k] = result;
    }
  }
}
