package io.kubesched.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import io.kubesched.plugins.defaultpreemption.DefaultPreemptionArgs;
import io.kubesched.plugins.interpodaffinity.InterPodAffinityArgs;
import io.kubesched.plugins.noderesources.NodeResourcesFitArgs;
import io.kubesched.plugins.noderesources.RequestedToCapacityRatioParam;
import io.kubesched.plugins.noderesources.ResourceSpec;
import io.kubesched.plugins.noderesources.ScoringStrategy;
import io.kubesched.plugins.noderesources.UtilizationShapePoint;
import io.kubesched.plugins.podtopologyspread.PodTopologySpreadArgs;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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
            "PodTopologySpread",
            "VolumeBinding");
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

  static Stream<Arguments> builtinArgsCases() {
    return Stream.of(
        argumentSet(
            "RequestedToCapacityRatio keeps the default resources and takes the shape",
            """
            - name: NodeResourcesFit
              args:
                scoringStrategy:
                  type: RequestedToCapacityRatio
                  requestedToCapacityRatio:
                    shape:
                    - utilization: 0
                      score: 0
                    - utilization: 100
                      score: 10
            """,
            new NodeResourcesFitArgs(
                List.of(),
                List.of(),
                new ScoringStrategy(
                    "RequestedToCapacityRatio",
                    List.of(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1)),
                    new RequestedToCapacityRatioParam(
                        List.of(
                            new UtilizationShapePoint(0, 0),
                            new UtilizationShapePoint(100, 10)))))),
        argumentSet(
            "listed default spread constraints",
            """
            - name: PodTopologySpread
              args:
                defaultingType: List
                defaultConstraints:
                - maxSkew: 1
                  topologyKey: topology.kubernetes.io/zone
                  whenUnsatisfiable: ScheduleAnyway
            """,
            new PodTopologySpreadArgs(
                List.of(
                    new V1TopologySpreadConstraint()
                        .maxSkew(1)
                        .topologyKey("topology.kubernetes.io/zone")
                        .whenUnsatisfiable("ScheduleAnyway")),
                "List")));
  }

  @ParameterizedTest
  @MethodSource("builtinArgsCases")
  void builtinArgs(String pluginConfig, PluginArgs want) {
    KubeSchedulerConfiguration c =
        ConfigurationLoader.parse(
            """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - pluginConfig:
            """
                + pluginConfig.indent(2),
            registry);
    assertThat(c.profiles().get(0).pluginConfig().get(0).args()).isEqualTo(want);
  }

  static Stream<Arguments> builtinArgsErrorCases() {
    return Stream.of(
        argumentSet(
            "unsorted shape",
            """
            - name: NodeResourcesFit
              args:
                scoringStrategy:
                  type: RequestedToCapacityRatio
                  requestedToCapacityRatio:
                    shape:
                    - utilization: 50
                      score: 1
                    - utilization: 10
                      score: 2
            """,
            "profiles[0].pluginConfig[0].args.scoringStrategy.shape[1].utilization"),
        argumentSet(
            "System defaulting with listed constraints",
            """
            - name: PodTopologySpread
              args:
                defaultConstraints:
                - maxSkew: 1
                  topologyKey: zone
                  whenUnsatisfiable: ScheduleAnyway
            """,
            "profiles[0].pluginConfig[0].args.defaultingType"),
        argumentSet(
            "hard pod affinity weight out of range",
            """
            - name: InterPodAffinity
              args:
                hardPodAffinityWeight: 101
            """,
            "profiles[0].pluginConfig[0].args.hardPodAffinityWeight"));
  }

  @ParameterizedTest
  @MethodSource("builtinArgsErrorCases")
  void builtinArgsErrors(String pluginConfig, String wantPath) {
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
                    """
                        + pluginConfig.indent(2),
                    registry));
    assertThat(e).isNotNull();
    assertThat(e.errors()).extracting(FieldError::path).containsExactly(wantPath);
  }
}
