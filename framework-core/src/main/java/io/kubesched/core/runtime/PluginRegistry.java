package io.kubesched.core.runtime;

import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.config.PluginSet;
import io.kubesched.core.config.Profile;
import io.kubesched.framework.CustomResource;
import io.kubesched.framework.CustomResourceUser;
import io.kubesched.framework.PluginProvider;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugins available to the scheduler, by name (kube's {@code runtime.Registry}): the providers
 * found with {@link ServiceLoader} plus those registered programmatically. Being registered makes a
 * plugin available; a profile makes it enabled.
 *
 * <p>Not a global: build one and pass it to the scheduler. Not thread-safe while being filled.
 */
public final class PluginRegistry {
  private static final Logger log = LoggerFactory.getLogger(PluginRegistry.class);

  private final Map<String, PluginProvider<?>> providers = new LinkedHashMap<>();

  /** Returns an empty registry. */
  public static PluginRegistry empty() {
    return new PluginRegistry();
  }

  /** Returns a registry with every provider found by the context class loader. */
  public static PluginRegistry discover() {
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    return empty().discover(cl == null ? PluginRegistry.class.getClassLoader() : cl);
  }

  /**
   * Adds every provider {@link ServiceLoader} finds with {@code loader}.
   *
   * @throws PluginRegistrationException when two providers share a name
   */
  @SuppressWarnings("rawtypes")
  public PluginRegistry discover(ClassLoader loader) {
    for (PluginProvider p : ServiceLoader.load(PluginProvider.class, loader)) {
      register(p);
    }
    return this;
  }

  /**
   * Adds {@code provider}.
   *
   * @throws PluginRegistrationException naming both classes when its name is taken
   */
  public PluginRegistry register(PluginProvider<?> provider) {
    String name = provider.name();
    PluginProvider<?> existing = providers.get(name);
    if (existing != null) {
      if (existing.getClass().equals(provider.getClass())) {
        return this;
      }
      throw new PluginRegistrationException(
          "a plugin named "
              + name
              + " already exists: "
              + existing.getClass().getName()
              + " and "
              + provider.getClass().getName());
    }
    providers.put(name, provider);
    log.atDebug()
        .setMessage("plugin registered")
        .addKeyValue("plugin", name)
        .addKeyValue("class", provider.getClass().getName())
        .addKeyValue(
            "source",
            () -> {
              var cs = provider.getClass().getProtectionDomain().getCodeSource();
              return cs == null ? "" : String.valueOf(cs.getLocation());
            })
        .log();
    return this;
  }

  /** Returns the provider named {@code name}. */
  public Optional<PluginProvider<?>> get(String name) {
    return Optional.ofNullable(providers.get(name));
  }

  /** Returns whether a plugin named {@code name} is registered. */
  public boolean contains(String name) {
    return providers.containsKey(name);
  }

  /** Returns the registered names, sorted. */
  public List<String> names() {
    return List.copyOf(new TreeSet<>(providers.keySet()));
  }

  /** Returns the providers by name, in registration order; read-only. */
  public Map<String, PluginProvider<?>> providers() {
    return Collections.unmodifiableMap(providers);
  }

  /**
   * Returns the custom resources the plugins of {@code config} read: those declared ({@link
   * CustomResourceUser}) by the providers of the plugins enabled at any extension point of any
   * profile, without duplicates, in profile order.
   */
  public List<CustomResource> customResources(KubeSchedulerConfiguration config) {
    Set<CustomResource> out = new LinkedHashSet<>();
    for (Profile p : config.profiles()) {
      for (PluginSet set : p.plugins().byExtensionPoint().values()) {
        for (PluginRef ref : set.enabled()) {
          PluginProvider<?> provider = providers.get(ref.name());
          if (provider instanceof CustomResourceUser user) {
            out.addAll(user.customResources());
          }
        }
      }
    }
    return List.copyOf(out);
  }
}
