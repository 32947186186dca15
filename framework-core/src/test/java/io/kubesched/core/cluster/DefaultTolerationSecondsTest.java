package io.kubesched.core.cluster;

import static io.kubesched.core.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The DefaultTolerationSeconds admission plugin as {@link InMemoryCluster} applies it on pod
 * creation. The first ten cases are kube's table ({@code
 * plugin/pkg/admission/defaulttolerationseconds}, {@code TestForgivenessAdmission}); the others pin
 * its rule where the table is silent: a toleration counts for a taint when its key is that taint's
 * or empty and its effect is {@code NoExecute} or empty, whatever its operator, value and seconds.
 */
final class DefaultTolerationSecondsTest {
  private static final String NOT_READY = "node.kubernetes.io/not-ready";
  private static final String UNREACHABLE = "node.kubernetes.io/unreachable";
  private static final String ALPHA_NOT_READY = "node.alpha.kubernetes.io/notReady";
  private static final String ALPHA_UNREACHABLE = "node.alpha.kubernetes.io/unreachable";

  private final InMemoryCluster cluster =
      new InMemoryCluster(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));

  private static V1Toleration exists(String key, String effect, Long seconds) {
    return new V1Toleration().key(key).operator("Exists").effect(effect).tolerationSeconds(seconds);
  }

  private static V1Toleration noExecute(String key, long seconds) {
    return exists(key, "NoExecute", seconds);
  }

  static Stream<Arguments> tolerations() {
    V1Toleration notReady = noExecute(NOT_READY, 300);
    V1Toleration unreachable = noExecute(UNREACHABLE, 300);
    V1Toleration alphaNotReady = noExecute(ALPHA_NOT_READY, 300);
    V1Toleration alphaUnreachable = noExecute(ALPHA_UNREACHABLE, 300);
    V1Toleration foo =
        new V1Toleration()
            .key("foo")
            .operator("Equal")
            .value("bar")
            .effect("NoSchedule")
            .tolerationSeconds(700L);
    V1Toleration ownNotReady = noExecute(NOT_READY, 700);
    V1Toleration ownUnreachable = noExecute(UNREACHABLE, 700);
    V1Toleration unreachableAnyEffect = exists(UNREACHABLE, null, 700L);
    V1Toleration everything = new V1Toleration().operator("Exists").tolerationSeconds(700L);
    V1Toleration notReadyNoSchedule = exists(NOT_READY, "NoSchedule", null);
    V1Toleration anyKeyNoSchedule = exists(null, "NoSchedule", null);
    V1Toleration anyKeyNoExecute = exists(null, "NoExecute", null);
    V1Toleration notReadyEqual =
        new V1Toleration().key(NOT_READY).operator("Equal").value("x").effect("NoExecute");
    return Stream.of(
        argumentSet(
            "pod has no tolerations: both are added", List.of(), List.of(notReady, unreachable)),
        argumentSet(
            "pod has the alpha tolerations: both are added, the alpha ones untouched",
            List.of(alphaNotReady, alphaUnreachable),
            List.of(alphaNotReady, alphaUnreachable, notReady, unreachable)),
        argumentSet(
            "pod has the alpha not-ready toleration: both are added",
            List.of(alphaNotReady),
            List.of(alphaNotReady, notReady, unreachable)),
        argumentSet(
            "pod has the alpha unreachable toleration: both are added",
            List.of(alphaUnreachable),
            List.of(alphaUnreachable, notReady, unreachable)),
        argumentSet(
            "pod has tolerations, none for not-ready or unreachable NoExecute: both are added",
            List.of(foo),
            List.of(foo, notReady, unreachable)),
        argumentSet(
            "pod tolerates not-ready NoExecute: unreachable is added",
            List.of(ownNotReady),
            List.of(ownNotReady, unreachable)),
        argumentSet(
            "pod tolerates unreachable NoExecute: not-ready is added",
            List.of(ownUnreachable),
            List.of(ownUnreachable, notReady)),
        argumentSet(
            "pod tolerates both: no change",
            List.of(ownNotReady, ownUnreachable),
            List.of(ownNotReady, ownUnreachable)),
        argumentSet(
            "pod tolerates unreachable with any effect: not-ready is added",
            List.of(unreachableAnyEffect),
            List.of(unreachableAnyEffect, notReady)),
        argumentSet(
            "pod has the wildcard toleration: no change", List.of(everything), List.of(everything)),
        argumentSet(
            "a not-ready toleration of another effect does not count",
            List.of(notReadyNoSchedule),
            List.of(notReadyNoSchedule, notReady, unreachable)),
        argumentSet(
            "an empty key with another effect counts for neither",
            List.of(anyKeyNoSchedule),
            List.of(anyKeyNoSchedule, notReady, unreachable)),
        argumentSet(
            "an empty key with NoExecute counts for both",
            List.of(anyKeyNoExecute),
            List.of(anyKeyNoExecute)),
        argumentSet(
            "operator and value are not looked at: Equal x on not-ready NoExecute counts",
            List.of(notReadyEqual),
            List.of(notReadyEqual, unreachable)));
  }

  @ParameterizedTest
  @MethodSource("tolerations")
  void podCreationAddsTheMissingDefaultTolerations(
      List<V1Toleration> given, List<V1Toleration> want) {
    V1Pod p = pod("p1");
    given.forEach(p.getSpec()::addTolerationsItem);

    assertThat(cluster.addPod(p).getSpec().getTolerations()).isEqualTo(want);
  }
}
