package io.kubesched.plugins.noderesources;

import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.ScorePlugin;
import java.util.List;

/**
 * The scoring strategies of {@code NodeResourcesFit}, each computing a node's score from the
 * configured resources without allocating.
 */
abstract class Scorer {
  final ResourceAllocation resources;

  Scorer(ResourceAllocation resources) {
    this.resources = resources;
  }

  /**
   * Returns one resource's score from its allocatable amount ({@code alloc}, not 0) and the amount
   * requested with the pod added; a negative value leaves the resource out of the mean.
   */
  abstract long term(long alloc, long req);

  /** Returns the node's score from the weighted sum of the terms and the sum of their weights. */
  long finish(long nodeScore, long weightSum) {
    return weightSum == 0 ? 0 : nodeScore / weightSum;
  }

  /** Returns the node's score for a pod with {@code podRequests}. */
  final long score(NodeInfo node, long[] podRequests) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < resources.size(); i++) {
      long alloc = resources.allocatable(node, i, podRequests[i]);
      if (alloc == 0) {
        continue;
      }
      long t = term(alloc, resources.requested(node, i, podRequests[i]));
      if (t >= 0) {
        nodeScore += t * resources.weights[i];
        weightSum += resources.weights[i];
      }
    }
    return finish(nodeScore, weightSum);
  }

  /** {@link #score(NodeInfo, long[])} from the snapshot's columns at row {@code r}. */
  private long score(NodeColumns c, int r, long[] podRequests) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < resources.size(); i++) {
      long alloc = resources.allocatable(c, r, i, podRequests[i]);
      if (alloc == 0) {
        continue;
      }
      long t = term(alloc, resources.requested(c, r, i, podRequests[i]));
      if (t >= 0) {
        nodeScore += t * resources.weights[i];
        weightSum += resources.weights[i];
      }
    }
    return finish(nodeScore, weightSum);
  }

  /**
   * Sets {@code out[i]} to the score of {@code nodes.get(i)} for every {@code i} in the range,
   * reading the snapshot's {@code columns} at {@code rows[i]} when given and enough; the default
   * resources (cpu then memory) without the per-resource dispatch.
   */
  final void scoreAll(
      List<NodeInfo> nodes,
      int from,
      int to,
      NodeColumns c,
      int[] rows,
      long[] podRequests,
      long[] out) {
    if (c == null || !resources.columnar(podRequests)) {
      for (int i = from; i < to; i++) {
        out[i] = score(nodes.get(i), podRequests);
      }
    } else if (!resources.cpuThenMemory()) {
      for (int i = from; i < to; i++) {
        out[i] = score(c, rows[i], podRequests);
      }
    } else {
      long podCpu = podRequests[0];
      long podMemory = podRequests[1];
      long wCpu = resources.weights[0];
      long wMemory = resources.weights[1];
      for (int i = from; i < to; i++) {
        int r = rows[i];
        long nodeScore = 0;
        long weightSum = 0;
        long alloc = c.allocatableMilliCpu(r);
        if (alloc != 0) {
          long t = term(alloc, resources.requested(c, r, 0, podCpu));
          if (t >= 0) {
            nodeScore += t * wCpu;
            weightSum += wCpu;
          }
        }
        alloc = c.allocatableMemory(r);
        if (alloc != 0) {
          long t = term(alloc, resources.requested(c, r, 1, podMemory));
          if (t >= 0) {
            nodeScore += t * wMemory;
            weightSum += wMemory;
          }
        }
        out[i] = finish(nodeScore, weightSum);
      }
    }
  }

  /** Builds the scorer of {@code strategy}. */
  static Scorer of(ScoringStrategy strategy) {
    ResourceAllocation res = new ResourceAllocation(strategy.resources(), false);
    return switch (strategy.type()) {
      case ScoringStrategy.LEAST_ALLOCATED -> new LeastAllocated(res);
      case ScoringStrategy.MOST_ALLOCATED -> new MostAllocated(res);
      case ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO -> {
        if (strategy.requestedToCapacityRatio() == null) {
          throw new IllegalArgumentException(
              "scoringStrategy.requestedToCapacityRatio must be set for RequestedToCapacityRatio");
        }
        yield new RequestedToCapacityRatio(res, strategy.requestedToCapacityRatio().shape());
      }
      default ->
          throw new IllegalArgumentException(
              "scoring strategy " + strategy.type() + " is not supported");
    };
  }

  /** Favours free resources: {@code (alloc - req) * 100 / alloc}, weighted mean. */
  static final class LeastAllocated extends Scorer {
    LeastAllocated(ResourceAllocation r) {
      super(r);
    }

    @Override
    long term(long alloc, long req) {
      return req > alloc ? 0 : (alloc - req) * ScorePlugin.MAX_NODE_SCORE / alloc;
    }
  }

  /** Favours used resources: {@code min(req, alloc) * 100 / alloc}, weighted mean. */
  static final class MostAllocated extends Scorer {
    MostAllocated(ResourceAllocation r) {
      super(r);
    }

    @Override
    long term(long alloc, long req) {
      return Math.min(req, alloc) * ScorePlugin.MAX_NODE_SCORE / alloc;
    }
  }

  /**
   * Scores utilisation with a piecewise linear function whose scores are scaled by 10; only
   * resources scoring above 0 count, and the weighted mean is rounded.
   */
  static final class RequestedToCapacityRatio extends Scorer {
    private static final long MAX_UTILIZATION = 100;
    private final long[] utilization;
    private final long[] shapeScore;

    RequestedToCapacityRatio(ResourceAllocation r, List<UtilizationShapePoint> shape) {
      super(r);
      this.utilization = new long[shape.size()];
      this.shapeScore = new long[shape.size()];
      for (int i = 0; i < shape.size(); i++) {
        utilization[i] = shape.get(i).utilization();
        shapeScore[i] = (long) shape.get(i).score() * (ScorePlugin.MAX_NODE_SCORE / 10);
      }
    }

    long function(long p) {
      return brokenLinear(utilization, shapeScore, p);
    }

    /**
     * Returns the piecewise linear function through ({@code utilization[i]}, {@code score[i]}) at
     * {@code p}: the first score up to the first point, the last one after the last point (kube's
     * {@code BuildBrokenLinearFunction}).
     */
    static long brokenLinear(long[] utilization, long[] score, long p) {
      for (int i = 0; i < utilization.length; i++) {
        if (p <= utilization[i]) {
          if (i == 0) {
            return score[0];
          }
          return score[i - 1]
              + (score[i] - score[i - 1])
                  * (p - utilization[i - 1])
                  / (utilization[i] - utilization[i - 1]);
        }
      }
      return score[score.length - 1];
    }

    /** Only resources scoring above 0 count. */
    @Override
    long term(long alloc, long req) {
      long s = req > alloc ? function(MAX_UTILIZATION) : function(req * MAX_UTILIZATION / alloc);
      return s > 0 ? s : -1;
    }

    /** The weighted mean, rounded. */
    @Override
    long finish(long nodeScore, long weightSum) {
      return weightSum == 0 ? 0 : Math.round((double) nodeScore / (double) weightSum);
    }
  }
}
