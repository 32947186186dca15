package io.kubesched.core.config;

import static io.kubesched.core.config.ConfigTestPlugins.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code --write-config-to}: what is written reads back into the same configuration. */
final class ConfigurationWriterTest {
  static Stream<Arguments> configurations() {
    return Stream.of(
        Arguments.of("defaults", yaml("")),
        Arguments.of(
            "timings, client and leader election",
            yaml(
                """
                parallelism: 4
                percentageOfNodesToScore: 30
                podInitialBackoffSeconds: 2
                podMaxBackoffSeconds: 20
                leaderElection:
                  leaderElect: false
                  leaseDuration: 30s
                  renewDeadline: 20s
                  retryPeriod: 3s
                  resourceName: kubesched
                  resourceNamespace: sched
                clientConnection:
                  kubeconfig: /etc/k.conf
                  qps: 200
                  burst: 300
                """)),
        Arguments.of(
            "profiles with plugins and args",
            yaml(
                """
                profiles:
                - schedulerName: a
                  percentageOfNodesToScore: 50
                  plugins:
                    score:
                      enabled:
                      - name: CustomScore
                        weight: 5
                      disabled:
                      - name: ImageLocality
                  pluginConfig:
                  - name: CustomScore
                    args:
                      mode: careful
                - schedulerName: b
                """)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void writtenConfigurationReadsBackEqual(String name, String text) {
    KubeSchedulerConfiguration cfg = ConfigurationLoader.parse(text, ConfigTestPlugins.registry());
    String written = ConfigurationWriter.toYaml(cfg);
    assertThat(ConfigurationLoader.parse(written, ConfigTestPlugins.registry()))
        .as(written)
        .isEqualTo(cfg);
  }
}
