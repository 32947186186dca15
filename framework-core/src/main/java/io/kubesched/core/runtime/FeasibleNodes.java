package io.kubesched.core.runtime;

import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeRows;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The nodes that passed Filter, as a read-only list, with each node's row in the snapshot's {@link
 * NodeColumns} when the walk went over the snapshot's own list (Score then hands both to the
 * plugins' bulk calls).
 */
final class FeasibleNodes extends AbstractList<NodeInfo> implements RandomAccess, NodeRows {
  private final NodeInfo[] nodes;
  private final NodeColumns columns;
  private final int[] rows;

  /**
   * @param nodes the nodes, not copied
   * @param columns the snapshot's columns, or {@code null} (then {@code rows} is ignored)
   * @param rows each node's row, not copied; {@code null} with {@code columns}
   */
  FeasibleNodes(NodeInfo[] nodes, NodeColumns columns, int[] rows) {
    this.nodes = nodes;
    this.columns = rows == null ? null : columns;
    this.rows = columns == null ? null : rows;
  }

  @Override
  public NodeInfo get(int index) {
    return nodes[index];
  }

  @Override
  public int size() {
    return nodes.length;
  }

  /**
   * Returns the nodes as an array, shared: it must not be written, except by opportunistic
   * batching, which replaces a node info by a newer one of the same node (readers of a shared array
   * only read the names).
   */
  NodeInfo[] array() {
    return nodes;
  }

  @Override
  public NodeColumns columns() {
    return columns;
  }

  @Override
  public int[] rows() {
    return rows;
  }
}
