package io.kubesched.plugins.noderesources;

/**
 * A point of the {@code RequestedToCapacityRatio} scoring function.
 *
 * @param utilization the utilisation, 0 to 100
 * @param score the score at that utilisation, 0 to 10 (scaled by 10 to the node score range)
 */
public record UtilizationShapePoint(int utilization, int score) {}
