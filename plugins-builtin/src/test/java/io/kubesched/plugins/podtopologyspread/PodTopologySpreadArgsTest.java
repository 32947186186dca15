package io.kubesched.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubesched.framework.FieldError;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Validation of PodTopologySpreadArgs, ported from kube's TestValidatePodTopologySpreadArgs. */
final class PodTopologySpreadArgsTest {
  static final String P = "profiles[0].pluginConfig[0].args";

  static V1TopologySpreadConstraint c(int maxSkew, String key, String when) {
    return new V1TopologySpreadConstraint()
        .maxSkew(maxSkew)
        .topologyKey(key)
        .whenUnsatisfiable(when);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "valid config",
            new PodTopologySpreadArgs(
                List.of(
                    c(1, "node", "DoNotSchedule"), c(2, "zone", "ScheduleAnyway")),
                "List"),
            List.of()),
        Arguments.argumentSet(
            "defaults are valid", PodTopologySpreadArgs.defaults(), List.of()),
        Arguments.argumentSet(
            "maxSkew less than zero",
            new PodTopologySpreadArgs(List.of(c(-1, "node", "DoNotSchedule")), "List"),
            List.of(
                new FieldError(
                    P + ".defaultConstraints[0].maxSkew",
                    "Invalid value: -1: not in valid range (0, inf)"))),
        Arguments.argumentSet(
            "empty topology key",
            new PodTopologySpreadArgs(List.of(c(1, "", "DoNotSchedule")), "List"),
            List.of(
                new FieldError(
                    P + ".defaultConstraints[0].topologyKey", "Required value: can not be empty"))),
        Arguments.argumentSet(
            "whenUnsatisfiable is empty",
            new PodTopologySpreadArgs(List.of(c(1, "node", "")), "List"),
            List.of(
                new FieldError(
                    P + ".defaultConstraints[0].whenUnsatisfiable",
                    "Required value: can not be empty"))),
        Arguments.argumentSet(
            "whenUnsatisfiable contains unsupported action",
            new PodTopologySpreadArgs(List.of(c(1, "node", "none")), "List"),
            List.of(
                new FieldError(
                    P + ".defaultConstraints[0].whenUnsatisfiable",
                    "Unsupported value: \"none\": supported values: \"DoNotSchedule\","
                        + " \"ScheduleAnyway\""))),
        Arguments.argumentSet(
            "duplicated constraints",
            new PodTopologySpreadArgs(
                List.of(c(1, "node", "DoNotSchedule"), c(2, "node", "DoNotSchedule")), "List"),
            List.of(
                new FieldError(
                    P + ".defaultConstraints[1]", "Duplicate value: \"{node, DoNotSchedule}\""))),
        Arguments.argumentSet(
            "label selector present",
            new PodTopologySpreadArgs(
                List.of(
                    c(1, "key", "DoNotSchedule")
                        .labelSelector(new V1LabelSelector().putMatchLabelsItem("a", "b"))),
                "List"),
            List.of(
                new FieldError(
                    P + ".defaultConstraints[0].labelSelector",
                    "Forbidden: constraint must not define a selector, as they deduced for each"
                        + " pod"))),
        Arguments.argumentSet(
            "list default constraints, no constraints",
            new PodTopologySpreadArgs(List.of(), "List"),
            List.of()),
        Arguments.argumentSet(
            "system default constraints, but has constraints",
            new PodTopologySpreadArgs(List.of(c(1, "key", "DoNotSchedule")), "System"),
            List.of(
                new FieldError(
                    P + ".defaultingType",
                    "Invalid value: \"System\": when .defaultConstraints are not empty"))),
        Arguments.argumentSet(
            "unknown defaulting type",
            new PodTopologySpreadArgs(List.of(), "Sometimes"),
            List.of(
                new FieldError(
                    P + ".defaultingType",
                    "Unsupported value: \"Sometimes\": supported values: \"List\", \"System\""))),
        Arguments.argumentSet(
            "invalid topology key",
            new PodTopologySpreadArgs(List.of(c(1, "-bad key", "DoNotSchedule")), "List"),
            List.of(
                new FieldError(
                    P + ".defaultConstraints[0].topologyKey",
                    "Invalid value: \"-bad key\": name part must consist of alphanumeric"
                        + " characters, '-', '_' or '.', and must start and end with an"
                        + " alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc',"
                        + " regex used for validation is"
                        + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"))));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void validate(PodTopologySpreadArgs args, List<FieldError> want) {
    assertThat(args.validate(P)).isEqualTo(want);
  }

  @Test
  void nullFieldsTakeKubeDefaults() {
    assertThat(new PodTopologySpreadArgs(null, null))
        .isEqualTo(new PodTopologySpreadArgs(List.of(), "System"));
  }

  @Test
  void providerRejectsInvalidArgs() {
    PodTopologySpreadProvider provider = new PodTopologySpreadProvider();
    FakeHandle handle = FakeHandle.of(List.of(), List.of());

    assertThat(provider.name()).isEqualTo("PodTopologySpread");
    assertThat(provider.defaultArgs()).isEqualTo(PodTopologySpreadArgs.defaults());
    assertThat(provider.create(provider.defaultArgs(), handle)).isInstanceOf(PodTopologySpread.class);
    assertThatThrownBy(
            () -> provider.create(new PodTopologySpreadArgs(List.of(), "Sometimes"), handle))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("args.defaultingType");
  }
}
