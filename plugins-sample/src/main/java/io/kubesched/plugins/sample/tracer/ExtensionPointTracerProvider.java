package io.kubesched.plugins.sample.tracer;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Registers {@link ExtensionPointTracer} with the plugin registry. */
public final class ExtensionPointTracerProvider
    implements PluginProvider<ExtensionPointTracerArgs> {
  @Override
  public String name() {
    return ExtensionPointTracer.NAME;
  }

  @Override
  public Class<ExtensionPointTracerArgs> argsType() {
    return ExtensionPointTracerArgs.class;
  }

  @Override
  public ExtensionPointTracerArgs defaultArgs() {
    return ExtensionPointTracerArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return ExtensionPointTracer.class;
  }

  @Override
  public Plugin create(ExtensionPointTracerArgs args, FrameworkHandle handle) {
    return new ExtensionPointTracer(args);
  }
}
