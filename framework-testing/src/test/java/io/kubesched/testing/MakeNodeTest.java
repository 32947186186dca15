package io.kubesched.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ContainerImage;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Resource;
import io.kubesched.framework.Taint;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class MakeNodeTest {
  private static final long GI = 1024L * 1024 * 1024;

  static Stream<Arguments> allocatable() {
    return Stream.of(
        Arguments.argumentSet(
            "capacity sets allocatable with 32 pods by default",
            MakeNode.node().name("n").capacity("cpu", "4", "memory", "8Gi"),
            new Resource(4000, 8 * GI, 0, 32, Map.of())),
        Arguments.argumentSet(
            "capacity keeps an explicit pod count",
            MakeNode.node().name("n").capacity("cpu", "4", "pods", "110", "nvidia.com/gpu", "2"),
            new Resource(4000, 0, 0, 110, Map.of("nvidia.com/gpu", 2L))),
        Arguments.argumentSet(
            "allocatable alone has no default pod count",
            MakeNode.node().name("n").allocatable("cpu", "1500m"),
            new Resource(1500, 0, 0, 0, Map.of())),
        Arguments.argumentSet(
            "allocatable after capacity overrides it",
            MakeNode.node().name("n").capacity("cpu", "4").allocatable("cpu", "3", "pods", "10"),
            new Resource(3000, 0, 0, 10, Map.of())));
  }

  @ParameterizedTest
  @MethodSource("allocatable")
  void nodeInfoAllocatable(MakeNode node, Resource want) {
    assertThat(node.info().allocatable()).isEqualTo(want);
  }

  @Test
  void capacitySetsBothCapacityAndAllocatable() {
    V1Node node = MakeNode.node().name("n").capacity("cpu", "2").obj();

    Map<String, Quantity> want = Map.of("cpu", new Quantity("2"), "pods", new Quantity("32"));
    assertThat(node.getStatus().getCapacity()).isEqualTo(want);
    assertThat(node.getStatus().getAllocatable()).isEqualTo(want);
  }

  @Test
  void labelsTaintsImagesAndUnschedulable() {
    NodeInfo info =
        MakeNode.node()
            .name("n1")
            .label("zone", "a")
            .labels(Map.of("disk", "ssd"))
            .annotation("note", "x")
            .taint("dedicated", "gpu", "NoSchedule")
            .unschedulable(true)
            .image(500, "nginx:1.25", "docker.io/library/nginx:1.25")
            .info();

    assertThat(info.name()).isEqualTo("n1");
    assertThat(info.labels()).isEqualTo(Map.of("zone", "a", "disk", "ssd"));
    assertThat(info.taints()).containsExactly(new Taint("dedicated", "gpu", "NoSchedule"));
    assertThat(info.unschedulable()).isTrue();
    assertThat(info.node().getStatus().getImages())
        .containsExactly(
            new V1ContainerImage()
                .sizeBytes(500L)
                .names(List.of("nginx:1.25", "docker.io/library/nginx:1.25")));
    assertThat(info.node().getMetadata().getAnnotations()).isEqualTo(Map.of("note", "x"));
  }

  @Test
  void infoHoldsThePods() {
    PodInfo a = MakePod.pod().name("a").node("n1").req("cpu", "1").info();
    PodInfo b = MakePod.pod().name("b").node("n1").req("cpu", "500m", "memory", "1Gi").info();

    NodeInfo info = MakeNode.node().name("n1").capacity("cpu", "4").info(a, b);

    assertThat(info.pods()).containsExactly(a, b);
    assertThat(info.requested()).isEqualTo(new Resource(1500, GI, 0, 0, Map.of()));
  }

  @Test
  void everyObjCallReturnsAnIndependentNode() {
    MakeNode builder = MakeNode.node().name("n1").label("a", "1");
    V1Node first = builder.obj();
    builder.label("b", "2");

    assertThat(first.getMetadata().getLabels()).isEqualTo(Map.of("a", "1"));
    assertThat(builder.obj().getMetadata().getLabels()).isEqualTo(Map.of("a", "1", "b", "2"));
  }

  @Test
  void badQuantitiesFailNamingTheResource() {
    assertThatThrownBy(() -> MakeNode.node().capacity("memory", "8GB"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("capacity(): resource memory");
  }
}
