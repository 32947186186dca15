package io.kubesched.plugins.defaultpreemption;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of {@link DefaultPreemption}: how many candidate nodes a dry run looks for, {@code
 * min(n, max(n * minCandidateNodesPercentage / 100, minCandidateNodesAbsolute))} of the {@code n}
 * nodes where preemption may help.
 *
 * @param minCandidateNodesPercentage the share of nodes, in [0, 100]; default 10
 * @param minCandidateNodesAbsolute the absolute minimum, at least 0; default 100
 */
public record DefaultPreemptionArgs(int minCandidateNodesPercentage, int minCandidateNodesAbsolute)
    implements PluginArgs {

  /** Returns kube-scheduler's defaults: 10 percent, at least 100 nodes. */
  public static DefaultPreemptionArgs defaults() {
    return new DefaultPreemptionArgs(10, 100);
  }

  /**
   * Returns the problems with these arguments, with kube-scheduler's paths and messages: each value
   * out of range, and both being zero.
   */
  @Override
  public List<FieldError> validate(String path) {
    String prefix = path == null || path.isEmpty() ? "" : path + ".";
    String percentagePath = prefix + "minCandidateNodesPercentage";
    String absolutePath = prefix + "minCandidateNodesAbsolute";
    List<FieldError> errors = new ArrayList<>();
    if (minCandidateNodesPercentage < 0 || minCandidateNodesPercentage > 100) {
      errors.add(
          invalid(percentagePath, minCandidateNodesPercentage, "not in valid range [0, 100]"));
    }
    if (minCandidateNodesAbsolute < 0) {
      errors.add(invalid(absolutePath, minCandidateNodesAbsolute, "not in valid range [0, inf)"));
    }
    if (minCandidateNodesPercentage == 0 && minCandidateNodesAbsolute == 0) {
      errors.add(
          invalid(
              percentagePath,
              minCandidateNodesPercentage,
              "cannot be zero at the same time as minCandidateNodesAbsolute"));
      errors.add(
          invalid(
              absolutePath,
              minCandidateNodesAbsolute,
              "cannot be zero at the same time as minCandidateNodesPercentage"));
    }
    return List.copyOf(errors);
  }

  private static FieldError invalid(String path, int value, String detail) {
    return new FieldError(path, "Invalid value: " + value + ": " + detail);
  }

  /**
   * Returns how many candidates a dry run over {@code numNodes} potential nodes looks for, never
   * more than {@code numNodes}.
   */
  public int numCandidates(int numNodes) {
    int n = numNodes * minCandidateNodesPercentage / 100;
    if (n < minCandidateNodesAbsolute) {
      n = minCandidateNodesAbsolute;
    }
    return Math.min(n, numNodes);
  }
}
