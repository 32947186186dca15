package io.kubesched.plugins.noderesources;

import java.util.List;

/**
 * How {@code NodeResourcesFit} scores nodes ({@code ScoringStrategy}).
 *
 * @param type {@code LeastAllocated}, {@code MostAllocated} or {@code RequestedToCapacityRatio}
 * @param resources the resources to score and their weights; empty means cpu and memory
 * @param requestedToCapacityRatio the function shape, for {@code RequestedToCapacityRatio} only
 */
public record ScoringStrategy(
    String type,
    List<ResourceSpec> resources,
    RequestedToCapacityRatioParam requestedToCapacityRatio) {
  /** The strategy favouring nodes with the most free resources (the default). */
  public static final String LEAST_ALLOCATED = "LeastAllocated";

  /** The strategy favouring nodes with the fewest free resources (bin packing). */
  public static final String MOST_ALLOCATED = "MostAllocated";

  /** The strategy scoring utilisation through a configured piecewise linear function. */
  public static final String REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio";

  /** Applies kube's defaults: no resources means cpu and memory with weight 1. */
  public ScoringStrategy {
    resources =
        resources == null || resources.isEmpty() ? ResourceSpec.DEFAULTS : List.copyOf(resources);
  }

  /** Returns the default strategy: {@code LeastAllocated} over cpu and memory. */
  public static ScoringStrategy defaults() {
    return new ScoringStrategy(LEAST_ALLOCATED, ResourceSpec.DEFAULTS, null);
  }
}
