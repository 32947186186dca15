package io.kubesched.e2e;

import static io.kubesched.e2e.E2eCluster.node;
import static io.kubesched.e2e.E2eCluster.scheduled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubesched.testing.MakeNode;
import java.util.Map;
import io.kubesched.testing.MakePod;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The default profile's score ranking and multi-profile configurations. */
final class ScoringE2eTest {
  private static final String IMAGE = "registry.example/web:1.0";
  private static final long MB = 1024L * 1024L;

  static Stream<Arguments> ranking() {
    // The pod asks for 1 cpu and 1Gi of a 4-cpu/8Gi node. Weights: NodeResourcesFit 1,
    // NodeResourcesBalancedAllocation 1, ImageLocality 1, TaintToleration 3.
    // n1 (empty): fit (75+87)/2=81, balanced (1-|0.25-0.125|/2)*100=93, image 0, taints 100*3 -> 474.
    // n2 (a 400m/512Mi pod, has the image): fit (65+81)/2=73, balanced (1-|0.35-0.1875|/2)*100=91,
    //   image 100*(500MB*2/3-23MB)/(1000MB-23MB)=31, taints 100*3 -> 495.
    // n3 (empty, has the image, PreferNoSchedule taint): 81+93+31+0 -> 205.
    // Without the image on n2 its image score drops to 14 (spread 1/3): 73+91+0+300=464 < n1's
    // 474, where n3 gets 81+93+14=188.
    return Stream.of(
        argumentSet("image locality tips the balance towards the busier node", true, "n2"),
        argumentSet("without the image the emptier node wins", false, "n1"));
  }

  @ParameterizedTest
  @MethodSource("ranking")
  void theDefaultProfilePicksTheNodeKubeWouldPick(boolean imageOnN2, String expected) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      MakeNode n2 = node("n2", "4", "8Gi");
      if (imageOnN2) {
        n2.image(500 * MB, IMAGE);
      }
      c.add(
          node("n1", "4", "8Gi"),
          n2,
          node("n3", "4", "8Gi").image(500 * MB, IMAGE).taint("spot", "true", "PreferNoSchedule"));
      c.add(MakePod.pod().name("busy").req("cpu", "400m", "memory", "512Mi").node("n2").obj());
      c.add(MakePod.pod().name("p").container(IMAGE).req("cpu", "1", "memory", "1Gi").obj());
      c.run();

      assertThat(c.nodeOf("p")).isEqualTo(expected);
    }
  }

  private static final String TWO_PROFILES =
      """
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: KubeSchedulerConfiguration
      profiles:
      - schedulerName: default-scheduler
      - schedulerName: bin-packing-scheduler
        pluginConfig:
        - name: NodeResourcesFit
          args:
            scoringStrategy:
              type: MostAllocated
      """;

  @Test
  void podsChooseTheirProfileBySchedulerNameAndUnknownNamesAreIgnored() {
    try (E2eCluster c = E2eCluster.withConfig(TWO_PROFILES)) {
      c.add(node("n1", "4", "8Gi"), node("n2", "4", "8Gi"));
      c.add(MakePod.pod().name("half").req("cpu", "2", "memory", "4Gi").node("n1").obj());
      c.add(MakePod.pod().name("spread").priority(2).req("cpu", "1", "memory", "2Gi").obj());
      c.add(
          MakePod.pod()
              .name("packed")
              .priority(1)
              .schedulerName("bin-packing-scheduler")
              .req("cpu", "1", "memory", "2Gi")
              .obj());
      c.add(MakePod.pod().name("stray").schedulerName("other-scheduler").obj());
      c.run();

      assertThat(c.placements())
          .isEqualTo(PlacementE2eTest.map("half", "n1", "spread", "n2", "packed", "n1", "stray", ""));
      assertThat(c.events("spread")).containsExactly(scheduled("spread", "n2"));
      assertThat(c.events("packed")).containsExactly(scheduled("packed", "n1"));
      assertThat(c.events("stray")).isEmpty();
      assertThat(c.podScheduled("stray")).isNull();
    }
  }

  static Stream<Arguments> defaultSpreading() {
    // n1 (16 cpu, 32Gi) holds three web pods, n2 (2 cpu, 4Gi) none. Resources alone prefer n1
    // (least allocated 97 vs 95, balanced 99 both); a Service selecting the pods gives them the
    // system default spread constraints (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway),
    // whose score (weight 2) gives n2 100 and n1 0.
    return Stream.of(
        argumentSet("a Service selecting the pods spreads them by default", true, "n2"),
        argumentSet("without a Service or controller there is no default spreading", false, "n1"));
  }

  @ParameterizedTest
  @MethodSource("defaultSpreading")
  void systemDefaultSpreadingAppliesToPodsOfAService(boolean service, String expected) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      if (service) {
        c.api.create(
            new V1Service()
                .metadata(new V1ObjectMeta().name("web").namespace("default"))
                .spec(new V1ServiceSpec().selector(Map.of("app", "web"))));
      }
      c.add(node("n1", "16", "32Gi"), node("n2", "2", "4Gi"));
      for (int i = 0; i < 3; i++) {
        c.add(MakePod.pod().name("w" + i).label("app", "web").container(IMAGE).node("n1").obj());
      }
      c.add(MakePod.pod().name("p").label("app", "web").container("other:1").obj());
      c.run();

      assertThat(c.nodeOf("p")).isEqualTo(expected);
    }
  }

  private static final String NO_TAINTS =
      """
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: KubeSchedulerConfiguration
      profiles:
      - schedulerName: default-scheduler
      - schedulerName: ignore-taints
        plugins:
          filter:
            disabled:
            - name: TaintToleration
      """;

  @Test
  void aProfileWithoutTheTaintFilterIgnoresTaints() {
    try (E2eCluster c = E2eCluster.withConfig(NO_TAINTS)) {
      c.add(node("n1", "4", "8Gi").taint("dedicated", "x", "NoSchedule"));
      c.add(MakePod.pod().name("strict").obj());
      c.add(MakePod.pod().name("lax").schedulerName("ignore-taints").obj());
      c.run();

      assertThat(c.placements()).isEqualTo(PlacementE2eTest.map("strict", "", "lax", "n1"));
      assertThat(c.distinctEvents("strict"))
          .containsExactly(
              E2eCluster.failed(
                  "0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: x}."
                      + " preemption: 0/1 nodes are available: 1 Preemption is not helpful for"
                      + " scheduling."));
    }
  }
}
