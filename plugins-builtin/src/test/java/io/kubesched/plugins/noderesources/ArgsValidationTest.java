package io.kubesched.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports the NodeResourcesFitArgs and NodeResourcesBalancedAllocationArgs cases of kube's {@code
 * validation_pluginargs_test.go}; messages are kube's field error bodies.
 */
final class ArgsValidationTest {
  private static final String P = "profiles[0].pluginConfig[1].args";

  private static ScoringStrategy rtcr(UtilizationShapePoint... points) {
    return new ScoringStrategy(
        ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO,
        null,
        new RequestedToCapacityRatioParam(List.of(points)));
  }

  static Stream<Arguments> cases() {
    String nameMsg =
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end"
            + " with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex"
            + " used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    return Stream.of(
        argumentSet("the defaults are valid", NodeResourcesFitArgs.defaults(), List.of()),
        argumentSet(
            "valid ignored resources and groups",
            new NodeResourcesFitArgs(List.of("example.com/aaa"), List.of("example.com"), null),
            List.of()),
        argumentSet(
            "an ignored resource group must not contain a slash",
            new NodeResourcesFitArgs(null, List.of("example.com/aa"), null),
            List.of(
                new FieldError(
                    P + ".ignoredResourceGroups[0]",
                    "Invalid value: \"example.com/aa\": resource group name can't contain '/'"))),
        argumentSet(
            "an ignored resource must be a qualified name",
            new NodeResourcesFitArgs(List.of("-bad"), null, null),
            List.of(
                new FieldError(P + ".ignoredResources[0]", "Invalid value: \"-bad\": " + nameMsg))),
        argumentSet(
            "an ignored resource name part must not exceed 63 characters",
            new NodeResourcesFitArgs(List.of("a".repeat(64)), null, null),
            List.of(
                new FieldError(
                    P + ".ignoredResources[0]",
                    "Invalid value: \""
                        + "a".repeat(64)
                        + "\": name part must be no more than 63 characters"))),
        argumentSet(
            "an unknown scoring strategy type is not supported",
            new NodeResourcesFitArgs(null, null, new ScoringStrategy("Invalid", null, null)),
            List.of(
                new FieldError(
                    P + ".scoringStrategy.type",
                    "Unsupported value: \"Invalid\": supported values: \"LeastAllocated\","
                        + " \"MostAllocated\", \"RequestedToCapacityRatio\""))),
        argumentSet(
            "resource weights must lie in (0, 100]",
            new NodeResourcesFitArgs(
                null,
                null,
                new ScoringStrategy(
                    ScoringStrategy.LEAST_ALLOCATED,
                    List.of(new ResourceSpec("memory", -1), new ResourceSpec("cpu", 101)),
                    null)),
            List.of(
                new FieldError(
                    P + ".scoringStrategy.resources[0].weight",
                    "Invalid value: -1: resource weight of memory not in valid range (0, 100]"),
                new FieldError(
                    P + ".scoringStrategy.resources[1].weight",
                    "Invalid value: 101: resource weight of cpu not in valid range (0, 100]"))),
        argumentSet(
            "shape utilisations must increase, reported under scoringStrategy.shape",
            new NodeResourcesFitArgs(
                null,
                null,
                rtcr(new UtilizationShapePoint(10, 1), new UtilizationShapePoint(5, 2))),
            List.of(
                new FieldError(
                    P + ".scoringStrategy.shape[1].utilization",
                    "Invalid value: 5: values must be sorted in increasing order"))),
        argumentSet(
            "shape points must lie in range",
            new NodeResourcesFitArgs(
                null,
                null,
                rtcr(new UtilizationShapePoint(-1, 11), new UtilizationShapePoint(110, -2))),
            List.of(
                new FieldError(
                    P + ".scoringStrategy.shape[0].utilization",
                    "Invalid value: -1: not in valid range [0, 100]"),
                new FieldError(
                    P + ".scoringStrategy.shape[0].score",
                    "Invalid value: 11: not in valid range [0, 10]"),
                new FieldError(
                    P + ".scoringStrategy.shape[1].utilization",
                    "Invalid value: 110: not in valid range [0, 100]"),
                new FieldError(
                    P + ".scoringStrategy.shape[1].score",
                    "Invalid value: -2: not in valid range [0, 10]"))),
        argumentSet(
            "a shape needs at least one point",
            new NodeResourcesFitArgs(null, null, rtcr()),
            List.of(
                new FieldError(
                    P + ".scoringStrategy.shape",
                    "Required value: at least one point must be specified"))),
        argumentSet(
            "balanced allocation defaults are valid",
            NodeResourcesBalancedAllocationArgs.defaults(),
            List.of()),
        argumentSet(
            "balanced allocation rejects duplicates and weights other than 1",
            new NodeResourcesBalancedAllocationArgs(
                List.of(
                    new ResourceSpec("cpu", 1),
                    new ResourceSpec("memory", 2),
                    new ResourceSpec("cpu", 1))),
            List.of(
                new FieldError(P + ".resources[1].weight", "Invalid value: 2: must be 1"),
                new FieldError(P + ".resources[2].name", "Duplicate value: \"cpu\""))));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void validate(PluginArgs args, List<FieldError> want) {
    assertThat(args.validate(P)).isEqualTo(want);
  }

  @Test
  void defaultsApplyKubesDefaulting() {
    NodeResourcesFitArgs args =
        new NodeResourcesFitArgs(
            null,
            null,
            new ScoringStrategy(
                ScoringStrategy.MOST_ALLOCATED,
                List.of(new ResourceSpec("cpu", 0), new ResourceSpec("nvidia.com/gpu", 5)),
                null));
    assertThat(args.scoringStrategy().resources())
        .containsExactly(new ResourceSpec("cpu", 1), new ResourceSpec("nvidia.com/gpu", 5));
    assertThat(new NodeResourcesFitArgs(null, null, null).scoringStrategy())
        .isEqualTo(ScoringStrategy.defaults());
    assertThat(new ScoringStrategy(ScoringStrategy.MOST_ALLOCATED, List.of(), null).resources())
        .isEqualTo(ResourceSpec.DEFAULTS);
    assertThat(new NodeResourcesBalancedAllocationArgs(null).resources())
        .isEqualTo(ResourceSpec.DEFAULTS);
  }
}
