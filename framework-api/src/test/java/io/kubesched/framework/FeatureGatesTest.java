package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link FeatureGates}: kube v1.33's defaults and component-base's parsing. */
final class FeatureGatesTest {
  @Test
  void theDefaultsAreKube133s() {
    FeatureGates g = FeatureGates.defaults();

    assertThat(g.enabled(FeatureGates.DYNAMIC_RESOURCE_ALLOCATION)).isFalse();
    assertThat(g.enabled(FeatureGates.DRA_PRIORITIZED_LIST)).isFalse();
    assertThat(g.enabled(FeatureGates.DRA_RESOURCE_CLAIM_DEVICE_STATUS)).isTrue();
    assertThat(g.enabled(FeatureGates.SCHEDULER_QUEUEING_HINTS)).isTrue();
    assertThat(g.enabled(FeatureGates.SCHEDULER_ASYNC_PREEMPTION)).isTrue();
    assertThat(g.enabled(FeatureGates.SCHEDULER_POP_FROM_BACKOFF_Q)).isTrue();
    assertThat(g.enabled(FeatureGates.SIDECAR_CONTAINERS)).isTrue();
    assertThat(g.enabled(FeatureGates.POD_LEVEL_RESOURCES)).isFalse();
    assertThat(g.enabled(FeatureGates.STORAGE_CAPACITY_SCORING)).isFalse();
    assertThat(g.enabled(FeatureGates.OPPORTUNISTIC_BATCHING)).isFalse();
    assertThat(g.explicit()).isEmpty();
    assertThat(FeatureGates.known()).extracting(FeatureGates.Spec::name).isSorted();
  }

  @Test
  void theFlagSetsGatesAndALaterPairWins() {
    FeatureGates g =
        FeatureGates.parse(
            "DynamicResourceAllocation=true, SchedulerQueueingHints=false,,"
                + "DynamicResourceAllocation=1,OpportunisticBatching=T");

    assertThat(g.enabled(FeatureGates.DYNAMIC_RESOURCE_ALLOCATION)).isTrue();
    assertThat(g.enabled(FeatureGates.SCHEDULER_QUEUEING_HINTS)).isFalse();
    assertThat(g.enabled(FeatureGates.OPPORTUNISTIC_BATCHING)).isTrue();
    assertThat(g.enabled(FeatureGates.SCHEDULER_ASYNC_PREEMPTION)).isTrue();
    assertThat(g)
        .hasToString(
            "SchedulerQueueingHints=false,DynamicResourceAllocation=true,"
                + "OpportunisticBatching=true")
        .isEqualTo(
            FeatureGates.of(
                Map.of(
                    "SchedulerQueueingHints", false,
                    "DynamicResourceAllocation", true,
                    "OpportunisticBatching", true)));
    assertThat(FeatureGates.parse("")).isSameAs(FeatureGates.defaults());
  }

  @Test
  void allAlphaAndAllBetaTurnOnTheGatesNotSetExplicitly() {
    FeatureGates g = FeatureGates.parse("AllAlpha=true,DRAAdminAccess=false");

    assertThat(g.enabled(FeatureGates.DRA_PRIORITIZED_LIST)).isTrue();
    assertThat(g.enabled(FeatureGates.DRA_ADMIN_ACCESS)).isFalse();
    assertThat(g.enabled(FeatureGates.DYNAMIC_RESOURCE_ALLOCATION)).isFalse();
    assertThat(FeatureGates.parse("AllBeta=true").enabled(FeatureGates.VOLUME_ATTRIBUTES_CLASS))
        .isTrue();
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        argumentSet("an unknown gate", "Foo=true", "unrecognized feature gate: Foo"),
        argumentSet(
            "a gate kube v1.33 no longer has",
            "VolumeCapacityPriority=true",
            "unrecognized feature gate: VolumeCapacityPriority"),
        argumentSet(
            "a locked GA gate set to false",
            "SidecarContainers=false",
            "cannot set feature gate SidecarContainers to false, feature is locked to true"),
        argumentSet(
            "several errors, in the order given",
            "Foo=true,NodeInclusionPolicyInPodTopologySpread=false",
            "[unrecognized feature gate: Foo, cannot set feature gate"
                + " NodeInclusionPolicyInPodTopologySpread to false, feature is locked to true]"),
        argumentSet(
            "a pair without a value", "DRAAdminAccess", "missing bool value for DRAAdminAccess"),
        argumentSet(
            "a value that is not a Go bool",
            "DRAAdminAccess=yes",
            "invalid value of DRAAdminAccess=yes, err: strconv.ParseBool: parsing \"yes\": invalid"
                + " syntax"));
  }

  @ParameterizedTest
  @MethodSource("refused")
  void invalidSettingsAreRefusedAsKubeRefusesThem(String flag, String message) {
    assertThatThrownBy(() -> FeatureGates.parse(flag))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void aLockedGateMayBeSetToItsDefault() {
    assertThat(FeatureGates.parse("SidecarContainers=true").enabled("SidecarContainers")).isTrue();
  }

  @Test
  void askingForAnUnknownGateIsAProgrammingError() {
    assertThatThrownBy(() -> FeatureGates.defaults().enabled("Foo"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("feature \"Foo\" is not registered");
  }
}
