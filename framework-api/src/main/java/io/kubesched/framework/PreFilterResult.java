package io.kubesched.framework;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a PreFilter plugin returns: a status and, optionally, the only nodes worth filtering.
 *
 * @param status the status, never {@code null}
 * @param nodeNames the nodes to consider, or {@code null} for all nodes
 */
public record PreFilterResult(Status status, Set<String> nodeNames) {
  private static final PreFilterResult ALL = new PreFilterResult(Status.success(), null);
  private static final PreFilterResult SKIP = new PreFilterResult(Status.skip(), null);

  /** Checks the status and copies the node names. */
  public PreFilterResult {
    Objects.requireNonNull(status, "status must not be null");
    nodeNames = nodeNames == null ? null : Set.copyOf(nodeNames);
  }

  /** Success with all nodes. */
  public static PreFilterResult success() {
    return ALL;
  }

  /** Success, restricted to {@code nodeNames}. */
  public static PreFilterResult nodes(Set<String> nodeNames) {
    return new PreFilterResult(Status.success(), Objects.requireNonNull(nodeNames));
  }

  /** The given status with all nodes. */
  public static PreFilterResult of(Status status) {
    return status.isSuccess() ? ALL : new PreFilterResult(status, null);
  }

  /** Skip: this plugin's Filter (and AddPod/RemovePod) are not called this cycle. */
  public static PreFilterResult skip() {
    return SKIP;
  }

  /** Returns whether the result places no restriction on the nodes. */
  public boolean allNodes() {
    return nodeNames == null;
  }

  /**
   * Returns the intersection of the node sets of {@code a} and {@code b} ({@code null} for all
   * nodes), as kube's {@code PreFilterResult.Merge}.
   */
  public static Set<String> intersect(Set<String> a, Set<String> b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    Set<String> out = new HashSet<>(a);
    out.retainAll(b);
    return out;
  }
}
