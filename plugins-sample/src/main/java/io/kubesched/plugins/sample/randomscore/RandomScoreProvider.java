package io.kubesched.plugins.sample.randomscore;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Registers {@link RandomScore} with the plugin registry. */
public final class RandomScoreProvider implements PluginProvider<RandomScoreArgs> {
  @Override
  public String name() {
    return RandomScore.NAME;
  }

  @Override
  public Class<RandomScoreArgs> argsType() {
    return RandomScoreArgs.class;
  }

  @Override
  public RandomScoreArgs defaultArgs() {
    return RandomScoreArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return RandomScore.class;
  }

  @Override
  public Plugin create(RandomScoreArgs args, FrameworkHandle handle) {
    return new RandomScore(args);
  }
}
