package io.kubesched.plugins.noderesources;

import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.LastFragment;
import io.kubesched.plugins.helper.Signatures;
import java.util.List;
import java.util.Optional;

/**
 * {@code NodeResourcesBalancedAllocation} is a plugin that favours nodes whose resource usage would
 * be balanced across the configured resources once the pod is placed: {@code (1 - std) * 100},
 * where {@code std} is the standard deviation of the usage fractions.
 */
public final class BalancedAllocation
    implements PreScorePlugin, ScorePlugin, CycleBoundScore, SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.NODE_RESOURCES_BALANCED_ALLOCATION;

  static final StateKey<PreScoreState> PRE_SCORE_KEY =
      StateKey.of("PreScore" + NAME, PreScoreState.class);

  private final ResourceAllocation resources;

  /**
   * The pod's requests of the configured resources, without the 100m / 200 MiB defaults.
   *
   * @param podRequests the requests, index-aligned with the configured resources
   */
  record PreScoreState(long[] podRequests) implements StateData {}

  /** Creates the plugin with validated {@code args}. */
  public BalancedAllocation(NodeResourcesBalancedAllocationArgs args) {
    this.resources = new ResourceAllocation(args.resources(), true);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Skips best-effort pods (no request of any configured resource), so that they do not all pile
   * onto the same node (kube-scheduler 1.33); otherwise stores the pod's requests.
   */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    long[] requests = resources.podRequests(pod);
    if (isBestEffort(requests)) {
      return Status.skip();
    }
    state.write(PRE_SCORE_KEY, new PreScoreState(requests));
    return Status.success();
  }

  private static boolean isBestEffort(long[] requests) {
    for (long r : requests) {
      if (r != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    long[] requests = requests(state, pod);
    return requests == null ? 0 : balancedScore(node, requests);
  }

  /** The Score with the pod's requests read once for the cycle. */
  @Override
  public NodeScorer bindScore(CycleState state, PodInfo pod) {
    long[] requests = requests(state, pod);
    return requests == null ? ZERO : new Bound(requests);
  }

  /** The Score of a best-effort pod: 0 everywhere. */
  private static final NodeScorer ZERO =
      new NodeScorer() {
        @Override
        public long score(NodeInfo node) {
          return 0;
        }

        @Override
        public void scoreAll(
            List<NodeInfo> nodes, int from, int to, NodeColumns columns, int[] rows, long[] out) {
          java.util.Arrays.fill(out, from, to, 0L);
        }
      };

  /** The Score of one cycle; {@link #scoreAll} runs one loop over the nodes. */
  private final class Bound implements NodeScorer {
    private final long[] requests;

    Bound(long[] requests) {
      this.requests = requests;
    }

    @Override
    public long score(NodeInfo node) {
      return balancedScore(node, requests);
    }

    @Override
    public void scoreAll(
        List<NodeInfo> nodes, int from, int to, NodeColumns columns, int[] rows, long[] out) {
      if (columns != null && resources.cpuThenMemory()) {
        for (int i = from; i < to; i++) {
          int r = rows[i];
          out[i] =
              balanced(
                  columns.allocatableMilliCpu(r),
                  resources.requested(columns, r, 0, requests[0]),
                  columns.allocatableMemory(r),
                  resources.requested(columns, r, 1, requests[1]));
        }
        return;
      }
      long[] alloc = new long[resources.size()];
      long[] req = new long[resources.size()];
      boolean columnar = columns != null && resources.columnar(requests);
      for (int i = from; i < to; i++) {
        if (columnar) {
          resources.fill(columns, rows[i], requests, alloc, req);
        } else {
          resources.fill(nodes.get(i), requests, alloc, req);
        }
        out[i] = balanced(alloc, req);
      }
    }
  }

  /** The pod's requests from PreScore (computed without it), or null for a best-effort pod. */
  private long[] requests(CycleState state, PodInfo pod) {
    PreScoreState s = state.read(PRE_SCORE_KEY).orElse(null);
    if (s != null) {
      return s.podRequests();
    }
    long[] requests = resources.podRequests(pod);
    return isBestEffort(requests) ? null : requests;
  }

  private long balancedScore(NodeInfo node, long[] podRequests) {
    if (resources.cpuThenMemory()) {
      return balanced(
          node.allocatableMilliCpu(),
          resources.requested(node, 0, podRequests[0]),
          node.allocatableMemory(),
          resources.requested(node, 1, podRequests[1]));
    }
    long[] alloc = new long[resources.size()];
    long[] req = new long[resources.size()];
    resources.fill(node, podRequests, alloc, req);
    return balanced(alloc, req);
  }

  /**
   * The score from each resource's allocatable amount ({@code alloc[i]}, 0 when left out) and the
   * amount requested with the pod added: 1 minus the standard deviation of the usage fractions
   * (each capped at 1), times 100.
   */
  private static long balanced(long[] alloc, long[] req) {
    int count = 0;
    double total = 0;
    double first = 0;
    double second = 0;
    for (int i = 0; i < alloc.length; i++) {
      double f = fraction(alloc[i], req[i]);
      if (f < 0) {
        continue;
      }
      if (count == 0) {
        first = f;
      } else if (count == 1) {
        second = f;
      }
      total += f;
      count++;
    }
    double std = 0;
    if (count == 2) {
      std = Math.abs((first - second) / 2);
    } else if (count > 2) {
      double mean = total / count;
      double sum = 0;
      for (int i = 0; i < alloc.length; i++) {
        double f = fraction(alloc[i], req[i]);
        if (f < 0) {
          continue;
        }
        sum += (f - mean) * (f - mean);
      }
      std = Math.sqrt(sum / count);
    }
    return (long) ((1 - std) * (double) MAX_NODE_SCORE);
  }

  /**
   * {@link #balanced(long[], long[])} for the default resources, cpu then memory, without the
   * arrays (what the Score of nearly every profile computes per node).
   */
  private static long balanced(long allocCpu, long reqCpu, long allocMemory, long reqMemory) {
    double fCpu = fraction(allocCpu, reqCpu);
    double fMemory = fraction(allocMemory, reqMemory);
    double std = fCpu >= 0 && fMemory >= 0 ? Math.abs((fCpu - fMemory) / 2) : 0;
    return (long) ((1 - std) * (double) MAX_NODE_SCORE);
  }

  /** Returns the usage fraction capped at 1, or -1 when the resource is left out (alloc 0). */
  private static double fraction(long alloc, long req) {
    if (alloc == 0) {
      return -1;
    }
    double f = (double) req / (double) alloc;
    return f > 1 ? 1 : f;
  }

  /** Signs the pod by its effective requests. */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    return requestFragments.of(Signatures.Requests.of(pod));
  }

  private final LastFragment<Signatures.Requests> requestFragments =
      new LastFragment<>(Signatures::requests);
}
