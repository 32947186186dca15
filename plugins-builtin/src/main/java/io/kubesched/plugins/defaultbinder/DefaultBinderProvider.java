package io.kubesched.plugins.defaultbinder;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link DefaultBinder}, which takes no arguments. */
public final class DefaultBinderProvider implements PluginProvider<NoArgs> {
  /** Creates the provider. */
  public DefaultBinderProvider() {}

  @Override
  public String name() {
    return DefaultBinder.NAME;
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
    return DefaultBinder.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new DefaultBinder(handle);
  }
}
