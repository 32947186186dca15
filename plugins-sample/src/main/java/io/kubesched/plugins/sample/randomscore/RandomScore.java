package io.kubesched.plugins.sample.randomscore;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.ScorePlugin;

/**
 * {@code RandomScore} is a Score plugin that gives each node a pseudo-random score in [0, 100], the
 * classic first custom plugin. Enabled with a large weight (the field's example uses 300) it shows
 * how weights dominate the default plugins.
 *
 * <p>The score is a hash of the seed, the pod's UID and the node's name: reproducible for a seed,
 * independent of the order and the threads in which nodes are scored.
 */
public final class RandomScore implements ScorePlugin {
  /** The plugin name. */
  public static final String NAME = "RandomScore";

  private final long seed;

  /** Creates the plugin with {@code args}. */
  public RandomScore(RandomScoreArgs args) {
    this.seed = args.seed();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    long h = seed * 0x9E3779B97F4A7C15L;
    h = mix(h ^ pod.uid().hashCode());
    h = mix(h ^ node.name().hashCode());
    return Math.floorMod(h, MAX_NODE_SCORE + 1);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
