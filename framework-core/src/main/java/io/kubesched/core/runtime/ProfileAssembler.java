package io.kubesched.core.runtime;

import io.kubesched.core.config.PluginConfig;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.config.PluginSet;
import io.kubesched.core.config.Profile;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.ScorePlugin;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Assembles a profile's {@link ProfilePlugins} (kube's part of {@code NewFramework} that builds the
 * plugins and their lists): every plugin named in an enabled list is built once with its {@code
 * pluginConfig} arguments (or the provider's defaults), the explicit lists are checked, MultiPoint
 * is expanded as kube-scheduler does, the Score weights are computed and the profile is checked.
 *
 * <p>One assembler builds one profile once; it is not thread-safe and is discarded afterwards.
 */
final class ProfileAssembler {
  // Logged under the framework's name, where these messages were logged before the split.
  private static final Logger log = LoggerFactory.getLogger(Framework.class);

  private final Profile profile;
  private final String profileName;
  private final PluginRegistry registry;
  private final FrameworkHandle handle;
  private final Map<String, Plugin> pluginsMap = new LinkedHashMap<>();
  private final EnumMap<ExtensionPoint, List<Plugin>> lists = new EnumMap<>(ExtensionPoint.class);
  private final Map<String, Integer> scoreWeights = new LinkedHashMap<>();
  private final Map<String, List<ClusterEventWithHint>> enqueueExtensions = new LinkedHashMap<>();

  /**
   * Prepares the assembly of {@code profile}.
   *
   * @param profile the profile, after defaulting
   * @param registry the available plugins
   * @param handle the handle every plugin is built with
   * @param withExtenders whether the configuration has extenders: then the pseudo-plugin {@value
   *     Framework#EXTENDER_NAME} is registered for every event first, as kube does
   */
  ProfileAssembler(
      Profile profile, PluginRegistry registry, FrameworkHandle handle, boolean withExtenders) {
    this.profile = Objects.requireNonNull(profile, "profile must not be null");
    this.profileName = profile.schedulerName();
    this.registry = Objects.requireNonNull(registry, "registry must not be null");
    this.handle = Objects.requireNonNull(handle, "handle must not be null");
    if (withExtenders) {
      enqueueExtensions.put(Framework.EXTENDER_NAME, unrollWildCardResource());
    }
  }

  /**
   * Builds every plugin named in an enabled list once, checks the explicit lists, expands
   * MultiPoint, computes the Score weights and checks the profile.
   *
   * @return the assembled plugins
   * @throws IllegalArgumentException with kube's message when the profile is invalid
   */
  ProfilePlugins assemble() {
    var plugins = profile.plugins();
    Set<String> needed = new LinkedHashSet<>();
    for (ExtensionPoint p : ExtensionPoint.values()) {
      for (PluginRef r : p.set(plugins).enabled()) {
        needed.add(r.name());
      }
    }
    for (PluginRef r : plugins.multiPoint().enabled()) {
      needed.add(r.name());
    }

    Map<String, PluginArgs> pluginConfig = new HashMap<>();
    for (PluginConfig c : profile.pluginConfig()) {
      if (pluginConfig.containsKey(c.name())) {
        throw new IllegalArgumentException("repeated config for plugin " + c.name());
      }
      pluginConfig.put(c.name(), c.args());
    }

    for (Map.Entry<String, PluginProvider<?>> e : registry.providers().entrySet()) {
      String name = e.getKey();
      if (!needed.contains(name)) {
        continue;
      }
      Plugin p = instantiate(name, e.getValue(), pluginConfig.get(name));
      pluginsMap.put(name, p);
      fillEnqueueExtensions(p);
    }

    for (ExtensionPoint p : ExtensionPoint.values()) {
      lists.put(p, explicitList(p, p.set(plugins)));
    }
    if (!plugins.multiPoint().enabled().isEmpty()) {
      expandMultiPoint();
    }

    List<Plugin> queueSort = lists.get(ExtensionPoint.QUEUE_SORT);
    if (queueSort.size() != 1) {
      throw new IllegalArgumentException(
          "only one queue sort plugin required for profile with scheduler name \""
              + profileName
              + "\", but got "
              + queueSort.size());
    }
    if (lists.get(ExtensionPoint.BIND).isEmpty()) {
      throw new IllegalArgumentException(
          "at least one bind plugin is needed for profile with scheduler name \""
              + profileName
              + "\"");
    }

    List<PluginRef> weighted = new ArrayList<>(plugins.score().enabled());
    weighted.addAll(plugins.multiPoint().enabled());
    computeScoreWeights(weighted);

    ProfilePlugins assembled =
        new ProfilePlugins(pluginsMap, lists, scoreWeights, enqueueExtensions);
    for (ScorePlugin sp : assembled.score()) {
      Integer w = scoreWeights.get(sp.name());
      if (w == null || w == 0) {
        throw new IllegalArgumentException(
            "score plugin \"" + sp.name() + "\" is not configured with weight");
      }
    }
    return assembled;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Plugin instantiate(String name, PluginProvider provider, PluginArgs configured) {
    PluginArgs args = configured != null ? configured : provider.defaultArgs();
    if (args != null && !provider.argsType().isInstance(args)) {
      throw new IllegalArgumentException(
          "initializing plugin \""
              + name
              + "\": want args of type "
              + provider.argsType().getSimpleName()
              + ", got "
              + args.getClass().getSimpleName());
    }
    Plugin p;
    try {
      p = provider.create(args, handle);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "initializing plugin \"" + name + "\": " + e.getMessage(), e);
    }
    if (p == null) {
      throw new IllegalArgumentException(
          "initializing plugin \"" + name + "\": the provider returned no plugin");
    }
    return p;
  }

  private static boolean shouldHaveEnqueueExtensions(Plugin p) {
    return p instanceof PreEnqueuePlugin
        || p instanceof PreFilterPlugin
        || p instanceof FilterPlugin
        || p instanceof ReservePlugin
        || p instanceof PermitPlugin;
  }

  private void fillEnqueueExtensions(Plugin p) {
    if (!shouldHaveEnqueueExtensions(p)) {
      return;
    }
    if (p instanceof EnqueueExtensions ext) {
      List<ClusterEventWithHint> events = ext.eventsToRegister();
      enqueueExtensions.put(p.name(), events == null ? List.of() : List.copyOf(events));
    } else {
      enqueueExtensions.put(p.name(), unrollWildCardResource());
    }
  }

  /** See {@link Framework#unrollWildCardResource()}. */
  static List<ClusterEventWithHint> unrollWildCardResource() {
    String[] resources = {
      EventResource.POD,
      EventResource.NODE,
      EventResource.PERSISTENT_VOLUME,
      EventResource.PERSISTENT_VOLUME_CLAIM,
      "storage.k8s.io/CSINode",
      "storage.k8s.io/CSIDriver",
      "storage.k8s.io/CSIStorageCapacity",
      EventResource.STORAGE_CLASS,
      "resource.k8s.io/ResourceClaim",
      "resource.k8s.io/ResourceSlice",
      "resource.k8s.io/DeviceClass"
    };
    List<ClusterEventWithHint> out = new ArrayList<>(resources.length);
    for (String r : resources) {
      out.add(ClusterEventWithHint.of(r, ActionType.ALL));
    }
    return List.copyOf(out);
  }

  private IllegalArgumentException doesNotExist(ExtensionPoint p, String name) {
    return new IllegalArgumentException(
        p.typeName()
            + " \""
            + name
            + "\" does not exist (available plugins: "
            + String.join(", ", registry.names())
            + ")");
  }

  private List<Plugin> explicitList(ExtensionPoint p, PluginSet set) {
    List<Plugin> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (PluginRef r : set.enabled()) {
      Plugin pg = pluginsMap.get(r.name());
      if (pg == null) {
        throw doesNotExist(p, r.name());
      }
      if (!p.type().isInstance(pg)) {
        throw new IllegalArgumentException(
            "plugin \"" + r.name() + "\" does not extend " + p.typeName() + " plugin");
      }
      if (!seen.add(r.name())) {
        throw new IllegalArgumentException(
            "plugin \"" + r.name() + "\" already registered as \"" + p.typeName() + "\"");
      }
      out.add(pg);
    }
    return out;
  }

  private void expandMultiPoint() {
    var plugins = profile.plugins();
    for (ExtensionPoint p : ExtensionPoint.values()) {
      PluginSet set = p.set(plugins);
      List<String> enabled = new ArrayList<>();
      for (PluginRef r : set.enabled()) {
        if (!enabled.contains(r.name())) {
          enabled.add(r.name());
        }
      }
      Set<String> disabled = new HashSet<>();
      for (PluginRef r : set.disabled()) {
        disabled.add(r.name());
      }
      if (disabled.contains("*")) {
        log.atDebug()
            .setMessage("skipped MultiPoint expansion because all plugins are disabled")
            .addKeyValue("extensionPoint", p.label())
            .log();
        continue;
      }
      Set<String> multiPointEnabled = new LinkedHashSet<>();
      Set<String> overrides = new HashSet<>();
      for (PluginRef r : plugins.multiPoint().enabled()) {
        Plugin pg = pluginsMap.get(r.name());
        if (pg == null) {
          throw doesNotExist(p, r.name());
        }
        if (!p.type().isInstance(pg)) {
          continue;
        }
        if (disabled.contains(r.name())) {
          continue;
        }
        if (enabled.contains(r.name())) {
          overrides.add(r.name());
          log.atInfo()
              .setMessage("MultiPoint plugin is explicitly re-configured; overriding")
              .addKeyValue("plugin", r.name())
              .addKeyValue("extensionPoint", p.label())
              .log();
          continue;
        }
        if (!multiPointEnabled.add(r.name())) {
          throw new IllegalArgumentException(
              "plugin \"" + r.name() + "\" already registered as \"" + p.typeName() + "\"");
        }
      }
      List<Plugin> ordered = new ArrayList<>();
      List<String> rest = new ArrayList<>();
      for (String name : enabled) {
        if (overrides.contains(name)) {
          ordered.add(pluginsMap.get(name));
        } else {
          rest.add(name);
        }
      }
      for (String name : multiPointEnabled) {
        ordered.add(pluginsMap.get(name));
      }
      for (String name : rest) {
        ordered.add(pluginsMap.get(name));
      }
      lists.put(p, ordered);
    }
  }

  private void computeScoreWeights(List<PluginRef> refs) {
    long total = 0;
    for (PluginRef r : refs) {
      Plugin pg = pluginsMap.get(r.name());
      if (!(pg instanceof ScorePlugin)) {
        continue;
      }
      if (scoreWeights.containsKey(r.name())) {
        continue;
      }
      int w = r.weight() == null || r.weight() == 0 ? 1 : r.weight();
      scoreWeights.put(r.name(), w);
      if ((long) w * ScorePlugin.MAX_NODE_SCORE > Long.MAX_VALUE - total) {
        throw new IllegalArgumentException("total score of Score plugins could overflow");
      }
      total += (long) w * ScorePlugin.MAX_NODE_SCORE;
    }
  }
}
