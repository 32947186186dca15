package io.kubesched.core.config;

import io.kubesched.framework.FeatureGates;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-scheduler v1.33's default plugins ({@code getDefaultPlugins} in {@code
 * pkg/scheduler/apis/config/v1/default_plugins.go}) and the merging of a profile's own plugin sets
 * into them ({@code mergePlugins}/{@code mergePluginSet}).
 *
 * <p>DynamicResources is added as kube adds it, only with the {@code DynamicResourceAllocation}
 * gate; every other entry, its order and its weight are upstream's.
 */
public final class DefaultPlugins {
  private static final Logger log = LoggerFactory.getLogger(DefaultPlugins.class);

  /** The name of the SchedulingGates plugin. */
  public static final String SCHEDULING_GATES = "SchedulingGates";

  /** The name of the PrioritySort plugin. */
  public static final String PRIORITY_SORT = "PrioritySort";

  /** The name of the NodeUnschedulable plugin. */
  public static final String NODE_UNSCHEDULABLE = "NodeUnschedulable";

  /** The name of the NodeName plugin. */
  public static final String NODE_NAME = "NodeName";

  /** The name of the TaintToleration plugin. */
  public static final String TAINT_TOLERATION = "TaintToleration";

  /** The name of the NodeAffinity plugin. */
  public static final String NODE_AFFINITY = "NodeAffinity";

  /** The name of the NodePorts plugin. */
  public static final String NODE_PORTS = "NodePorts";

  /** The name of the NodeResourcesFit plugin. */
  public static final String NODE_RESOURCES_FIT = "NodeResourcesFit";

  /** The name of the VolumeRestrictions plugin. */
  public static final String VOLUME_RESTRICTIONS = "VolumeRestrictions";

  /** The name of the NodeVolumeLimits plugin. */
  public static final String NODE_VOLUME_LIMITS = "NodeVolumeLimits";

  /** The name of the VolumeBinding plugin. */
  public static final String VOLUME_BINDING = "VolumeBinding";

  /** The name of the VolumeZone plugin. */
  public static final String VOLUME_ZONE = "VolumeZone";

  /** The name of the PodTopologySpread plugin. */
  public static final String POD_TOPOLOGY_SPREAD = "PodTopologySpread";

  /** The name of the InterPodAffinity plugin. */
  public static final String INTER_POD_AFFINITY = "InterPodAffinity";

  /** The name of the DefaultPreemption plugin. */
  public static final String DEFAULT_PREEMPTION = "DefaultPreemption";

  /** The name of the NodeResourcesBalancedAllocation plugin. */
  public static final String NODE_RESOURCES_BALANCED_ALLOCATION = "NodeResourcesBalancedAllocation";

  /** The name of the ImageLocality plugin. */
  public static final String IMAGE_LOCALITY = "ImageLocality";

  /** The name of the DynamicResources plugin (default only with DynamicResourceAllocation). */
  public static final String DYNAMIC_RESOURCES = "DynamicResources";

  /** The name of the DefaultBinder plugin. */
  public static final String DEFAULT_BINDER = "DefaultBinder";

  private static final List<PluginRef> MULTI_POINT =
      List.of(
          PluginRef.of(SCHEDULING_GATES),
          PluginRef.of(PRIORITY_SORT),
          PluginRef.of(NODE_UNSCHEDULABLE),
          PluginRef.of(NODE_NAME),
          PluginRef.of(TAINT_TOLERATION, 3),
          PluginRef.of(NODE_AFFINITY, 2),
          PluginRef.of(NODE_PORTS),
          PluginRef.of(NODE_RESOURCES_FIT, 1),
          PluginRef.of(VOLUME_RESTRICTIONS),
          PluginRef.of(NODE_VOLUME_LIMITS),
          PluginRef.of(VOLUME_BINDING),
          PluginRef.of(VOLUME_ZONE),
          PluginRef.of(POD_TOPOLOGY_SPREAD, 2),
          PluginRef.of(INTER_POD_AFFINITY, 2),
          PluginRef.of(DEFAULT_PREEMPTION),
          PluginRef.of(NODE_RESOURCES_BALANCED_ALLOCATION, 1),
          PluginRef.of(IMAGE_LOCALITY, 1),
          PluginRef.of(DEFAULT_BINDER));

  private DefaultPlugins() {}

  /**
   * Returns the default plugins: every default enabled through {@code multiPoint}, in upstream's
   * order and with upstream's weights; every other extension point empty.
   */
  public static Plugins multiPoint() {
    return multiPoint(FeatureGates.defaults());
  }

  /**
   * Returns the default plugins under {@code gates}, as kube's {@code applyFeatureGates}: with
   * {@code DynamicResourceAllocation} on, DynamicResources comes right before DefaultPreemption.
   */
  public static Plugins multiPoint(FeatureGates gates) {
    List<PluginRef> enabled = MULTI_POINT;
    if (gates.enabled(FeatureGates.DYNAMIC_RESOURCE_ALLOCATION)) {
      enabled = new ArrayList<>();
      for (PluginRef p : MULTI_POINT) {
        if (p.name().equals(DEFAULT_PREEMPTION)) {
          enabled.add(PluginRef.of(DYNAMIC_RESOURCES));
        }
        enabled.add(p);
      }
      enabled = List.copyOf(enabled);
    }
    return new Plugins(
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        new PluginSet(enabled, List.of()));
  }

  /**
   * Merges a profile's own plugin sets into {@code defaults}, point by point, as kube's {@code
   * mergePlugins} does.
   *
   * @param defaults the default plugins
   * @param custom the profile's plugins, or {@code null} to keep the defaults
   */
  public static Plugins merge(Plugins defaults, Plugins custom) {
    if (custom == null) {
      return defaults;
    }
    return new Plugins(
        mergeSet(defaults.preEnqueue(), custom.preEnqueue()),
        mergeSet(defaults.queueSort(), custom.queueSort()),
        mergeSet(defaults.preFilter(), custom.preFilter()),
        mergeSet(defaults.filter(), custom.filter()),
        mergeSet(defaults.postFilter(), custom.postFilter()),
        mergeSet(defaults.preScore(), custom.preScore()),
        mergeSet(defaults.score(), custom.score()),
        mergeSet(defaults.reserve(), custom.reserve()),
        mergeSet(defaults.permit(), custom.permit()),
        mergeSet(defaults.preBind(), custom.preBind()),
        mergeSet(defaults.bind(), custom.bind()),
        mergeSet(defaults.postBind(), custom.postBind()),
        mergeSet(defaults.multiPoint(), custom.multiPoint()));
  }

  /**
   * Merges one extension point as kube's {@code mergePluginSet} does: defaults named in {@code
   * custom.disabled} are dropped ({@code "*"} drops them all); a default that {@code custom}
   * enables again is replaced in place by the custom entry (so its weight is overridden but its
   * position kept); the other custom entries follow in their order, duplicates included. The
   * result's disabled list is the custom one followed by the default one, names only, so that
   * MultiPoint expansion can honour it.
   */
  public static PluginSet mergeSet(PluginSet defaults, PluginSet custom) {
    Set<String> disabledNames = new HashSet<>();
    List<PluginRef> disabled = new ArrayList<>();
    for (PluginRef p : custom.disabled()) {
      disabled.add(PluginRef.of(p.name()));
      disabledNames.add(p.name());
    }
    for (PluginRef p : defaults.disabled()) {
      disabled.add(PluginRef.of(p.name()));
      disabledNames.add(p.name());
    }
    // The last custom entry of a name is the one that replaces the default (Go map semantics).
    Map<String, Integer> customIndex = new HashMap<>();
    for (int i = 0; i < custom.enabled().size(); i++) {
      customIndex.put(custom.enabled().get(i).name(), i);
    }
    Set<Integer> replaced = new HashSet<>();
    List<PluginRef> enabled = new ArrayList<>();
    if (!disabledNames.contains("*")) {
      for (PluginRef p : defaults.enabled()) {
        if (disabledNames.contains(p.name())) {
          continue;
        }
        Integer idx = customIndex.get(p.name());
        if (idx != null) {
          log.atInfo()
              .setMessage("default plugin is explicitly re-configured; overriding")
              .addKeyValue("plugin", p.name())
              .log();
          p = custom.enabled().get(idx);
          replaced.add(idx);
        }
        enabled.add(p);
      }
    }
    for (int i = 0; i < custom.enabled().size(); i++) {
      if (!replaced.contains(i)) {
        enabled.add(custom.enabled().get(i));
      }
    }
    return new PluginSet(enabled, disabled);
  }
}
