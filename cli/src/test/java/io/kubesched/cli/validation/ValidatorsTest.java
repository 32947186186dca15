package io.kubesched.cli.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1EmptyDirVolumeSource;
import io.kubernetes.client.openapi.models.V1HostPathVolumeSource;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSchedulingGate;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
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
                    "Invalid value: 0: must be greater than zero"))),
        Arguments.argumentSet(
            "restart, DNS and pull policies out of their enums; dnsPolicy None without dnsConfig",
            with(
                MakePod.pod().name("p").req().obj(),
                p -> {
                  p.getSpec().restartPolicy("Sometimes").dnsPolicy("None");
                  p.getSpec().getContainers().get(0).imagePullPolicy("Sometimes");
                }),
            List.of(
                new FieldError(
                    "spec.containers[0].imagePullPolicy",
                    "Unsupported value: \"Sometimes\": supported values: \"Always\","
                        + " \"IfNotPresent\", \"Never\""),
                new FieldError(
                    "spec.restartPolicy",
                    "Unsupported value: \"Sometimes\": supported values: \"Always\","
                        + " \"OnFailure\", \"Never\""),
                new FieldError(
                    "spec.dnsConfig",
                    "Required value: must provide `dnsConfig` when `dnsPolicy` is None"))),
        Arguments.argumentSet(
            "host networking with a host port other than the container port",
            with(
                MakePod.pod().name("p").hostPort(8080).obj(),
                p -> {
                  p.getSpec().hostNetwork(true);
                  p.getSpec().getContainers().get(0).getPorts().get(0).containerPort(80);
                }),
            List.of(
                new FieldError(
                    "spec.containers[0].ports[0].containerPort",
                    "Invalid value: 80: must match `hostPort` when `hostNetwork` is true"))),
        Arguments.argumentSet(
            "host networking with the host port left to its default",
            with(
                MakePod.pod().name("p").hostPort(8080).obj(),
                p -> {
                  p.getSpec().hostNetwork(true);
                  p.getSpec().getContainers().get(0).getPorts().get(0).hostPort(null);
                }),
            List.of()),
        Arguments.argumentSet(
            "volumes without a source, with two, and a mount of an unknown volume",
            with(
                MakePod.pod().name("p").req().obj(),
                p -> {
                  p.getSpec()
                      .addVolumesItem(new V1Volume().name("a"))
                      .addVolumesItem(
                          new V1Volume()
                              .name("b")
                              .emptyDir(new V1EmptyDirVolumeSource())
                              .hostPath(new V1HostPathVolumeSource().path("/x")))
                      .addVolumesItem(
                          new V1Volume().name("c").emptyDir(new V1EmptyDirVolumeSource()));
                  p.getSpec()
                      .getContainers()
                      .get(0)
                      .addVolumeMountsItem(new V1VolumeMount().name("a").mountPath("/a"))
                      .addVolumeMountsItem(new V1VolumeMount().name("c").mountPath(""));
                }),
            List.of(
                new FieldError("spec.volumes[0]", "Required value: must specify a volume type"),
                new FieldError(
                    "spec.volumes[1].hostPath",
                    "Forbidden: may not specify more than 1 volume type"),
                new FieldError("spec.containers[0].volumeMounts[0].name", "Not found: \"a\""),
                new FieldError("spec.containers[0].volumeMounts[1].mountPath", "Required value"))),
        Arguments.argumentSet(
            "scheduling gates: a name that is no qualified name, a duplicate",
            with(
                MakePod.pod().name("p").req().obj(),
                p ->
                    p.getSpec()
                        .addSchedulingGatesItem(new V1PodSchedulingGate().name("example.com/ok"))
                        .addSchedulingGatesItem(new V1PodSchedulingGate().name("example.com/ok"))
                        .addSchedulingGatesItem(new V1PodSchedulingGate().name("bad gate"))),
            List.of(
                new FieldError(
                    "spec.schedulingGates[1].name", "Duplicate value: \"example.com/ok\""),
                new FieldError(
                    "spec.schedulingGates[2].name",
                    "Invalid value: \"bad gate\": name part must consist of alphanumeric"
                        + " characters, '-', '_' or '.', and must start and end with an"
                        + " alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc',"
                        + " regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"))),
        Arguments.argumentSet(
            "an annotation key that is no qualified name",
            with(
                MakePod.pod().name("p").req().obj(),
                p -> p.getMetadata().putAnnotationsItem("bad key!", "v")),
            List.of(
                new FieldError(
                    "metadata.annotations",
                    "Invalid value: \"bad key!\": name part must consist of alphanumeric"
                        + " characters, '-', '_' or '.', and must start and end with an"
                        + " alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc',"
                        + " regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"))));
  }

  private static V1Pod with(V1Pod pod, java.util.function.Consumer<V1Pod> change) {
    change.accept(pod);
    return pod;
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
