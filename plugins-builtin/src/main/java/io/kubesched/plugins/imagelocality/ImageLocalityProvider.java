package io.kubesched.plugins.imagelocality;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link ImageLocality}, which takes no arguments. */
public final class ImageLocalityProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public ImageLocalityProvider() {}

  @Override
  public String name() {
    return ImageLocality.NAME;
  }

  @Override
  public Class<NoArgs> argsType() {
    return NoArgs.class;
  }

  @Override
  public NoArgs defaultArgs() {
    return NoArgs.INSTANCE;
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return ImageLocality.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new ImageLocality(handle);
  }
}
