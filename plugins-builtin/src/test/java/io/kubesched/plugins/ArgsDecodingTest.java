package io.kubesched.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.core.config.ArgsCodec;
import io.kubesched.framework.FieldError;
import io.kubesched.plugins.nodeaffinity.NodeAffinityArgs;
import io.kubesched.plugins.nodeaffinity.NodeAffinityProvider;
import io.kubesched.plugins.noderesources.BalancedAllocationProvider;
import io.kubesched.plugins.noderesources.FitProvider;
import io.kubesched.plugins.noderesources.NodeResourcesBalancedAllocationArgs;
import io.kubesched.plugins.noderesources.NodeResourcesFitArgs;
import io.kubesched.plugins.noderesources.RequestedToCapacityRatioParam;
import io.kubesched.plugins.noderesources.ResourceSpec;
import io.kubesched.plugins.noderesources.ScoringStrategy;
import io.kubesched.plugins.noderesources.UtilizationShapePoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Decodes the args records from YAML-shaped maps the way the configuration loader does. */
final class ArgsDecodingTest {
  private static final String P = "profiles[0].pluginConfig[0].args";

  @Test
  void fitArgsOverlayTheDefaults() {
    List<FieldError> errors = new ArrayList<>();
    NodeResourcesFitArgs args =
        ArgsCodec.decodeArgs(
            new FitProvider(),
            Map.of(
                "ignoredResourceGroups", List.of("example.com"),
                "scoringStrategy",
                    Map.of(
                        "type",
                        "RequestedToCapacityRatio",
                        "requestedToCapacityRatio",
                        Map.of(
                            "shape",
                            List.of(
                                Map.of("utilization", 0, "score", 0),
                                Map.of("utilization", 100, "score", 10))))),
            P,
            errors);
    assertThat(errors).isEmpty();
    assertThat(args)
        .isEqualTo(
            new NodeResourcesFitArgs(
                List.of(),
                List.of("example.com"),
                new ScoringStrategy(
                    ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO,
                    ResourceSpec.DEFAULTS,
                    new RequestedToCapacityRatioParam(
                        List.of(
                            new UtilizationShapePoint(0, 0),
                            new UtilizationShapePoint(100, 10))))));
  }

  @Test
  void fitArgsReportKubesValidationErrors() {
    List<FieldError> errors = new ArrayList<>();
    ArgsCodec.decodeArgs(
        new FitProvider(),
        Map.of(
            "scoringStrategy",
            Map.of(
                "type",
                "MostAllocated",
                "resources",
                List.of(Map.of("name", "cpu", "weight", 101)))),
        P,
        errors);
    assertThat(errors)
        .containsExactly(
            new FieldError(
                P + ".scoringStrategy.resources[0].weight",
                "Invalid value: 101: resource weight of cpu not in valid range (0, 100]"));
  }

  @Test
  void balancedAllocationArgsDefaultTheWeight() {
    List<FieldError> errors = new ArrayList<>();
    NodeResourcesBalancedAllocationArgs args =
        ArgsCodec.decodeArgs(
            new BalancedAllocationProvider(),
            Map.of("resources", List.of(Map.of("name", "cpu"), Map.of("name", "nvidia.com/gpu"))),
            P,
            errors);
    assertThat(errors).isEmpty();
    assertThat(args.resources())
        .containsExactly(new ResourceSpec("cpu", 1), new ResourceSpec("nvidia.com/gpu", 1));
  }

  @Test
  void nodeAffinityArgsDecodeTheClientModel() {
    List<FieldError> errors = new ArrayList<>();
    NodeAffinityArgs args =
        ArgsCodec.decodeArgs(
            new NodeAffinityProvider(),
            Map.of(
                "addedAffinity",
                Map.of(
                    "requiredDuringSchedulingIgnoredDuringExecution",
                    Map.of(
                        "nodeSelectorTerms",
                        List.of(
                            Map.of(
                                "matchExpressions",
                                List.of(
                                    Map.of(
                                        "key",
                                        "zone",
                                        "operator",
                                        "In",
                                        "values",
                                        List.of("a")))))))),
            P,
            errors);
    assertThat(errors).isEmpty();
    assertThat(
            args.addedAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms()
                .get(0)
                .getMatchExpressions()
                .get(0)
                .getKey())
        .isEqualTo("zone");
  }
}
