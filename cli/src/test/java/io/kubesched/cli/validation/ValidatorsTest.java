package io.kubesched.cli.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubesched.framework.FieldError;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The core validators on objects built in code (the YAML corpus is in BadInputCorpusTest). */
final class ValidatorsTest {
  private static final Validators CORE = Validators.core();

  static Stream<Arguments> pods() {
    return Stream.of(
        Arguments.argumentSet(
            "a valid pod", MakePod.pod().name("p").req("cpu", "1").obj(), List.of()),
        Arguments.argumentSet(
            "no containers",
            MakePod.pod().name("p").obj(),
            List.of(new FieldError("spec.containers", "Required value"))),
        Arguments.argumentSet(
            "requests above limits", MakePod.pod().name("p").req("cpu", "2").obj(), List.of()),
        Arguments.argumentSet(
            "a host port out of range",
            MakePod.pod().name("p").hostPort(70000).obj(),
            List.of(
                new FieldError(
                    "spec.containers[0].ports[0].containerPort",
                    "Invalid value: 70000: must be between 1 and 65535, inclusive"),
                new FieldError(
                    "spec.containers[0].ports[0].hostPort",
                    "Invalid value: 70000: must be between 1 and 65535, inclusive"))),
        Arguments.argumentSet(
            "an extended resource without limit",
            MakePod.pod().name("p").req("example.com/gpu", "1").obj(),
            List.of(
                new FieldError(
                    "spec.containers[0].resources.limits",
                    "Required value: Limit must be set for non overcommitable resources"))),
        Arguments.argumentSet(
            "a toleration with an unknown effect",
            MakePod.pod()
                .name("p")
                .req()
                .toleration(new V1Toleration().key("k").operator("Exists").effect("Never"))
                .obj(),
            List.of(
                new FieldError(
                    "spec.tolerations[0].effect",
                    "Unsupported value: \"Never\": supported values: \"NoSchedule\","
                        + " \"PreferNoSchedule\", \"NoExecute\""))),
        Arguments.argumentSet(
            "a spread constraint with maxSkew 0",
            MakePod.pod()
                .name("p")
                .req()
                .spreadConstraint(
                    s -> s.maxSkew(0).topologyKey("zone").whenUnsatisfiable("DoNotSchedule"))
                .obj(),
            List.of(
                new FieldError(
                    "spec.topologySpreadConstraints[0].maxSkew",
                    "Invalid value: 0: must be greater than zero"))));
  }

  @ParameterizedTest
  @MethodSource("pods")
  void validatesPods(V1Pod pod, List<FieldError> want) {
    assertThat(CORE.validate(pod)).isEqualTo(want);
  }

  @Test
  void validatesNodes() {
    V1Node node = MakeNode.node().name("n").allocatable("cpu", "-1").taint("k", "v", "Never").obj();
    assertThat(CORE.validate(node))
        .containsExactly(
            new FieldError(
                "spec.taints[0].effect",
                "Unsupported value: \"Never\": supported values: \"NoSchedule\","
                    + " \"PreferNoSchedule\", \"NoExecute\""),
            new FieldError(
                "status.allocatable.cpu",
                "Invalid value: \"-1\": must be greater than or equal to 0"));
  }

  @Test
  void aFeatureRegistersItsOwnValidatorNextToTheCoreOnes() {
    Validators v =
        Validators.core()
            .register(
                V1Pod.class,
                p ->
                    p.getSpec().getVolumes() == null
                        ? List.of()
                        : List.of(new FieldError("spec.volumes", "Forbidden")));
    V1Pod pod = MakePod.pod().name("p").pvc("claim").obj();
    assertThat(v.validate(pod))
        .containsExactly(
            new FieldError("spec.containers", "Required value"),
            new FieldError("spec.volumes", "Forbidden"));
    assertThat(Validators.empty().validate(pod)).isEmpty();
  }
}
