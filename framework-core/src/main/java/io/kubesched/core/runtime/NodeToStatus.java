package io.kubesched.core.runtime;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The statuses of the nodes rejected in one cycle plus the status of the nodes that were never
 * filtered (kube's {@code framework.NodeToStatus}).
 *
 * <p>Nodes that passed Filter have no entry; nodes without an entry report the absent-nodes status,
 * by default {@code UnschedulableAndUnresolvable} without reasons. Not thread-safe: the scheduling
 * algorithm fills it on one thread after the parallel phase.
 *
 * <p>The Filter phase records its rejections as one batch ({@link #setAll}) that becomes map
 * entries only when something reads them: a pod that is then placed never pays for a map of the
 * (often thousands of) nodes it skipped.
 */
public final class NodeToStatus implements NodeToStatusReader {
  private static final Status DEFAULT_ABSENT =
      Status.of(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);

  private final Map<String, Status> statuses;
  private Status absentNodesStatus;
  // A batch from setAll not yet copied into statuses: node (start + i) % size of pendingNodes
  // has status pendingFailures[i] (null: passed).
  private List<NodeInfo> pendingNodes;
  private int pendingStart;
  private Status[] pendingFailures;
  private int pendingCount;

  /** Creates an empty map with the default absent-nodes status. */
  public NodeToStatus() {
    this(new LinkedHashMap<>(), DEFAULT_ABSENT);
  }

  /** Creates a map with the given entries (copied) and absent-nodes status. */
  public NodeToStatus(Map<String, Status> statuses, Status absentNodesStatus) {
    this.statuses = new LinkedHashMap<>(statuses);
    this.absentNodesStatus = Objects.requireNonNull(absentNodesStatus);
  }

  /**
   * Records the Filter phase's rejections, in order, as {@link #set} would for each non-null {@code
   * failures[i]} with the name of node {@code nodes.get((start + i) % nodes.size())}; the arrays
   * are kept, not copied, and must not change afterwards.
   */
  public void setAll(List<NodeInfo> nodes, int start, Status[] failures) {
    materialize();
    int count = 0;
    for (Status f : failures) {
      if (f != null) {
        count++;
      }
    }
    if (count == 0) {
      return;
    }
    pendingNodes = nodes;
    pendingStart = start;
    pendingFailures = failures;
    pendingCount = count;
  }

  /** Turns a pending {@link #setAll} batch into entries now (no-op without one). */
  void materialize() {
    if (pendingFailures == null) {
      return;
    }
    List<NodeInfo> nodes = pendingNodes;
    Status[] failures = pendingFailures;
    int n = nodes.size();
    pendingNodes = null;
    pendingFailures = null;
    pendingCount = 0;
    for (int i = 0; i < failures.length; i++) {
      if (failures[i] != null) {
        statuses.put(nodes.get((pendingStart + i) % n).name(), failures[i]);
      }
    }
  }

  /** Returns the status of {@code nodeName}: its entry, else the absent-nodes status. */
  @Override
  public Status get(String nodeName) {
    materialize();
    Status s = statuses.get(nodeName);
    return s == null ? absentNodesStatus : s;
  }

  /** Sets the status of {@code nodeName}. */
  public void set(String nodeName, Status status) {
    materialize();
    statuses.put(nodeName, Objects.requireNonNull(status));
  }

  /** Returns the number of explicit entries. */
  public int size() {
    if (pendingFailures != null && statuses.isEmpty()) {
      return pendingCount;
    }
    materialize();
    return statuses.size();
  }

  /** Returns the status of the nodes without an entry. */
  public Status absentNodesStatus() {
    return absentNodesStatus;
  }

  /** Sets the status of the nodes without an entry. */
  public void setAbsentNodesStatus(Status status) {
    this.absentNodesStatus = Objects.requireNonNull(status);
  }

  /** Calls {@code action} for each explicit entry, in insertion order. */
  public void forEachExplicitNode(BiConsumer<String, Status> action) {
    materialize();
    statuses.forEach(action);
  }

  /** Returns the explicit entries, in insertion order; read-only. */
  public Map<String, Status> explicit() {
    materialize();
    return Collections.unmodifiableMap(statuses);
  }

  @Override
  public List<NodeInfo> nodesForStatusCode(NodeInfoLister lister, Status.Code code) {
    materialize();
    List<NodeInfo> out = new ArrayList<>();
    if (absentNodesStatus.code() == code) {
      List<NodeInfo> all = lister.list();
      if (statuses.isEmpty()) {
        return new ArrayList<>(all);
      }
      for (NodeInfo n : all) {
        if (get(n.name()).code() == code) {
          out.add(n);
        }
      }
      return out;
    }
    statuses.forEach(
        (name, s) -> {
          if (s.code() == code) {
            NodeInfo n = lister.find(name);
            if (n != null) {
              out.add(n);
            }
          }
        });
    return out;
  }

  /** Two maps are equal when their entries and absent-nodes statuses are equal. */
  @Override
  public boolean equals(Object o) {
    materialize();
    if (o instanceof NodeToStatus other) {
      other.materialize();
    }
    return o instanceof NodeToStatus other
        && statuses.equals(other.statuses)
        && absentNodesStatus.equals(other.absentNodesStatus);
  }

  @Override
  public int hashCode() {
    materialize();
    return Objects.hash(statuses, absentNodesStatus);
  }

  @Override
  public String toString() {
    materialize();
    return "NodeToStatus{" + statuses + ", absent=" + absentNodesStatus + "}";
  }
}
