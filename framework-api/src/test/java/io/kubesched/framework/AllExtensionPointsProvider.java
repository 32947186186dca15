package io.kubesched.framework;

/** The test provider listed in META-INF/services, found by {@link java.util.ServiceLoader}. */
public final class AllExtensionPointsProvider implements PluginProvider<NoArgs> {
  /** Required by ServiceLoader. */
  public AllExtensionPointsProvider() {}

  @Override
  public String name() {
    return AllExtensionPointsPlugin.NAME;
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
    return AllExtensionPointsPlugin.class;
  }

  @Override
  public Plugin create(NoArgs args, FrameworkHandle handle) {
    return new AllExtensionPointsPlugin();
  }
}
