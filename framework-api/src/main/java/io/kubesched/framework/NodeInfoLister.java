package io.kubesched.framework;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** Read access to the nodes of the snapshot a scheduling cycle works on. */
public interface NodeInfoLister {
  /** Returns every node, in the scheduler's (zone round-robin) order. */
  List<NodeInfo> list();

  /** Returns the nodes that have pods with pod affinity or anti-affinity. */
  List<NodeInfo> havePodsWithAffinityList();

  /** Returns the nodes that have pods with required pod anti-affinity. */
  List<NodeInfo> havePodsWithRequiredAntiAffinityList();

  /**
   * Returns the node named {@code nodeName}.
   *
   * @throws SchedulingException when there is no such node
   */
  NodeInfo get(String nodeName);

  /** Returns the node named {@code nodeName}, or {@code null}. */
  @Nullable NodeInfo find(String nodeName);

  /**
   * Returns the list's change journal, or {@code null} when this lister keeps none (then a plugin
   * keeping per-node results compares every node). The same journal object for as long as the
   * lister lives.
   */
  default @Nullable NodeJournal journal() {
    return null;
  }

  /**
   * Returns the flat per-node values of {@link #list()}'s nodes, row {@code r} for node {@code r},
   * or {@code null} when this lister keeps none. The same object for as long as the lister lives.
   */
  default @Nullable NodeColumns columns() {
    return null;
  }
}
