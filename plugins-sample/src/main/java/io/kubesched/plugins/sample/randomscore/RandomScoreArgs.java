package io.kubesched.plugins.sample.randomscore;

import io.kubesched.framework.PluginArgs;

/**
 * The arguments of {@link RandomScore}.
 *
 * @param seed the seed; the same seed gives every (pod, node) pair the same score
 */
public record RandomScoreArgs(long seed) implements PluginArgs {
  /** Returns the default arguments (seed 0). */
  public static RandomScoreArgs defaults() {
    return new RandomScoreArgs(0);
  }
}
