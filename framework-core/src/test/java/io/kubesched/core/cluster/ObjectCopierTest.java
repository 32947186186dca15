package io.kubesched.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerImage;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodAntiAffinity;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetSpec;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class ObjectCopierTest {

  static Stream<Arguments> objects() {
    return Stream.of(
        Arguments.argumentSet(
            "a pod with requests in several formats, affinity, spread, tolerations and status",
            fullPod()),
        Arguments.argumentSet(
            "a pod whose spec leaves the defaulted lists null",
            new V1Pod().metadata(new V1ObjectMeta().name("bare")).spec(new V1PodSpec())),
        Arguments.argumentSet("a pod whose lists and maps were set to null", nulledPod()),
        Arguments.argumentSet("a node with taints, images and allocatable", node()),
        Arguments.argumentSet("a disruption budget with an int-or-string", budget()));
  }

  private static V1Pod nulledPod() {
    V1PodSpec spec = new V1PodSpec().nodeName("n");
    spec.setContainers(null);
    spec.setTolerations(null);
    spec.setNodeSelector(null);
    V1ObjectMeta meta = new V1ObjectMeta().name("nulled");
    meta.setLabels(null);
    meta.setFinalizers(null);
    return new V1Pod().metadata(meta).spec(spec);
  }

  private static V1Pod fullPod() {
    Map<String, String> annotations = new HashMap<>();
    annotations.put("note", "x");
    annotations.put("dropped", null);
    V1ResourceRequirements resources = new V1ResourceRequirements();
    resources.requests(
        Map.of(
            "cpu", Quantity.fromString("0.5"),
            "memory", Quantity.fromString("1Gi"),
            "ephemeral-storage", Quantity.fromString("1e3")));
    resources.limits(Map.of("cpu", Quantity.fromString("1000m")));
    V1Container container = new V1Container().name("c").image("img").resources(resources);
    container.addPortsItem(new V1ContainerPort().containerPort(80).hostPort(8080));
    V1PodAffinityTerm term = new V1PodAffinityTerm().topologyKey("zone");
    term.labelSelector(new V1LabelSelector().matchLabels(Map.of("app", "web")));
    V1PodAntiAffinity anti = new V1PodAntiAffinity();
    anti.addRequiredDuringSchedulingIgnoredDuringExecutionItem(term);
    V1PodSpec spec = new V1PodSpec().priority(7);
    spec.containers(Arrays.asList(container, null));
    spec.tolerations(
        List.of(
            new V1Toleration()
                .key("k")
                .operator("Exists")
                .effect("NoSchedule")
                .tolerationSeconds(30L)));
    spec.affinity(new V1Affinity().podAntiAffinity(anti));
    spec.addTopologySpreadConstraintsItem(
        new V1TopologySpreadConstraint()
            .maxSkew(1)
            .topologyKey("zone")
            .whenUnsatisfiable("DoNotSchedule"));
    V1ObjectMeta meta =
        new V1ObjectMeta().name("p").namespace("ns").uid("u").annotations(annotations);
    meta.labels(Map.of("app", "web", "tier", "db"));
    meta.creationTimestamp(OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 600_000_000, ZoneOffset.UTC));
    V1PodStatus status = new V1PodStatus().phase("Pending");
    status.addConditionsItem(new V1PodCondition().type("PodScheduled").status("False"));
    return new V1Pod().apiVersion("v1").kind("Pod").metadata(meta).spec(spec).status(status);
  }

  private static V1Node node() {
    V1NodeSpec spec = new V1NodeSpec().unschedulable(true);
    spec.addTaintsItem(new V1Taint().key("k").value("v").effect("NoExecute"));
    V1NodeStatus status = new V1NodeStatus();
    status.allocatable(
        Map.of("cpu", Quantity.fromString("3.5"), "pods", Quantity.fromString("110")));
    status.addImagesItem(new V1ContainerImage().sizeBytes(123L).names(List.of("a", "b")));
    return new V1Node()
        .metadata(new V1ObjectMeta().name("n").labels(Map.of("zone", "a")))
        .spec(spec)
        .status(status);
  }

  private static V1PodDisruptionBudget budget() {
    V1PodDisruptionBudgetSpec spec = new V1PodDisruptionBudgetSpec();
    spec.minAvailable(new IntOrString("50%"));
    spec.maxUnavailable(new IntOrString(1));
    return new V1PodDisruptionBudget().metadata(new V1ObjectMeta().name("pdb")).spec(spec);
  }

  @ParameterizedTest
  @MethodSource("objects")
  void deepCopyIsTheGsonRoundTrip(Object original) {
    Object fast = ObjectCopier.deepCopy(original);
    Object reference = ObjectCopier.gsonCopy(original);

    assertThat(fast).isNotSameAs(original).isEqualTo(reference);
    assertThat(fast.toString()).isEqualTo(reference.toString());
  }

  @ParameterizedTest
  @MethodSource("objects")
  void deepCopySharesNoMutableState(Object original) {
    String before = original.toString();
    Object copy = ObjectCopier.deepCopy(original);
    if (copy instanceof V1Pod p) {
      p.getMetadata().setName("changed");
      p.getSpec().setNodeName("elsewhere");
      p.getSpec().getContainers().clear();
    } else if (copy instanceof V1Node n) {
      n.getMetadata().getLabels().clear();
      n.getStatus().getImages().get(0).getNames().clear();
    } else if (copy instanceof V1PodDisruptionBudget b) {
      b.getSpec().setMinAvailable(null);
    }

    assertThat(original.toString()).isEqualTo(before);
  }

  @ParameterizedTest
  @MethodSource("objects")
  void shallowCopyIsEqualAndSharesEveryValue(Object original) throws IllegalAccessException {
    Object copy = ObjectCopier.shallowCopy(original);

    assertThat(copy).isNotSameAs(original).isEqualTo(original);
    for (java.lang.reflect.Field f : original.getClass().getDeclaredFields()) {
      if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
        f.setAccessible(true);
        assertThat(f.get(copy)).as(f.getName()).isSameAs(f.get(original));
      }
    }
  }

  @org.junit.jupiter.api.Test
  void shallowCopyKeepsAFieldNullWhereTheConstructorWouldFillIt() {
    V1PodSpec spec = new V1PodSpec().nodeName("n");
    spec.setTolerations(null);
    spec.setContainers(null);

    V1PodSpec copy = ObjectCopier.shallowCopy(spec);

    assertThat(copy.getTolerations()).isNull();
    assertThat(copy.getContainers()).isNull();
    assertThat(copy.getNodeName()).isEqualTo("n");
  }
}
