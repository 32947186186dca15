package io.kubesched.plugins.noderesources;

import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Resource;
import io.kubesched.framework.ResourceNames;
import java.util.List;

/**
 * The per-resource inputs of the resource scorers (kube's {@code resourceAllocationScorer}): for
 * each configured resource, the node's allocatable amount and the amount requested on the node once
 * the pod is added. A resource is left out of a node's score (allocatable 0) when the node does not
 * have it, or when it is a scalar resource the pod does not request.
 */
final class ResourceAllocation {
  private static final int CPU = 0;
  private static final int MEMORY = 1;
  private static final int EPHEMERAL = 2;
  private static final int OTHER = 3;
  private static final int PODS = 4;

  final String[] names;
  final long[] weights;
  private final int[] kinds;
  private final boolean[] scalar;
  private final boolean useRequested;

  /**
   * @param resources the configured resources
   * @param useRequested whether cpu and memory on the node count the pods' plain requests
   *     (BalancedAllocation) instead of the requests with the 100m / 200 MiB defaults (Fit)
   */
  ResourceAllocation(List<ResourceSpec> resources, boolean useRequested) {
    int n = resources.size();
    this.names = new String[n];
    this.weights = new long[n];
    this.kinds = new int[n];
    this.scalar = new boolean[n];
    this.useRequested = useRequested;
    for (int i = 0; i < n; i++) {
      String name = resources.get(i).name();
      names[i] = name;
      weights[i] = resources.get(i).weight();
      scalar[i] = ResourceNames.isScalar(name);
      kinds[i] =
          switch (name) {
            case ResourceNames.CPU -> CPU;
            case ResourceNames.MEMORY -> MEMORY;
            case ResourceNames.EPHEMERAL_STORAGE -> EPHEMERAL;
            case ResourceNames.PODS -> PODS;
            default -> OTHER;
          };
    }
  }

  /**
   * Whether the resources are cpu then memory, nothing else (the default): neither is scalar, so
   * both always come from the columns.
   */
  boolean cpuThenMemory() {
    return kinds.length == 2 && kinds[0] == CPU && kinds[1] == MEMORY;
  }

  int size() {
    return names.length;
  }

  /** Returns the pod's request of each configured resource. */
  long[] podRequests(PodInfo pod) {
    long[] out = new long[names.length];
    Resource req = pod.requests();
    for (int i = 0; i < names.length; i++) {
      out[i] =
          switch (kinds[i]) {
            case CPU -> useRequested ? req.milliCpu() : pod.nonZeroMilliCpu();
            case MEMORY -> useRequested ? req.memory() : pod.nonZeroMemory();
            case EPHEMERAL -> req.ephemeralStorage();
            case PODS -> req.allowedPodNumber();
            default -> req.scalar(names[i]);
          };
    }
    return out;
  }

  /** Returns the node's allocatable amount of resource {@code i}, 0 when it is left out. */
  long allocatable(NodeInfo node, int i, long podRequest) {
    if (podRequest == 0 && scalar[i]) {
      return 0;
    }
    return switch (kinds[i]) {
      case CPU -> node.allocatableMilliCpu();
      case MEMORY -> node.allocatableMemory();
      case EPHEMERAL -> node.allocatableEphemeralStorage();
      case PODS -> 0;
      default -> node.allocatable().scalar(names[i]);
    };
  }

  /** Returns the amount of resource {@code i} requested on the node with the pod added. */
  long requested(NodeInfo node, int i, long podRequest) {
    return podRequest
        + switch (kinds[i]) {
          case CPU -> useRequested ? node.requestedMilliCpu() : node.nonZeroMilliCpu();
          case MEMORY -> useRequested ? node.requestedMemory() : node.nonZeroMemory();
          case EPHEMERAL -> node.requestedEphemeralStorage();
          case PODS -> 0;
          default -> node.requested().scalar(names[i]);
        };
  }

  /**
   * Fills {@code alloc[i]} with {@link #allocatable} and {@code req[i]} with {@link #requested} (0
   * where the resource is left out) for every configured resource.
   */
  void fill(NodeInfo node, long[] podRequests, long[] alloc, long[] req) {
    for (int i = 0; i < names.length; i++) {
      long a = allocatable(node, i, podRequests[i]);
      alloc[i] = a;
      req[i] = a == 0 ? 0 : requested(node, i, podRequests[i]);
    }
  }

  /**
   * Returns whether the columns answer {@link #allocatable} and {@link #requested} for a pod with
   * {@code podRequests}: every resource is cpu, memory, ephemeral storage or pods, or a scalar
   * resource the pod does not request (left out).
   */
  boolean columnar(long[] podRequests) {
    for (int i = 0; i < names.length; i++) {
      if (kinds[i] == OTHER && !(scalar[i] && podRequests[i] == 0)) {
        return false;
      }
    }
    return true;
  }

  /** {@link #allocatable(NodeInfo, int, long)} from the snapshot's columns at row {@code r}. */
  long allocatable(NodeColumns c, int r, int i, long podRequest) {
    if (podRequest == 0 && scalar[i]) {
      return 0;
    }
    return switch (kinds[i]) {
      case CPU -> c.allocatableMilliCpu(r);
      case MEMORY -> c.allocatableMemory(r);
      case EPHEMERAL -> c.allocatableEphemeralStorage(r);
      // pods are always left out; other resources never reach here (see columnar)
      default -> 0;
    };
  }

  /** {@link #requested(NodeInfo, int, long)} from the snapshot's columns at row {@code r}. */
  long requested(NodeColumns c, int r, int i, long podRequest) {
    return podRequest
        + switch (kinds[i]) {
          case CPU -> useRequested ? c.requestedMilliCpu(r) : c.nonZeroMilliCpu(r);
          case MEMORY -> useRequested ? c.requestedMemory(r) : c.nonZeroMemory(r);
          case EPHEMERAL -> c.requestedEphemeralStorage(r);
          default -> 0;
        };
  }

  /** {@link #fill(NodeInfo, long[], long[], long[])} from the snapshot's columns at row r. */
  void fill(NodeColumns c, int r, long[] podRequests, long[] alloc, long[] req) {
    for (int i = 0; i < names.length; i++) {
      long a = allocatable(c, r, i, podRequests[i]);
      alloc[i] = a;
      req[i] = a == 0 ? 0 : requested(c, r, i, podRequests[i]);
    }
  }
}
