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
   * Returns the score from each configured resource's allocatable amount ({@code alloc[i]}, 0 when
   * the resource is left out) and the amount requested with the pod added ({@code req[i]}).
   */
  abstract long combine(long[] alloc, long[] req);

  /** Returns the node's score for a pod with {@code podRequests}. */
  final long score(NodeInfo node, long[] podRequests) {
    long[] alloc = new long[resources.size()];
    long[] req = new long[resources.size()];
    resources.fill(node, podRequests, alloc, req);
    return combine(alloc, req);
  }

  /**
   * Sets {@code out[i]} to the score of {@code nodes.get(i)} for every {@code i} in the range,
   * reading the snapshot's {@code columns} at {@code rows[i]} when given and enough.
   */
  void scoreAll(
      List<NodeInfo> nodes,
      int from,
      int to,
      NodeColumns columns,
      int[] rows,
      long[] podRequests,
      long[] out) {
    long[] alloc = new long[resources.size()];
    long[] req = new long[resources.size()];
    boolean columnar = columns != null && resources.columnar(podRequests);
    for (int i = from; i < to; i++) {
      if (columnar) {
        resources.fill(columns, rows[i], podRequests, alloc, req);
      } else {
        resources.fill(nodes.get(i), podRequests, alloc, req);
      }
      out[i] = combine(alloc, req);
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

    /**
     * The default resources (cpu then memory) read straight from the columns, without the
     * per-resource arrays: what {@link #combine} computes from {@link ResourceAllocation#fill}.
     */
    @Override
    void scoreAll(
        List<NodeInfo> nodes,
        int from,
        int to,
        NodeColumns c,
        int[] rows,
        long[] podRequests,
        long[] out) {
      if (c == null || !resources.cpuThenMemory()) {
        super.scoreAll(nodes, from, to, c, rows, podRequests, out);
        return;
      }
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
          long req = podCpu + c.nonZeroMilliCpu(r);
          nodeScore +=
              (req > alloc ? 0 : (alloc - req) * ScorePlugin.MAX_NODE_SCORE / alloc) * wCpu;
          weightSum += wCpu;
        }
        alloc = c.allocatableMemory(r);
        if (alloc != 0) {
          long req = podMemory + c.nonZeroMemory(r);
          nodeScore +=
              (req > alloc ? 0 : (alloc - req) * ScorePlugin.MAX_NODE_SCORE / alloc) * wMemory;
          weightSum += wMemory;
        }
        out[i] = weightSum == 0 ? 0 : nodeScore / weightSum;
      }
    }

    @Override
    long combine(long[] allocs, long[] reqs) {
      long nodeScore = 0;
      long weightSum = 0;
      for (int i = 0; i < allocs.length; i++) {
        long alloc = allocs[i];
        if (alloc == 0) {
          continue;
        }
        long req = reqs[i];
        long s = req > alloc ? 0 : (alloc - req) * ScorePlugin.MAX_NODE_SCORE / alloc;
        nodeScore += s * resources.weights[i];
        weightSum += resources.weights[i];
      }
      return weightSum == 0 ? 0 : nodeScore / weightSum;
    }
  }

  /** Favours used resources: {@code min(req, alloc) * 100 / alloc}, weighted mean. */
  static final class MostAllocated extends Scorer {
    MostAllocated(ResourceAllocation r) {
      super(r);
    }

    @Override
    long combine(long[] allocs, long[] reqs) {
      long nodeScore = 0;
      long weightSum = 0;
      for (int i = 0; i < allocs.length; i++) {
        long alloc = allocs[i];
        if (alloc == 0) {
          continue;
        }
        long req = Math.min(reqs[i], alloc);
        nodeScore += req * ScorePlugin.MAX_NODE_SCORE / alloc * resources.weights[i];
        weightSum += resources.weights[i];
      }
      return weightSum == 0 ? 0 : nodeScore / weightSum;
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

    @Override
    long combine(long[] allocs, long[] reqs) {
      long nodeScore = 0;
      long weightSum = 0;
      for (int i = 0; i < allocs.length; i++) {
        long alloc = allocs[i];
        if (alloc == 0) {
          continue;
        }
        long req = reqs[i];
        long s = req > alloc ? function(MAX_UTILIZATION) : function(req * MAX_UTILIZATION / alloc);
        if (s > 0) {
          nodeScore += s * resources.weights[i];
          weightSum += resources.weights[i];
        }
      }
      return weightSum == 0 ? 0 : Math.round((double) nodeScore / (double) weightSum);
    }
  }
}
