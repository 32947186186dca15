package io.kubesched.framework;

/**
 * The service-provider interface through which plugins are found: each plugin jar lists its
 * providers in {@code META-INF/services/io.kubesched.framework.PluginProvider}, and the registry
 * finds them with {@link java.util.ServiceLoader}.
 *
 * <p>Discovery makes a plugin <em>available</em>; a profile of the configuration makes it
 * <em>enabled</em>. A provider is stateless and needs a public no-argument constructor.
 *
 * @param <A> the type of the plugin's arguments
 */
public interface PluginProvider<A extends PluginArgs> {
  /** Returns the plugin's name, unique among all providers, e.g. {@code "NodeResourcesFit"}. */
  String name();

  /** Returns the type of the plugin's arguments ({@link NoArgs} when it takes none). */
  Class<A> argsType();

  /** Returns the arguments used when the configuration gives none. */
  A defaultArgs();

  /**
   * Returns the class of the plugins {@link #create} builds, so that tools can list a plugin's
   * extension points without building it.
   */
  Class<? extends Plugin> pluginType();

  /**
   * Builds the plugin for one profile.
   *
   * @param args the validated arguments, never {@code null}
   * @param handle what the framework offers to the plugin, never {@code null}
   * @throws IllegalArgumentException when the arguments are not acceptable
   */
  Plugin create(A args, FrameworkHandle handle);
}
