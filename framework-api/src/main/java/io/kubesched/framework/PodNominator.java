package io.kubesched.framework;

import java.util.List;

/** The pods nominated to run on nodes (they preempted victims and wait for them to go). */
public interface PodNominator {
  /** Returns the pods nominated to {@code nodeName}; never {@code null}. */
  List<PodInfo> nominatedPodsForNode(String nodeName);
}
