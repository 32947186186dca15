package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

final class PluginContractsTest {
  @Test
  void aPluginCanImplementEveryExtensionPoint() {
    Plugin plugin = new AllExtensionPointsPlugin();

    assertThat(plugin)
        .isInstanceOf(PreEnqueuePlugin.class)
        .isInstanceOf(QueueSortPlugin.class)
        .isInstanceOf(PreFilterPlugin.class)
        .isInstanceOf(PreFilterExtensions.class)
        .isInstanceOf(FilterPlugin.class)
        .isInstanceOf(PostFilterPlugin.class)
        .isInstanceOf(PreScorePlugin.class)
        .isInstanceOf(ScorePlugin.class)
        .isInstanceOf(ScoreExtensions.class)
        .isInstanceOf(ReservePlugin.class)
        .isInstanceOf(PermitPlugin.class)
        .isInstanceOf(PreBindPlugin.class)
        .isInstanceOf(BindPlugin.class)
        .isInstanceOf(PostBindPlugin.class)
        .isInstanceOf(EnqueueExtensions.class);
    assertThat(((ScorePlugin) plugin).score(new CycleState(), null, null)).isEqualTo(100);
  }

  @Test
  @SuppressWarnings("rawtypes")
  void providersAreDiscoveredWithServiceLoader() {
    List<String> names =
        ServiceLoader.load(PluginProvider.class).stream()
            .map(p -> ((PluginProvider) p.get()).name())
            .toList();

    assertThat(names).contains(AllExtensionPointsPlugin.NAME);
    PluginProvider<?> provider =
        ServiceLoader.load(PluginProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.name().equals(AllExtensionPointsPlugin.NAME))
            .findFirst()
            .orElseThrow();
    assertThat(provider.defaultArgs()).isEqualTo(NoArgs.INSTANCE);
    assertThat(provider.pluginType()).isEqualTo(AllExtensionPointsPlugin.class);
    assertThat(NoArgs.INSTANCE.validate("profiles[0].pluginConfig[0].args")).isEmpty();
  }
}
