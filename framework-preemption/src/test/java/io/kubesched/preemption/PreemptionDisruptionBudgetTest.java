package io.kubesched.preemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetSpec;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetStatus;
import io.kubesched.framework.PodInfo;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The split of potential victims by pod disruption budget (kube's {@code
 * filterPodsWithPDBViolation}).
 */
final class PreemptionDisruptionBudgetTest {

  private static V1PodDisruptionBudget pdb(
      String namespace, V1LabelSelector selector, int allowed, String... disrupted) {
    V1PodDisruptionBudgetStatus status =
        new V1PodDisruptionBudgetStatus()
            .disruptionsAllowed(allowed)
            .currentHealthy(0)
            .desiredHealthy(0)
            .expectedPods(0);
    for (String d : disrupted) {
      status.putDisruptedPodsItem(d, OffsetDateTime.parse("2026-01-01T00:00:00Z"));
    }
    return new V1PodDisruptionBudget()
        .metadata(new V1ObjectMeta().name("pdb").namespace(namespace))
        .spec(new V1PodDisruptionBudgetSpec().selector(selector))
        .status(status);
  }

  private static V1LabelSelector app(String value) {
    return new V1LabelSelector().matchLabels(Map.of("app", value));
  }

  private static PodInfo pod(String name, String app) {
    V1ObjectMeta meta = new V1ObjectMeta().name(name).namespace("default");
    if (app != null) {
      meta.putLabelsItem("app", app);
    }
    return PodInfo.of(new V1Pod().metadata(meta));
  }

  private static List<String> names(List<PodInfo> pods) {
    return pods.stream().map(PodInfo::name).toList();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "a budget allowing one disruption makes the second pod violating",
            List.of(pdb("default", app("foo"), 1)),
            List.of(pod("a", "foo"), pod("b", "foo"), pod("c", "bar")),
            List.of("b"),
            List.of("a", "c")),
        argumentSet(
            "pods already disrupted do not consume the budget",
            List.of(pdb("default", app("foo"), 1, "a")),
            List.of(pod("a", "foo"), pod("b", "foo")),
            List.of(),
            List.of("a", "b")),
        argumentSet(
            "a budget in another namespace does not apply",
            List.of(pdb("other", app("foo"), 0)),
            List.of(pod("a", "foo")),
            List.of(),
            List.of("a")),
        argumentSet(
            "an empty selector selects nothing",
            List.of(pdb("default", new V1LabelSelector(), 0)),
            List.of(pod("a", "foo")),
            List.of(),
            List.of("a")),
        argumentSet(
            "a missing selector selects nothing",
            List.of(pdb("default", null, 0)),
            List.of(pod("a", "foo")),
            List.of(),
            List.of("a")),
        argumentSet(
            "an invalid selector selects nothing",
            List.of(
                pdb(
                    "default",
                    new V1LabelSelector()
                        .addMatchExpressionsItem(
                            new V1LabelSelectorRequirement().key("app").operator("Bogus")),
                    0)),
            List.of(pod("a", "foo")),
            List.of(),
            List.of("a")),
        argumentSet(
            "a pod without labels matches no budget",
            List.of(
                pdb(
                    "default",
                    new V1LabelSelector()
                        .matchExpressions(
                            List.of(
                                new V1LabelSelectorRequirement()
                                    .key("app")
                                    .operator("DoesNotExist"))),
                    0)),
            List.of(pod("a", null)),
            List.of(),
            List.of("a")),
        argumentSet(
            "no budget: every pod is non-violating, in input order",
            List.of(),
            List.of(pod("b", "foo"), pod("a", null), pod("c", "bar")),
            List.of(),
            List.of("b", "a", "c")),
        argumentSet(
            "every matching budget is consumed",
            List.of(pdb("default", app("foo"), 5), pdb("default", app("foo"), 0)),
            List.of(pod("a", "foo")),
            List.of("a"),
            List.of()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void split(
      List<V1PodDisruptionBudget> pdbs,
      List<PodInfo> pods,
      List<String> wantViolating,
      List<String> wantNonViolating) {
    DisruptionBudget.Split got = DisruptionBudget.split(pods, DisruptionBudget.ofAll(pdbs));

    assertThat(List.of(names(got.violating()), names(got.nonViolating())))
        .isEqualTo(List.of(wantViolating, wantNonViolating));
  }
}
