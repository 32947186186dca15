package io.kubesched.plugins.interpodaffinity;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import java.util.List;

/**
 * The arguments of {@link InterPodAffinity} (kube's {@code InterPodAffinityArgs}).
 *
 * @param hardPodAffinityWeight the score weight of existing pods' required affinity terms that
 *     the incoming pod matches, 0 to 100 (default 1)
 * @param ignorePreferredTermsOfExistingPods whether existing pods' preferred terms are ignored
 *     when the incoming pod has no preferred terms (default false)
 */
public record InterPodAffinityArgs(
    int hardPodAffinityWeight, boolean ignorePreferredTermsOfExistingPods) implements PluginArgs {

  /** The lowest accepted {@code hardPodAffinityWeight}. */
  public static final int MIN_HARD_POD_AFFINITY_WEIGHT = 0;

  /** The highest accepted {@code hardPodAffinityWeight}. */
  public static final int MAX_HARD_POD_AFFINITY_WEIGHT = 100;

  /** Returns kube's defaults: weight 1, preferred terms of existing pods honoured. */
  public static InterPodAffinityArgs defaults() {
    return new InterPodAffinityArgs(1, false);
  }

  @Override
  public List<FieldError> validate(String path) {
    if (hardPodAffinityWeight < MIN_HARD_POD_AFFINITY_WEIGHT
        || hardPodAffinityWeight > MAX_HARD_POD_AFFINITY_WEIGHT) {
      return List.of(
          new FieldError(
              path + ".hardPodAffinityWeight",
              "Invalid value: "
                  + hardPodAffinityWeight
                  + ": not in valid range ["
                  + MIN_HARD_POD_AFFINITY_WEIGHT
                  + ", "
                  + MAX_HARD_POD_AFFINITY_WEIGHT
                  + "]"));
    }
    return List.of();
  }
}
