package io.kubesched.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;
import static org.mockito.Mockito.mock;

import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks the ServiceLoader registration of the default plugins: every provider is found, builds a
 * plugin of its declared type with kube's name, and its default args are valid.
 */
final class BuiltinProvidersTest {
  private static Map<String, PluginProvider<?>> providers() {
    Map<String, PluginProvider<?>> out = new LinkedHashMap<>();
    for (PluginProvider<?> p : ServiceLoader.load(PluginProvider.class)) {
      out.put(p.name(), p);
    }
    return out;
  }

  static Stream<Arguments> plugins() {
    return Stream.of(
        argumentSet("PrioritySort", PluginNames.PRIORITY_SORT, List.of(QueueSortPlugin.class)),
        argumentSet(
            "SchedulingGates",
            PluginNames.SCHEDULING_GATES,
            List.of(PreEnqueuePlugin.class, EnqueueExtensions.class)),
        argumentSet(
            "NodeUnschedulable",
            PluginNames.NODE_UNSCHEDULABLE,
            List.of(FilterPlugin.class, EnqueueExtensions.class)),
        argumentSet(
            "NodeName",
            PluginNames.NODE_NAME,
            List.of(FilterPlugin.class, EnqueueExtensions.class)),
        argumentSet(
            "TaintToleration",
            PluginNames.TAINT_TOLERATION,
            List.of(
                FilterPlugin.class,
                PreScorePlugin.class,
                ScorePlugin.class,
                ScoreExtensions.class,
                EnqueueExtensions.class)),
        argumentSet(
            "NodeAffinity",
            PluginNames.NODE_AFFINITY,
            List.of(
                PreFilterPlugin.class,
                FilterPlugin.class,
                PreScorePlugin.class,
                ScorePlugin.class,
                ScoreExtensions.class,
                EnqueueExtensions.class)),
        argumentSet(
            "NodePorts",
            PluginNames.NODE_PORTS,
            List.of(PreFilterPlugin.class, FilterPlugin.class, EnqueueExtensions.class)),
        argumentSet(
            "NodeResourcesFit",
            PluginNames.NODE_RESOURCES_FIT,
            List.of(
                PreFilterPlugin.class,
                FilterPlugin.class,
                PreScorePlugin.class,
                ScorePlugin.class,
                EnqueueExtensions.class)),
        argumentSet(
            "NodeResourcesBalancedAllocation",
            PluginNames.NODE_RESOURCES_BALANCED_ALLOCATION,
            List.of(PreScorePlugin.class, ScorePlugin.class)),
        argumentSet("ImageLocality", PluginNames.IMAGE_LOCALITY, List.of(ScorePlugin.class)),
        argumentSet("DefaultBinder", PluginNames.DEFAULT_BINDER, List.of(BindPlugin.class)));
  }

  @ParameterizedTest
  @MethodSource("plugins")
  @SuppressWarnings({"unchecked", "rawtypes"})
  void providerBuildsThePlugin(String name, List<Class<?>> interfaces) {
    PluginProvider provider = providers().get(name);
    assertThat(provider).as("provider %s", name).isNotNull();
    PluginArgs args = provider.defaultArgs();
    assertThat(args).isInstanceOf(provider.argsType());
    assertThat(args.validate("args")).isEmpty();
    Plugin plugin = provider.create(args, mock(FrameworkHandle.class));
    assertThat(plugin).isInstanceOf(provider.pluginType());
    assertThat(plugin.name()).isEqualTo(name);
    List<Class<?>> missing = new ArrayList<>();
    for (Class<?> i : interfaces) {
      if (!i.isInstance(plugin)) {
        missing.add(i);
      }
    }
    assertThat(missing).as("extension points of %s", name).isEmpty();
  }

  @Test
  void pluginNamesAreKubes() {
    assertThat(
            List.of(
                PluginNames.PRIORITY_SORT,
                PluginNames.SCHEDULING_GATES,
                PluginNames.NODE_UNSCHEDULABLE,
                PluginNames.NODE_NAME,
                PluginNames.TAINT_TOLERATION,
                PluginNames.NODE_AFFINITY,
                PluginNames.NODE_PORTS,
                PluginNames.NODE_RESOURCES_FIT,
                PluginNames.VOLUME_RESTRICTIONS,
                PluginNames.NODE_VOLUME_LIMITS,
                PluginNames.VOLUME_BINDING,
                PluginNames.VOLUME_ZONE,
                PluginNames.POD_TOPOLOGY_SPREAD,
                PluginNames.INTER_POD_AFFINITY,
                PluginNames.DEFAULT_PREEMPTION,
                PluginNames.NODE_RESOURCES_BALANCED_ALLOCATION,
                PluginNames.IMAGE_LOCALITY,
                PluginNames.DEFAULT_BINDER,
                PluginNames.DYNAMIC_RESOURCES))
        .containsExactly(
            "PrioritySort",
            "SchedulingGates",
            "NodeUnschedulable",
            "NodeName",
            "TaintToleration",
            "NodeAffinity",
            "NodePorts",
            "NodeResourcesFit",
            "VolumeRestrictions",
            "NodeVolumeLimits",
            "VolumeBinding",
            "VolumeZone",
            "PodTopologySpread",
            "InterPodAffinity",
            "DefaultPreemption",
            "NodeResourcesBalancedAllocation",
            "ImageLocality",
            "DefaultBinder",
            "DynamicResources");
  }
}
