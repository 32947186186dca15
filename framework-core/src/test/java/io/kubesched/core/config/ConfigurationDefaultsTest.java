package io.kubesched.core.config;

import static io.kubesched.core.config.ConfigTestPlugins.defaultPluginConfig;
import static io.kubesched.core.config.ConfigTestPlugins.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.core.config.ConfigTestPlugins.CustomArgs;
import io.kubesched.core.config.KubeSchedulerConfiguration.ClientConnection;
import io.kubesched.core.config.KubeSchedulerConfiguration.LeaderElection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Defaulting of {@code KubeSchedulerConfiguration}, after kube's {@code defaults_test.go}. */
final class ConfigurationDefaultsTest {
  private static final LeaderElection DEFAULT_LEADER_ELECTION =
      new LeaderElection(
          true,
          Duration.ofSeconds(15),
          Duration.ofSeconds(10),
          Duration.ofSeconds(2),
          "leases",
          "kube-scheduler",
          "kube-system");
  private static final ClientConnection DEFAULT_CLIENT_CONNECTION =
      new ClientConnection("", "", "application/vnd.kubernetes.protobuf", 50f, 100);

  /** Upstream's v1.33 PluginsV1 multiPoint list, with weights. */
  private static final List<PluginRef> UPSTREAM_MULTI_POINT =
      List.of(
          PluginRef.of("SchedulingGates"),
          PluginRef.of("PrioritySort"),
          PluginRef.of("NodeUnschedulable"),
          PluginRef.of("NodeName"),
          PluginRef.of("TaintToleration", 3),
          PluginRef.of("NodeAffinity", 2),
          PluginRef.of("NodePorts"),
          PluginRef.of("NodeResourcesFit", 1),
          PluginRef.of("VolumeRestrictions"),
          PluginRef.of("NodeVolumeLimits"),
          PluginRef.of("VolumeBinding"),
          PluginRef.of("VolumeZone"),
          PluginRef.of("PodTopologySpread", 2),
          PluginRef.of("InterPodAffinity", 2),
          PluginRef.of("DefaultPreemption"),
          PluginRef.of("NodeResourcesBalancedAllocation", 1),
          PluginRef.of("ImageLocality", 1),
          PluginRef.of("DefaultBinder"));

  private static Profile defaultProfile(String name) {
    return new Profile(name, null, DefaultPlugins.multiPoint(), defaultPluginConfig());
  }

  private static KubeSchedulerConfiguration expectedDefaults() {
    return new KubeSchedulerConfiguration(
        16,
        0,
        Duration.ofSeconds(1),
        Duration.ofSeconds(10),
        List.of(defaultProfile("default-scheduler")),
        List.of(),
        DEFAULT_LEADER_ELECTION,
        DEFAULT_CLIENT_CONNECTION,
        true,
        true,
        false);
  }

  @Test
  void defaultPluginsAreUpstreamsMultiPointListWithoutVolumePlugins() {
    assertThat(DefaultPlugins.multiPoint())
        .isEqualTo(
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
                new PluginSet(UPSTREAM_MULTI_POINT, List.of())));
  }

  @Test
  void defaultsWithoutFileHaveOneDefaultSchedulerProfileWithDefaultPluginsAndArgs() {
    assertThat(ConfigurationLoader.defaults(ConfigTestPlugins.defaultsOnly()))
        .isEqualTo(expectedDefaults());
  }

  static Stream<Arguments> defaultingCases() {
    UnaryOperator<KubeSchedulerConfiguration> same = c -> c;
    return Stream.of(
        argumentSet("empty config gets every default", "", same),
        argumentSet("an empty profile list gets one default profile", "profiles: []\n", same),
        argumentSet(
            "a single unnamed profile is named default-scheduler",
            "profiles:\n- percentageOfNodesToScore: 30\n",
            (UnaryOperator<KubeSchedulerConfiguration>)
                c ->
                    with(
                        c,
                        List.of(
                            new Profile(
                                "default-scheduler",
                                30,
                                DefaultPlugins.multiPoint(),
                                defaultPluginConfig())))),
        argumentSet(
            "named profiles keep their names and each gets the default plugins",
            "profiles:\n- schedulerName: foo\n- schedulerName: bar\n",
            (UnaryOperator<KubeSchedulerConfiguration>)
                c -> with(c, List.of(defaultProfile("foo"), defaultProfile("bar")))),
        argumentSet(
            "two profiles: an unknown plugin's config is kept first, custom binder replaces the"
                + " default one",
            """
            profiles:
            - schedulerName: default-scheduler
              pluginConfig:
              - name: FooPlugin
            - schedulerName: custom-scheduler
              plugins:
                bind:
                  enabled:
                  - name: CustomBinder
                  disabled:
                  - name: DefaultBinder
            """,
            (UnaryOperator<KubeSchedulerConfiguration>)
                c -> {
                  List<PluginConfig> first = new ArrayList<>();
                  first.add(new PluginConfig("FooPlugin", new UndecodedArgs(Map.of())));
                  first.addAll(defaultPluginConfig());
                  Plugins withBinder =
                      DefaultPlugins.merge(
                          DefaultPlugins.multiPoint(),
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
                              new PluginSet(
                                  List.of(PluginRef.of("CustomBinder")),
                                  List.of(PluginRef.of("DefaultBinder"))),
                              null,
                              null));
                  return with(
                      c,
                      List.of(
                          new Profile(
                              "default-scheduler", null, DefaultPlugins.multiPoint(), first),
                          new Profile(
                              "custom-scheduler", null, withBinder, defaultPluginConfig())));
                }),
        argumentSet(
            "set values are kept",
            """
            parallelism: 8
            percentageOfNodesToScore: 20
            podInitialBackoffSeconds: 2
            podMaxBackoffSeconds: 30
            delayCacheUntilActive: true
            """,
            (UnaryOperator<KubeSchedulerConfiguration>)
                c ->
                    new KubeSchedulerConfiguration(
                        8,
                        20,
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(30),
                        c.profiles(),
                        c.extenders(),
                        c.leaderElection(),
                        c.clientConnection(),
                        true,
                        true,
                        true)),
        argumentSet(
            "profiling disabled leaves contention profiling disabled",
            "enableProfiling: false\n",
            (UnaryOperator<KubeSchedulerConfiguration>) c -> profiling(c, false, false)),
        argumentSet(
            "contention profiling can be set without profiling",
            "enableProfiling: false\nenableContentionProfiling: true\n",
            (UnaryOperator<KubeSchedulerConfiguration>) c -> profiling(c, false, true)),
        argumentSet(
            "contention profiling can be turned off alone",
            "enableContentionProfiling: false\n",
            (UnaryOperator<KubeSchedulerConfiguration>) c -> profiling(c, true, false)),
        argumentSet(
            "partial leader election settings are completed",
            """
            leaderElection:
              leaderElect: false
              leaseDuration: 30s
              resourceName: my-sched
            """,
            (UnaryOperator<KubeSchedulerConfiguration>)
                c ->
                    new KubeSchedulerConfiguration(
                        c.parallelism(),
                        c.percentageOfNodesToScore(),
                        c.podInitialBackoff(),
                        c.podMaxBackoff(),
                        c.profiles(),
                        c.extenders(),
                        new LeaderElection(
                            false,
                            Duration.ofSeconds(30),
                            Duration.ofSeconds(10),
                            Duration.ofSeconds(2),
                            "leases",
                            "my-sched",
                            "kube-system"),
                        c.clientConnection(),
                        true,
                        true,
                        false)),
        argumentSet(
            "zero qps and burst are defaulted, other client settings kept",
            """
            clientConnection:
              kubeconfig: /etc/kube.conf
              contentType: application/json
              qps: 0
              burst: 0
            """,
            (UnaryOperator<KubeSchedulerConfiguration>)
                c ->
                    new KubeSchedulerConfiguration(
                        c.parallelism(),
                        c.percentageOfNodesToScore(),
                        c.podInitialBackoff(),
                        c.podMaxBackoff(),
                        c.profiles(),
                        c.extenders(),
                        c.leaderElection(),
                        new ClientConnection("/etc/kube.conf", "", "application/json", 50f, 100),
                        true,
                        true,
                        false)),
        argumentSet(
            "extenders get the 5s timeout, lose the trailing slash and ignorable ones go last",
            """
            extenders:
            - urlPrefix: http://a/
              filterVerb: filter
              ignorable: true
            - urlPrefix: http://b
              prioritizeVerb: prioritize
              weight: 3
              httpTimeout: 1m30s
              enableHTTPS: true
              tlsConfig:
                insecure: true
                serverName: b.example
            """,
            (UnaryOperator<KubeSchedulerConfiguration>)
                c ->
                    new KubeSchedulerConfiguration(
                        c.parallelism(),
                        c.percentageOfNodesToScore(),
                        c.podInitialBackoff(),
                        c.podMaxBackoff(),
                        c.profiles(),
                        List.of(
                            new ExtenderConfig(
                                "http://b",
                                "",
                                "",
                                "prioritize",
                                "",
                                3,
                                true,
                                Duration.ofSeconds(90),
                                false,
                                List.of(),
                                false,
                                new ExtenderTlsConfig(
                                    true, "b.example", null, null, null, null, null, null)),
                            new ExtenderConfig(
                                "http://a",
                                "filter",
                                "",
                                "",
                                "",
                                0,
                                false,
                                Duration.ofSeconds(5),
                                false,
                                List.of(),
                                true)),
                        c.leaderElection(),
                        c.clientConnection(),
                        true,
                        true,
                        false)));
  }

  @ParameterizedTest
  @MethodSource("defaultingCases")
  void defaulting(String body, UnaryOperator<KubeSchedulerConfiguration> want) {
    assertThat(ConfigurationLoader.parse(yaml(body), ConfigTestPlugins.registry()))
        .isEqualTo(want.apply(expectedDefaults()));
  }

  @Test
  void jsonIsAccepted() {
    String json =
        "{\n\t\"apiVersion\": \"kubescheduler.config.k8s.io/v1\",\n"
            + "\t\"kind\": \"KubeSchedulerConfiguration\",\n\t\"parallelism\": 4\n}";
    assertThat(ConfigurationLoader.parse(json, ConfigTestPlugins.defaultsOnly()).parallelism())
        .isEqualTo(4);
  }

  @Test
  void enabledCustomPluginGetsItsDefaultArgsInSortedPosition() {
    KubeSchedulerConfiguration c =
        ConfigurationLoader.parse(
            yaml(
                """
                profiles:
                - plugins:
                    score:
                      enabled:
                      - name: CustomScore
                """),
            ConfigTestPlugins.registry());
    assertThat(c.profiles().get(0).pluginConfig())
        .extracting(PluginConfig::name)
        .containsExactly(
            "CustomScore",
            "DefaultPreemption",
            "InterPodAffinity",
            "NodeAffinity",
            "NodeResourcesBalancedAllocation",
            "NodeResourcesFit",
            "PodTopologySpread",
            "VolumeBinding");
    assertThat(c.profiles().get(0).pluginConfig().get(0).args()).isEqualTo(CustomArgs.DEFAULT);
  }

  private static KubeSchedulerConfiguration with(
      KubeSchedulerConfiguration c, List<Profile> profiles) {
    return new KubeSchedulerConfiguration(
        c.parallelism(),
        c.percentageOfNodesToScore(),
        c.podInitialBackoff(),
        c.podMaxBackoff(),
        profiles,
        c.extenders(),
        c.leaderElection(),
        c.clientConnection(),
        c.enableProfiling(),
        c.enableContentionProfiling(),
        c.delayCacheUntilActive());
  }

  private static KubeSchedulerConfiguration profiling(
      KubeSchedulerConfiguration c, boolean profiling, boolean contention) {
    return new KubeSchedulerConfiguration(
        c.parallelism(),
        c.percentageOfNodesToScore(),
        c.podInitialBackoff(),
        c.podMaxBackoff(),
        c.profiles(),
        c.extenders(),
        c.leaderElection(),
        c.clientConnection(),
        profiling,
        contention,
        c.delayCacheUntilActive());
  }
}
