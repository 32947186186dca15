package io.kubesched.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.plugins.defaultpreemption.DefaultPreemptionArgs;
import io.kubesched.plugins.interpodaffinity.InterPodAffinityArgs;
import io.kubesched.plugins.noderesources.NodeResourcesFitArgs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The configuration loader against the real builtin plugins found by ServiceLoader. */
final class ConfigBuiltinPluginsTest {
  private final PluginRegistry registry = PluginRegistry.discover();

  @Test
  void defaultsWorkWithTheBuiltinPlugins() {
    KubeSchedulerConfiguration c = ConfigurationLoader.defaults(registry);
    assertThat(c.profiles().get(0).pluginConfig())
        .extracting(PluginConfig::name)
        .containsExactly(
            "DefaultPreemption",
            "InterPodAffinity",
            "NodeAffinity",
            "NodeResourcesBalancedAllocation",
            "NodeResourcesFit",
            "PodTopologySpread");
  }

  @Test
  void builtinArgsAreDecodedDefaultedAndValidated() {
    KubeSchedulerConfiguration c =
        ConfigurationLoader.parse(
            """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - pluginConfig:
              - name: NodeResourcesFit
                args:
                  scoringStrategy:
                    type: MostAllocated
                    resources:
                    - name: cpu
                    - name: memory
                      weight: 2
              - name: DefaultPreemption
                args:
                  minCandidateNodesAbsolute: 50
              - name: InterPodAffinity
                args:
                  kind: InterPodAffinityArgs
                  hardPodAffinityWeight: 3
            """,
            registry);
    List<PluginConfig> configs = c.profiles().get(0).pluginConfig();
    NodeResourcesFitArgs fit = (NodeResourcesFitArgs) configs.get(0).args();
    assertThat(fit.scoringStrategy().type()).isEqualTo("MostAllocated");
    assertThat(fit.scoringStrategy().resources())
        .extracting(r -> r.name() + "=" + r.weight())
        .containsExactly("cpu=1", "memory=2");
    assertThat(configs.get(1).args()).isEqualTo(new DefaultPreemptionArgs(10, 50));
    assertThat(((InterPodAffinityArgs) configs.get(2).args()).hardPodAffinityWeight()).isEqualTo(3);
  }

  @Test
  void builtinArgsValidationErrorsCarryTheProfilePath() {
    InvalidConfigurationException e =
        catchThrowableOfType(
            InvalidConfigurationException.class,
            () ->
                ConfigurationLoader.parse(
                    """
                    apiVersion: kubescheduler.config.k8s.io/v1
                    kind: KubeSchedulerConfiguration
                    profiles:
                    - pluginConfig:
                      - name: DefaultPreemption
                      - name: NodeResourcesFit
                        args:
                          scoringStrategy:
                            type: Foo
                    """,
                    registry));
    assertThat(e).isNotNull();
    assertThat(e.errors())
        .extracting(Object::toString)
        .anySatisfy(
            s -> assertThat(s).startsWith("profiles[0].pluginConfig[1].args.scoringStrategy.type"));
  }
}
