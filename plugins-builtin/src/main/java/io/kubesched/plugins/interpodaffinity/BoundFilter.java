package io.kubesched.plugins.interpodaffinity;

import io.kubesched.framework.AffinityTerm;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Status;
import io.kubesched.plugins.helper.LabelColumns;
import java.util.Arrays;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@link InterPodAffinity}'s Filter bound to one cycle's {@link PreFilterState}.
 *
 * <p>{@link #filterAll} resolves the counters of every term once per call and reads each distinct
 * topology key of a node's labels once, instead of once per term; its statuses are those of {@link
 * InterPodAffinity#filter} node by node. The counters are resolved per call, not at binding, since
 * AddPod and RemovePod change them in place (preemption's dry runs).
 */
final class BoundFilter implements CycleBoundFilter.NodeCheck {
  private final PreFilterState s;

  BoundFilter(PreFilterState s) {
    this.s = s;
  }

  @Override
  public Status filter(NodeInfo node) {
    return InterPodAffinity.filterWith(s, node.labels());
  }

  @Override
  public void filterAll(
      NodeInfo[] nodes,
      int count,
      @Nullable NodeColumns columns,
      int @Nullable [] rows,
      Status[] out) {
    AffinityTerm[] affTerms = s.affinityTerms;
    AffinityTerm[] antiTerms = s.antiAffinity.isEmpty() ? new AffinityTerm[0] : s.antiAffinityTerms;
    TopologyCounts existing = s.existingAntiAffinity;
    int na = affTerms.length;
    int nn = antiTerms.length;
    int ne = existing.isEmpty() ? 0 : existing.keyCount();
    String[] keys = new String[na + nn + ne];
    int[] keyOf = new int[na + nn + ne];
    TopologyCounts.ValueMap[] maps = new TopologyCounts.ValueMap[na + nn + ne];
    int distinct = 0;
    for (int i = 0; i < na + nn + ne; i++) {
      String key;
      if (i < na) {
        key = affTerms[i].topologyKey();
        maps[i] = s.affinity.valuesOf(key);
      } else if (i < na + nn) {
        key = antiTerms[i - na].topologyKey();
        maps[i] = s.antiAffinity.valuesOf(key);
      } else {
        key = existing.keyAt(i - na - nn);
        maps[i] = existing.valuesAt(i - na - nn);
      }
      int d = indexOf(keys, distinct, key);
      if (d < 0) {
        d = distinct;
        keys[distinct++] = key;
      }
      keyOf[i] = d;
    }
    keys = Arrays.copyOf(keys, distinct);
    String[] values = new String[distinct];
    boolean firstOfGroupAllowed = s.affinity.isEmpty() && s.matchesOwnAffinity;
    Status success = Status.success();
    String[][] byRow = LabelColumns.of(columns, keys);
    for (int k = 0; k < count; k++) {
      if (byRow != null) {
        int r = rows[k];
        for (int d = 0; d < distinct; d++) {
          values[d] = byRow[d][r];
        }
      } else {
        Map<String, String> labels = nodes[k].labels();
        for (int d = 0; d < distinct; d++) {
          values[d] = labels.get(keys[d]);
        }
      }
      out[k] = check(na, nn, ne, keyOf, maps, values, firstOfGroupAllowed, success);
    }
  }

  private static Status check(
      int na,
      int nn,
      int ne,
      int[] keyOf,
      TopologyCounts.ValueMap[] maps,
      String[] values,
      boolean firstOfGroupAllowed,
      Status success) {
    boolean podsExist = true;
    for (int i = 0; i < na; i++) {
      String v = values[keyOf[i]];
      if (v == null) {
        return InterPodAffinity.STATUS_AFFINITY;
      }
      if (maps[i] == null || maps[i].get(v) <= 0) {
        podsExist = false;
      }
    }
    if (!podsExist && !firstOfGroupAllowed) {
      return InterPodAffinity.STATUS_AFFINITY;
    }
    for (int i = na; i < na + nn; i++) {
      String v = values[keyOf[i]];
      if (v != null && maps[i] != null && maps[i].get(v) > 0) {
        return InterPodAffinity.STATUS_ANTI_AFFINITY;
      }
    }
    for (int i = na + nn; i < na + nn + ne; i++) {
      String v = values[keyOf[i]];
      if (v != null && maps[i].get(v) > 0) {
        return InterPodAffinity.STATUS_EXISTING_ANTI_AFFINITY;
      }
    }
    return success;
  }

  private static int indexOf(String[] keys, int n, String key) {
    for (int d = 0; d < n; d++) {
      if (keys[d].equals(key)) {
        return d;
      }
    }
    return -1;
  }
}
