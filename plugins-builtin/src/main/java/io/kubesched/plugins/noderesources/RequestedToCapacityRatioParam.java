package io.kubesched.plugins.noderesources;

import java.util.List;

/**
 * The parameters of the {@code RequestedToCapacityRatio} scoring strategy.
 *
 * @param shape the points of the piecewise linear scoring function, by increasing utilisation
 */
public record RequestedToCapacityRatioParam(List<UtilizationShapePoint> shape) {
  /** Copies the shape; {@code null} becomes empty. */
  public RequestedToCapacityRatioParam {
    shape = shape == null ? List.of() : List.copyOf(shape);
  }
}
