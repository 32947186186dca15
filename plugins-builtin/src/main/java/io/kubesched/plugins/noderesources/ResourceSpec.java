package io.kubesched.plugins.noderesources;

import java.util.List;

/**
 * A resource that scoring takes into account, with its weight ({@code ResourceSpec}).
 *
 * @param name the resource name, e.g. {@code cpu}, {@code memory}, {@code nvidia.com/gpu}
 * @param weight the weight; 0 means the default, 1
 */
public record ResourceSpec(String name, long weight) {
  /** The default resources: cpu and memory, weight 1 each. */
  public static final List<ResourceSpec> DEFAULTS =
      List.of(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1));

  /** Applies the default weight 1 to an unset (0) weight, as kube's defaulting does. */
  public ResourceSpec {
    if (weight == 0) {
      weight = 1;
    }
  }
}
