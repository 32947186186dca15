package io.kubesched.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.CustomResource;
import io.kubesched.framework.EventResource;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The names of custom resources' cluster events. */
final class CustomEventResourceTest {
  static Stream<Arguments> declared() {
    return Stream.of(
        Arguments.of(
            Named.of(
                "scheduler-plugins' PodGroup",
                new CustomResource(
                    "scheduling.x-k8s.io", "v1alpha1", "podgroups", "PodGroup", true)),
            "podgroups.v1alpha1.scheduling.x-k8s.io"),
        Arguments.of(
            Named.of(
                "a core-group resource", new CustomResource("", "v1", "widgets", "Widget", true)),
            "widgets.v1"));
  }

  @ParameterizedTest
  @MethodSource("declared")
  void eventResourceOfADeclaredResource(CustomResource r, String want) {
    assertThat(EventResource.of(r)).isEqualTo(want);
  }

  static Stream<Arguments> kinds() {
    return Stream.of(
        Arguments.of(Named.of("plain", "PodGroup"), "podgroups"),
        Arguments.of(Named.of("ending in y", "NetworkPolicy"), "networkpolicies"),
        Arguments.of(Named.of("ending in s", "Ingress"), "ingresses"));
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void pluralOfAnUndeclaredKindIsGuessedAsKubeGuessesIt(String kind, String want) {
    assertThat(ClusterEventHandlers.guessPlural(kind)).isEqualTo(want);
  }
}
