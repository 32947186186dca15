package io.kubesched.plugins.podtopologyspread;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeJournal;
import java.util.HashMap;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The nodes' values of topology keys, per row of the lister's whole list, kept from one cycle to
 * the next through the list's {@link NodeJournal} so that a node's labels are read again only when
 * the journal names it. Without a journal, or for a node that is not the very node info of its row,
 * the labels are read. Thread-safe.
 */
final class TopologyValues {
  /** At most this many keys are kept; more clear the table. */
  private static final int MAX_KEYS = 16;

  private final HashMap<String, String[]> byKey = new HashMap<>();
  private NodeInfo[] refs = new NodeInfo[0];
  private @Nullable NodeJournal journal;
  private long structure;
  private long position;

  /**
   * Sets {@code out[i * keys.length + j]} to the value of {@code keys[j]} of {@code nodes.get(i)},
   * {@code null} when the node lacks the key: what {@code nodes.get(i).labels().get(keys[j])}
   * returns.
   */
  synchronized void fill(NodeInfoLister lister, List<NodeInfo> nodes, String[] keys, String[] out) {
    int nc = keys.length;
    NodeJournal jn = lister.journal();
    String[][] columns = jn == null ? null : columns(jn, lister.list(), keys);
    NodeInfo[] rows = refs;
    int cursor = 0;
    for (int i = 0, f = nodes.size(); i < f; i++) {
      NodeInfo node = nodes.get(i);
      int r = -1;
      if (columns != null) {
        if (cursor < rows.length && rows[cursor] == node) {
          r = cursor;
        } else {
          int at = jn.indexOf(node.name());
          if (at >= 0 && at < rows.length && rows[at] == node) {
            r = at;
          }
        }
      }
      if (r >= 0) {
        for (int j = 0; j < nc; j++) {
          out[i * nc + j] = columns[j][r];
        }
        cursor = r + 1;
      } else {
        java.util.Map<String, String> labels = node.labels();
        for (int j = 0; j < nc; j++) {
          out[i * nc + j] = labels.get(keys[j]);
        }
      }
    }
  }

  /** Brings the table up to date with {@code all} and returns the columns of {@code keys}. */
  private String[][] columns(NodeJournal jn, List<NodeInfo> all, String[] keys) {
    int n = all.size();
    List<String> changed =
        jn == journal && jn.structuralChanges() == structure && refs.length == n
            ? jn.changedSince(position)
            : null;
    if (changed == null || byKey.size() + keys.length > MAX_KEYS) {
      byKey.clear();
      refs = all.toArray(new NodeInfo[0]);
    } else {
      for (String name : changed) {
        int at = jn.indexOf(name);
        if (at < 0 || at >= n) {
          continue;
        }
        NodeInfo node = all.get(at);
        refs[at] = node;
        for (var e : byKey.entrySet()) {
          e.getValue()[at] = node.labels().get(e.getKey());
        }
      }
    }
    journal = jn;
    structure = jn.structuralChanges();
    position = jn.position();
    String[][] out = new String[keys.length][];
    for (int j = 0; j < keys.length; j++) {
      String[] column = byKey.get(keys[j]);
      if (column == null) {
        column = new String[n];
        for (int r = 0; r < n; r++) {
          column[r] = refs[r].labels().get(keys[j]);
        }
        byKey.put(keys[j], column);
      }
      out[j] = column;
    }
    return out;
  }
}
