package io.kubesched.plugins.sample.imageaffinity;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Registers {@link ImageAffinity} with the plugin registry. */
public final class ImageAffinityProvider implements PluginProvider<ImageAffinityArgs> {
  @Override
  public String name() {
    return ImageAffinity.NAME;
  }

  @Override
  public Class<ImageAffinityArgs> argsType() {
    return ImageAffinityArgs.class;
  }

  @Override
  public ImageAffinityArgs defaultArgs() {
    return ImageAffinityArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return ImageAffinity.class;
  }

  @Override
  public Plugin create(ImageAffinityArgs args, FrameworkHandle handle) {
    return new ImageAffinity(args);
  }
}
