package io.kubesched.core.config;

import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.validation.FieldErrors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Test-only plugin providers standing in for the builtin plugins (which live in a module
 * framework-core cannot depend on) and for custom out-of-tree plugins.
 */
final class ConfigTestPlugins {
  private ConfigTestPlugins() {}

  /** A plugin that does nothing. */
  record StubPlugin(String name) implements Plugin {}

  /** A provider of {@link StubPlugin}s with the given args type and defaults. */
  record TestProvider<A extends PluginArgs>(String name, Class<A> argsType, A defaultArgs)
      implements PluginProvider<A> {
    @Override
    public Class<? extends Plugin> pluginType() {
      return StubPlugin.class;
    }

    @Override
    public Plugin create(A args, FrameworkHandle handle) {
      return new StubPlugin(name);
    }
  }

  static TestProvider<NoArgs> noArgs(String name) {
    return new TestProvider<>(name, NoArgs.class, NoArgs.INSTANCE);
  }

  /** Scoring strategy types, as NodeResourcesFit's. */
  enum ScoringType {
    LeastAllocated,
    MostAllocated,
    RequestedToCapacityRatio
  }

  /** A resource and its weight. */
  record ResourceSpec(String name, long weight) {}

  /** A nested record with a list. */
  record ScoringStrategy(ScoringType type, List<ResourceSpec> resources) {}

  /** Like NodeResourcesFitArgs: a nested record with a list, and two plain lists. */
  record FitArgs(
      ScoringStrategy scoringStrategy,
      List<String> ignoredResources,
      List<String> ignoredResourceGroups)
      implements PluginArgs {
    static final FitArgs DEFAULT =
        new FitArgs(
            new ScoringStrategy(
                ScoringType.LeastAllocated,
                List.of(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1))),
            List.of(),
            List.of());

    @Override
    public List<FieldError> validate(String path) {
      List<FieldError> errs = new ArrayList<>();
      List<ResourceSpec> resources = scoringStrategy.resources();
      for (int i = 0; i < resources.size(); i++) {
        long w = resources.get(i).weight();
        if (w <= 0 || w > 100) {
          errs.add(
              FieldErrors.invalid(
                  path + ".scoringStrategy.resources[" + i + "].weight",
                  w,
                  "resource weight of "
                      + resources.get(i).name()
                      + " not in valid range (0, 100]"));
        }
      }
      for (int i = 0; i < ignoredResourceGroups.size(); i++) {
        if (ignoredResourceGroups.get(i).contains("/")) {
          errs.add(
              FieldErrors.invalid(
                  path + ".ignoredResourceGroups[" + i + "]",
                  ignoredResourceGroups.get(i),
                  "resource group name can't contain '/'"));
        }
      }
      return errs;
    }
  }

  /** Like DefaultPreemptionArgs. */
  record PreemptionArgs(int minCandidateNodesPercentage, int minCandidateNodesAbsolute)
      implements PluginArgs {
    @Override
    public List<FieldError> validate(String path) {
      List<FieldError> errs = new ArrayList<>();
      if (minCandidateNodesPercentage < 0 || minCandidateNodesPercentage > 100) {
        errs.add(
            FieldErrors.invalid(
                path + ".minCandidateNodesPercentage",
                minCandidateNodesPercentage,
                "not in valid range [0, 100]"));
      }
      if (minCandidateNodesAbsolute < 0) {
        errs.add(
            FieldErrors.invalid(
                path + ".minCandidateNodesAbsolute",
                minCandidateNodesAbsolute,
                "not in valid range [0, inf)"));
      }
      return errs;
    }
  }

  /** Like InterPodAffinityArgs. */
  record AffinityArgs(int hardPodAffinityWeight, boolean ignorePreferredTermsOfExistingPods)
      implements PluginArgs {}

  /** Like NodeAffinityArgs: a client-java model. */
  record NodeAffinityArgs(V1NodeAffinity addedAffinity) implements PluginArgs {}

  /** Like PodTopologySpreadArgs: a list of client-java models. */
  record SpreadArgs(List<V1TopologySpreadConstraint> defaultConstraints, String defaultingType)
      implements PluginArgs {}

  /** Like NodeResourcesBalancedAllocationArgs. */
  record BalancedArgs(List<ResourceSpec> resources) implements PluginArgs {}

  /** A stand-in for VolumeBindingArgs. */
  record VolumeBindingArgs(Long bindTimeoutSeconds) implements PluginArgs {}

  /** Modes of the custom plugin; YAML uses the lower-case {@code toString()}. */
  enum Mode {
    FAST("fast"),
    CAREFUL("careful");

    private final String text;

    Mode(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** Args of a custom plugin: durations, maps, enums, boxes. */
  record CustomArgs(
      Duration timeout, Map<String, Integer> weights, Mode mode, Integer limit, List<String> tags)
      implements PluginArgs {
    static final CustomArgs DEFAULT =
        new CustomArgs(Duration.ofSeconds(30), Map.of("a", 1), Mode.FAST, null, List.of("x"));
  }

  static final FitArgs FIT_DEFAULT = FitArgs.DEFAULT;
  static final PreemptionArgs PREEMPTION_DEFAULT = new PreemptionArgs(10, 100);
  static final AffinityArgs AFFINITY_DEFAULT = new AffinityArgs(1, false);
  static final NodeAffinityArgs NODE_AFFINITY_DEFAULT = new NodeAffinityArgs(null);
  static final SpreadArgs SPREAD_DEFAULT = new SpreadArgs(List.of(), "System");
  static final VolumeBindingArgs VOLUME_BINDING_DEFAULT = new VolumeBindingArgs(600L);
  static final BalancedArgs BALANCED_DEFAULT =
      new BalancedArgs(List.of(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1)));

  /** Returns a registry with stand-ins for the 18 default plugins only. */
  static PluginRegistry defaultsOnly() {
    return PluginRegistry.empty()
        .register(noArgs("SchedulingGates"))
        .register(noArgs("PrioritySort"))
        .register(noArgs("NodeUnschedulable"))
        .register(noArgs("NodeName"))
        .register(noArgs("TaintToleration"))
        .register(new TestProvider<>("NodeAffinity", NodeAffinityArgs.class, NODE_AFFINITY_DEFAULT))
        .register(noArgs("NodePorts"))
        .register(new TestProvider<>("NodeResourcesFit", FitArgs.class, FIT_DEFAULT))
        .register(noArgs("VolumeRestrictions"))
        .register(noArgs("NodeVolumeLimits"))
        .register(
            new TestProvider<>("VolumeBinding", VolumeBindingArgs.class, VOLUME_BINDING_DEFAULT))
        .register(noArgs("VolumeZone"))
        .register(new TestProvider<>("PodTopologySpread", SpreadArgs.class, SPREAD_DEFAULT))
        .register(new TestProvider<>("InterPodAffinity", AffinityArgs.class, AFFINITY_DEFAULT))
        .register(new TestProvider<>("DefaultPreemption", PreemptionArgs.class, PREEMPTION_DEFAULT))
        .register(
            new TestProvider<>(
                "NodeResourcesBalancedAllocation", BalancedArgs.class, BALANCED_DEFAULT))
        .register(noArgs("ImageLocality"))
        .register(noArgs("DefaultBinder"));
  }

  /**
   * Returns {@link #defaultsOnly()} plus custom plugins: CustomFilter, CustomScore, OtherSort,
   * CustomBinder.
   */
  static PluginRegistry registry() {
    return defaultsOnly()
        .register(noArgs("CustomFilter"))
        .register(new TestProvider<>("CustomScore", CustomArgs.class, CustomArgs.DEFAULT))
        .register(noArgs("OtherSort"))
        .register(noArgs("CustomBinder"));
  }

  /** The default pluginConfig list, in kube's order (sorted by name). */
  static List<PluginConfig> defaultPluginConfig() {
    return List.of(
        new PluginConfig("DefaultPreemption", PREEMPTION_DEFAULT),
        new PluginConfig("InterPodAffinity", AFFINITY_DEFAULT),
        new PluginConfig("NodeAffinity", NODE_AFFINITY_DEFAULT),
        new PluginConfig("NodeResourcesBalancedAllocation", BALANCED_DEFAULT),
        new PluginConfig("NodeResourcesFit", FIT_DEFAULT),
        new PluginConfig("PodTopologySpread", SPREAD_DEFAULT),
        new PluginConfig("VolumeBinding", VOLUME_BINDING_DEFAULT));
  }

  /** Prefixes {@code body} with the v1 type header. */
  static String yaml(String body) {
    return "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + body;
  }
}
