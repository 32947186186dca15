package io.kubesched.core.config;

import static io.kubesched.core.config.ConfigTestPlugins.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubesched.core.config.ConfigTestPlugins.AffinityArgs;
import io.kubesched.core.config.ConfigTestPlugins.BalancedArgs;
import io.kubesched.core.config.ConfigTestPlugins.CustomArgs;
import io.kubesched.core.config.ConfigTestPlugins.FitArgs;
import io.kubesched.core.config.ConfigTestPlugins.Mode;
import io.kubesched.core.config.ConfigTestPlugins.NodeAffinityArgs;
import io.kubesched.core.config.ConfigTestPlugins.ResourceSpec;
import io.kubesched.core.config.ConfigTestPlugins.ScoringStrategy;
import io.kubesched.core.config.ConfigTestPlugins.ScoringType;
import io.kubesched.core.config.ConfigTestPlugins.SpreadArgs;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.NoArgs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading whole files: custom plugins, several profiles, args merging, extenders. */
final class ConfigurationLoaderTest {
  private static final String UPSTREAM_STYLE =
      yaml(
          """
          parallelism: 8
          profiles:
          - schedulerName: default-scheduler
            plugins:
              preFilter:
                enabled:
                - name: CustomFilter
              filter:
                enabled:
                - name: CustomFilter
                disabled:
                - name: "*"
              score:
                enabled:
                - name: CustomScore
                  weight: 5
                disabled:
                - name: ImageLocality
              multiPoint:
                enabled:
                - name: TaintToleration
                  weight: 7
                - name: CustomBinder
                disabled:
                - name: DefaultBinder
            pluginConfig:
            - name: NodeResourcesFit
              args:
                scoringStrategy:
                  type: MostAllocated
                ignoredResourceGroups: [example.com]
            - name: CustomScore
              args:
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: CustomScoreArgs
                timeout: 1m30s
                weights:
                  b: 2
                mode: careful
                tags: [y, z]
          - schedulerName: second
            percentageOfNodesToScore: 40
            plugins:
              multiPoint:
                disabled:
                - name: "*"
                enabled:
                - name: PrioritySort
                - name: CustomFilter
                - name: DefaultBinder
            pluginConfig:
            - name: OtherSort
          """);

  private static List<PluginRef> defaultsWith(int taintWeight) {
    List<PluginRef> l = new ArrayList<>(DefaultPlugins.multiPoint().multiPoint().enabled());
    l.set(4, PluginRef.of("TaintToleration", taintWeight));
    l.remove(l.size() - 1); // DefaultBinder, disabled
    l.add(PluginRef.of("CustomBinder"));
    return l;
  }

  @Test
  void upstreamStyleFileWithCustomPluginsAndTwoProfiles() {
    KubeSchedulerConfiguration c =
        ConfigurationLoader.parse(UPSTREAM_STYLE, ConfigTestPlugins.registry());

    Plugins first =
        new Plugins(
            null,
            null,
            PluginSet.enabled(PluginRef.of("CustomFilter")),
            new PluginSet(List.of(PluginRef.of("CustomFilter")), List.of(PluginRef.of("*"))),
            null,
            null,
            new PluginSet(
                List.of(PluginRef.of("CustomScore", 5)), List.of(PluginRef.of("ImageLocality"))),
            null,
            null,
            null,
            null,
            null,
            new PluginSet(defaultsWith(7), List.of(PluginRef.of("DefaultBinder"))));
    List<PluginConfig> firstConfig =
        List.of(
            new PluginConfig(
                "NodeResourcesFit",
                new FitArgs(
                    new ScoringStrategy(
                        ScoringType.MostAllocated,
                        List.of(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1))),
                    List.of(),
                    List.of("example.com"))),
            new PluginConfig(
                "CustomScore",
                new CustomArgs(
                    Duration.ofSeconds(90),
                    Map.of("a", 1, "b", 2),
                    Mode.CAREFUL,
                    null,
                    List.of("y", "z"))),
            new PluginConfig("DefaultPreemption", ConfigTestPlugins.PREEMPTION_DEFAULT),
            new PluginConfig("InterPodAffinity", ConfigTestPlugins.AFFINITY_DEFAULT),
            new PluginConfig("NodeAffinity", ConfigTestPlugins.NODE_AFFINITY_DEFAULT),
            new PluginConfig("NodeResourcesBalancedAllocation", ConfigTestPlugins.BALANCED_DEFAULT),
            new PluginConfig("PodTopologySpread", ConfigTestPlugins.SPREAD_DEFAULT),
            new PluginConfig("VolumeBinding", ConfigTestPlugins.VOLUME_BINDING_DEFAULT));
    Plugins second =
        new Plugins(
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
            new PluginSet(
                List.of(
                    PluginRef.of("PrioritySort"),
                    PluginRef.of("CustomFilter"),
                    PluginRef.of("DefaultBinder")),
                List.of(PluginRef.of("*"))));

    assertThat(c.parallelism()).isEqualTo(8);
    assertThat(c.profiles())
        .containsExactly(
            new Profile("default-scheduler", null, first, firstConfig),
            // A pluginConfig for a plugin enabled nowhere is accepted, as in kube.
            new Profile(
                "second", 40, second, List.of(new PluginConfig("OtherSort", NoArgs.INSTANCE))));
  }

  @Test
  void mapsInArgsMergeWithDefaultsWhileListsReplace() {
    KubeSchedulerConfiguration c =
        ConfigurationLoader.parse(
            yaml(
                """
                profiles:
                - pluginConfig:
                  - name: NodeResourcesFit
                    args:
                      scoringStrategy:
                        resources:
                        - name: example.com/gpu
                          weight: 3
                  - name: NodeResourcesBalancedAllocation
                    args:
                      resources: []
                  - name: InterPodAffinity
                    args:
                      hardPodAffinityWeight: 5
                      ignorePreferredTermsOfExistingPods: null
                """),
            ConfigTestPlugins.defaultsOnly());
    assertThat(c.profiles().get(0).pluginConfig().subList(0, 3))
        .containsExactly(
            new PluginConfig(
                "NodeResourcesFit",
                new FitArgs(
                    new ScoringStrategy(
                        ScoringType.LeastAllocated,
                        List.of(new ResourceSpec("example.com/gpu", 3))),
                    List.of(),
                    List.of())),
            new PluginConfig("NodeResourcesBalancedAllocation", new BalancedArgs(List.of())),
            new PluginConfig("InterPodAffinity", new AffinityArgs(5, false)));
  }

  @Test
  void clientJavaModelsInArgs() {
    KubeSchedulerConfiguration c =
        ConfigurationLoader.parse(
            yaml(
                """
                profiles:
                - pluginConfig:
                  - name: NodeAffinity
                    args:
                      addedAffinity:
                        requiredDuringSchedulingIgnoredDuringExecution:
                          nodeSelectorTerms:
                          - matchExpressions:
                            - key: zone
                              operator: In
                              values: [a, b]
                  - name: PodTopologySpread
                    args:
                      defaultingType: List
                      defaultConstraints:
                      - maxSkew: 2
                        topologyKey: zone
                        whenUnsatisfiable: ScheduleAnyway
                """),
            ConfigTestPlugins.defaultsOnly());
    V1NodeAffinity affinity =
        new V1NodeAffinity()
            .requiredDuringSchedulingIgnoredDuringExecution(
                new V1NodeSelector()
                    .addNodeSelectorTermsItem(
                        new V1NodeSelectorTerm()
                            .addMatchExpressionsItem(
                                new V1NodeSelectorRequirement()
                                    .key("zone")
                                    .operator("In")
                                    .values(List.of("a", "b")))));
    assertThat(c.profiles().get(0).pluginConfig().subList(0, 2))
        .containsExactly(
            new PluginConfig("NodeAffinity", new NodeAffinityArgs(affinity)),
            new PluginConfig(
                "PodTopologySpread",
                new SpreadArgs(
                    List.of(
                        new V1TopologySpreadConstraint()
                            .maxSkew(2)
                            .topologyKey("zone")
                            .whenUnsatisfiable("ScheduleAnyway")),
                    "List")));
  }

  @Test
  void ignoredManagedResourcesReplaceNodeResourcesFitIgnoredResourcesInEveryProfile() {
    KubeSchedulerConfiguration c =
        ConfigurationLoader.parse(
            yaml(
                """
                extenders:
                - urlPrefix: http://a
                  filterVerb: filter
                  managedResources:
                  - name: example.com/foo
                    ignoredByScheduler: true
                  - name: example.com/bar
                - urlPrefix: http://b
                  ignorable: true
                  managedResources:
                  - name: example.com/baz
                    ignoredByScheduler: true
                profiles:
                - schedulerName: a
                  pluginConfig:
                  - name: NodeResourcesFit
                    args:
                      ignoredResources: [example.com/user]
                - schedulerName: b
                """),
            ConfigTestPlugins.defaultsOnly());
    List<String> want = List.of("example.com/foo", "example.com/baz");
    assertThat(c.profiles())
        .extracting(
            p ->
                p.pluginConfig().stream()
                    .filter(pc -> pc.name().equals("NodeResourcesFit"))
                    .map(pc -> ((FitArgs) pc.args()).ignoredResources())
                    .toList())
        .containsExactly(List.of(want), List.of(want));
  }

  @Test
  void loadsFromFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sched.yaml");
    Files.writeString(file, UPSTREAM_STYLE);
    assertThat(ConfigurationLoader.load(file, ConfigTestPlugins.registry()))
        .isEqualTo(ConfigurationLoader.parse(UPSTREAM_STYLE, ConfigTestPlugins.registry()));
  }

  @Test
  void missingFileIsNamed(@TempDir Path dir) {
    Path file = dir.resolve("nope.yaml");
    assertThatThrownBy(() -> ConfigurationLoader.load(file, ConfigTestPlugins.registry()))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessage("invalid scheduler configuration " + file + ":\n" + file + ": no such file");
  }

  @Test
  void yamlSyntaxErrorsReportFileLineAndColumn(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, yaml("parallelism: 4\nprofiles:\n- schedulerName: a\n  plugins: [\n"));
    assertThatThrownBy(() -> ConfigurationLoader.load(file, ConfigTestPlugins.registry()))
        .isInstanceOfSatisfying(
            InvalidConfigurationException.class,
            e ->
                assertThat(e.errors()).extracting(FieldError::path).containsExactly(file + ":7:1"));
  }

  @Test
  void duplicateKeysAreErrorsWithLine() {
    assertThatThrownBy(
            () ->
                ConfigurationLoader.parse(
                    yaml("parallelism: 4\nparallelism: 5\n"), ConfigTestPlugins.registry()))
        .isInstanceOfSatisfying(
            InvalidConfigurationException.class,
            e ->
                assertThat(e.errors())
                    .containsExactly(
                        new FieldError(
                            "<input>:4:1",
                            "invalid YAML: while constructing a mapping, found duplicate key"
                                + " parallelism")));
  }

  @Test
  void allErrorsAreListedOnePerLine() {
    assertThatThrownBy(
            () ->
                ConfigurationLoader.parse(
                    yaml("parallelism: 0\npercentageOfNodesToScore: 200\n"),
                    ConfigTestPlugins.registry()))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessage(
            """
            invalid scheduler configuration <input>:
            parallelism: Invalid value: 0: should be an integer value greater than zero
            percentageOfNodesToScore: Invalid value: 200: not in valid range [0-100]\
            """);
  }
}
