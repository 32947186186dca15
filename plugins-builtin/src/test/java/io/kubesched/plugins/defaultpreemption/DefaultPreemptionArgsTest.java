package io.kubesched.plugins.defaultpreemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.InvalidConfigurationException;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.config.PluginConfig;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FieldError;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.FakeHandle;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link DefaultPreemptionArgs} validation (kube's {@code ValidateDefaultPreemptionArgs}), the
 * number of candidates ({@code calculateNumCandidates}) and the provider.
 */
final class DefaultPreemptionArgsTest {
  private static final String PATH = "profiles[0].pluginConfig[0].args";

  static Stream<Arguments> validationCases() {
    return Stream.of(
        argumentSet("valid config", new DefaultPreemptionArgs(10, 50), List.of()),
        argumentSet("defaults are valid", DefaultPreemptionArgs.defaults(), List.of()),
        argumentSet(
            "negative minCandidateNodesPercentage",
            new DefaultPreemptionArgs(-1, 100),
            List.of(
                new FieldError(
                    PATH + ".minCandidateNodesPercentage",
                    "Invalid value: -1: not in valid range [0, 100]"))),
        argumentSet(
            "minCandidateNodesPercentage over 100",
            new DefaultPreemptionArgs(900, 100),
            List.of(
                new FieldError(
                    PATH + ".minCandidateNodesPercentage",
                    "Invalid value: 900: not in valid range [0, 100]"))),
        argumentSet(
            "negative minCandidateNodesAbsolute",
            new DefaultPreemptionArgs(20, -1),
            List.of(
                new FieldError(
                    PATH + ".minCandidateNodesAbsolute",
                    "Invalid value: -1: not in valid range [0, inf)"))),
        argumentSet(
            "all zero",
            new DefaultPreemptionArgs(0, 0),
            List.of(
                new FieldError(
                    PATH + ".minCandidateNodesPercentage",
                    "Invalid value: 0: cannot be zero at the same time as"
                        + " minCandidateNodesAbsolute"),
                new FieldError(
                    PATH + ".minCandidateNodesAbsolute",
                    "Invalid value: 0: cannot be zero at the same time as"
                        + " minCandidateNodesPercentage"))),
        argumentSet(
            "both out of range",
            new DefaultPreemptionArgs(-1, -1),
            List.of(
                new FieldError(
                    PATH + ".minCandidateNodesPercentage",
                    "Invalid value: -1: not in valid range [0, 100]"),
                new FieldError(
                    PATH + ".minCandidateNodesAbsolute",
                    "Invalid value: -1: not in valid range [0, inf)"))));
  }

  @ParameterizedTest
  @MethodSource("validationCases")
  void validate(DefaultPreemptionArgs args, List<FieldError> want) {
    assertThat(args.validate(PATH)).isEqualTo(want);
  }

  static Stream<Arguments> numCandidatesCases() {
    return Stream.of(
        argumentSet("no nodes", new DefaultPreemptionArgs(5, 0), 0, 0),
        argumentSet(
            "nodes less than MinCandidateNodesAbsolute", DefaultPreemptionArgs.defaults(), 50, 50),
        argumentSet("too few nodes (absolute)", new DefaultPreemptionArgs(50, 0), 1, 0),
        argumentSet("too many nodes (absolute)", new DefaultPreemptionArgs(50, 50), 100, 50),
        argumentSet("percentage wins", new DefaultPreemptionArgs(10, 100), 2000, 200),
        argumentSet("absolute wins", new DefaultPreemptionArgs(10, 100), 500, 100),
        argumentSet("percentage only", new DefaultPreemptionArgs(40, 0), 5, 2));
  }

  @ParameterizedTest
  @MethodSource("numCandidatesCases")
  void numCandidates(DefaultPreemptionArgs args, int numNodes, int want) {
    assertThat(args.numCandidates(numNodes)).isEqualTo(want);
  }

  @Test
  void configurationFileArgsAreDecodedAndDefaulted() {
    KubeSchedulerConfiguration c =
        ConfigurationLoader.parse(
            """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - pluginConfig:
              - name: DefaultPreemption
                args:
                  minCandidateNodesPercentage: 25
            """,
            PluginRegistry.discover());

    assertThat(c.profiles().get(0).pluginConfig())
        .filteredOn(pc -> pc.name().equals(DefaultPreemption.NAME))
        .extracting(PluginConfig::args)
        .containsExactly(new DefaultPreemptionArgs(25, 100));
  }

  @Test
  void configurationFileWithInvalidArgsNamesTheFields() {
    assertThatThrownBy(
            () ->
                ConfigurationLoader.parse(
                    """
                    apiVersion: kubescheduler.config.k8s.io/v1
                    kind: KubeSchedulerConfiguration
                    profiles:
                    - pluginConfig:
                      - name: DefaultPreemption
                        args:
                          minCandidateNodesPercentage: 0
                          minCandidateNodesAbsolute: 0
                    """,
                    PluginRegistry.discover()))
        .isInstanceOfSatisfying(
            InvalidConfigurationException.class,
            e ->
                assertThat(e.errors())
                    .containsExactly(
                        new FieldError(
                            "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage",
                            "Invalid value: 0: cannot be zero at the same time as"
                                + " minCandidateNodesAbsolute"),
                        new FieldError(
                            "profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute",
                            "Invalid value: 0: cannot be zero at the same time as"
                                + " minCandidateNodesPercentage")));
  }

  @Test
  void providerIsFoundByServiceLoaderWithKubeDefaults() {
    var provider = PluginRegistry.discover().get(DefaultPreemption.NAME).orElseThrow();

    assertThat(provider).isInstanceOf(DefaultPreemptionProvider.class);
    assertThat(provider.defaultArgs()).isEqualTo(new DefaultPreemptionArgs(10, 100));
    assertThat(provider.pluginType()).isEqualTo(DefaultPreemption.class);
  }

  @Test
  void providerRejectsInvalidArgsWithEveryError() {
    DefaultPreemptionProvider provider = new DefaultPreemptionProvider();

    assertThatThrownBy(() -> provider.create(new DefaultPreemptionArgs(101, -1), new FakeHandle()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100],"
                + " minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)");
  }
}
