package io.kubesched.framework;

import java.util.List;
import java.util.Map;

/** The pods nominated to run on nodes (they preempted victims and wait for them to go). */
public interface PodNominator {
  /** Returns the pods nominated to {@code nodeName}; never {@code null}. */
  List<PodInfo> nominatedPodsForNode(String nodeName);

  /**
   * Returns the pods nominated to every node that has some, read at once: what {@link
   * #nominatedPodsForNode} would give for each node at this moment (nodes without nominated pods
   * are absent). The Filter phase reads it once instead of asking node by node. The default asks
   * nothing and returns {@code null}: callers then ask node by node.
   */
  default Map<String, List<PodInfo>> nominatedPodsByNode() {
    return null;
  }
}
