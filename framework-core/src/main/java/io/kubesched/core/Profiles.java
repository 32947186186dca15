package io.kubesched.core;

import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.config.Profile;
import io.kubesched.core.extender.HttpExtender;
import io.kubesched.core.queue.QueueProfile;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.FrameworkContext;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.runtime.SchedulerExtender;
import io.kubesched.framework.EventRecorder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Builds the scheduler's profiles from its configuration (kube's {@code buildExtenders} and {@code
 * profile.NewMap}): the extenders, then one {@link Framework} per profile, checking that scheduler
 * names are unique and that all profiles share one QueueSort plugin.
 */
final class Profiles {
  private Profiles() {}

  /**
   * Returns the configuration's {@link HttpExtender}s followed by {@code extra}.
   *
   * @throws IllegalArgumentException when an extender is invalid, prefixed {@code extenders[i]: }
   */
  static List<SchedulerExtender> extenders(
      KubeSchedulerConfiguration config, List<SchedulerExtender> extra) {
    List<SchedulerExtender> extenders = new ArrayList<>();
    for (int i = 0; i < config.extenders().size(); i++) {
      try {
        extenders.add(HttpExtender.create(config.extenders().get(i)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("extenders[" + i + "]: " + e.getMessage(), e);
      }
    }
    extenders.addAll(extra);
    return extenders;
  }

  /**
   * Builds one framework per profile, by scheduler name in configuration order (unmodifiable).
   *
   * @throws IllegalArgumentException when a profile is invalid, two profiles share a scheduler name
   *     or use different QueueSort plugins
   */
  static Map<String, Framework> frameworks(
      KubeSchedulerConfiguration config,
      PluginRegistry registry,
      FrameworkContext ctx,
      List<SchedulerExtender> extenders,
      Function<String, EventRecorder> recorders) {
    Map<String, Framework> built = new LinkedHashMap<>();
    Framework first = null;
    for (int i = 0; i < config.profiles().size(); i++) {
      Profile p = config.profiles().get(i);
      if (built.containsKey(p.schedulerName())) {
        throw new IllegalArgumentException(
            "profiles[" + i + "].schedulerName: Duplicate value: \"" + p.schedulerName() + "\"");
      }
      Framework fwk =
          Framework.create(
              p,
              config.percentageOfNodesToScore(),
              registry,
              ctx.withEventRecorder(recorders.apply(p.schedulerName())),
              extenders);
      if (first == null) {
        first = fwk;
      } else if (!first.queueSortPlugin().name().equals(fwk.queueSortPlugin().name())) {
        throw new IllegalArgumentException(
            "different queue sort plugins for profile \""
                + p.schedulerName()
                + "\": \""
                + fwk.queueSortPlugin().name()
                + "\", first: \""
                + first.queueSortPlugin().name()
                + "\"");
      }
      built.put(p.schedulerName(), fwk);
    }
    return Collections.unmodifiableMap(built);
  }

  /** Returns each framework's PreEnqueue plugins and registered events, by scheduler name. */
  static Map<String, QueueProfile> queueProfiles(Map<String, Framework> frameworks) {
    Map<String, QueueProfile> out = new LinkedHashMap<>();
    frameworks.forEach(
        (name, fwk) ->
            out.put(name, new QueueProfile(fwk::runPreEnqueuePlugins, fwk.enqueueExtensions())));
    return out;
  }
}
