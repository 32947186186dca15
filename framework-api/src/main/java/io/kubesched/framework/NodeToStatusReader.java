package io.kubesched.framework;

import java.util.List;

/**
 * The statuses of the nodes that failed Filter in one cycle (kube's {@code NodeToStatusReader}).
 * Nodes without an explicit entry have the "absent nodes" status: nodes that were never filtered
 * because PreFilter excluded them.
 */
public interface NodeToStatusReader {
  /** Returns the status of {@code nodeName}: its entry, else the absent-nodes status. */
  Status get(String nodeName);

  /**
   * Returns the nodes of {@code lister} whose status has {@code code}: every such node when the
   * absent-nodes status has that code, otherwise only the explicit entries.
   */
  List<NodeInfo> nodesForStatusCode(NodeInfoLister lister, Status.Code code);
}
