package io.kubesched.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubesched.framework.HostPort;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Resource;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class MakePodTest {
  private static final long MI = 1024L * 1024;
  private static final long GI = 1024 * MI;

  static Stream<Arguments> requests() {
    return Stream.of(
        Arguments.argumentSet(
            "a pod without containers requests nothing", MakePod.pod(), Resource.zero()),
        Arguments.argumentSet(
            "regular containers are summed",
            MakePod.pod().req("cpu", "500m", "memory", "1Gi").req("cpu", "1", "memory", "512Mi"),
            new Resource(1500, GI + 512 * MI, 0, 0, Map.of())),
        Arguments.argumentSet(
            "a larger init container wins per resource",
            MakePod.pod().req("cpu", "1", "memory", "1Gi").initReq("cpu", "2", "memory", "256Mi"),
            new Resource(2000, GI, 0, 0, Map.of())),
        Arguments.argumentSet(
            "sidecars add to the regular containers",
            MakePod.pod().sidecarReq("cpu", "200m").req("cpu", "1"),
            new Resource(1200, 0, 0, 0, Map.of())),
        Arguments.argumentSet(
            "an init container after a sidecar counts with it",
            MakePod.pod().sidecarReq("cpu", "1").initReq("cpu", "3").req("cpu", "1"),
            new Resource(4000, 0, 0, 0, Map.of())),
        Arguments.argumentSet(
            "overhead is added on top",
            MakePod.pod()
                .req("cpu", "1", "memory", "1Gi")
                .overhead("cpu", "250m", "memory", "100Mi"),
            new Resource(1250, GI + 100 * MI, 0, 0, Map.of())),
        Arguments.argumentSet(
            "extended resources are scalars",
            MakePod.pod().req("nvidia.com/gpu", "2", "ephemeral-storage", "1Gi"),
            new Resource(0, 0, GI, 0, Map.of("nvidia.com/gpu", 2L))));
  }

  @ParameterizedTest
  @MethodSource("requests")
  void podInfoRequests(MakePod pod, Resource want) {
    assertThat(pod.info().requests()).isEqualTo(want);
  }

  @Test
  void defaultsAreDeterministic() {
    V1Pod pod = MakePod.pod().name("p").obj();

    assertThat(pod.getMetadata().getNamespace()).isEqualTo("default");
    assertThat(pod.getMetadata().getUid()).isEqualTo("default/p");
    assertThat(pod.getSpec().getContainers()).isEmpty();
    assertThat(MakePod.pod().name("p").namespace("ns").uid("u1").obj().getMetadata().getUid())
        .isEqualTo("u1");
    assertThat(MakePod.pod().name("p").namespace("ns").obj().getMetadata().getUid())
        .isEqualTo("ns/p");
    assertThat(MakePod.pod().name("p").obj()).isEqualTo(MakePod.pod().name("p").obj());
  }

  @Test
  void everyObjCallReturnsAnIndependentPod() {
    MakePod builder = MakePod.pod().name("p").label("app", "web");
    V1Pod first = builder.obj();

    builder.node("n1").label("tier", "front");
    V1Pod second = builder.obj();

    assertThat(first.getSpec().getNodeName()).isNull();
    assertThat(first.getMetadata().getLabels()).isEqualTo(Map.of("app", "web"));
    assertThat(second.getSpec().getNodeName()).isEqualTo("n1");
    assertThat(second.getMetadata().getLabels()).isEqualTo(Map.of("app", "web", "tier", "front"));
  }

  @Test
  void containersAreAppendedAndNamedLikeUpstream() {
    V1Pod pod =
        MakePod.pod()
            .container("nginx")
            .req("cpu", "1")
            .lim("cpu", "2")
            .initReq("cpu", "1")
            .sidecarReq("memory", "1Gi")
            .obj();

    assertThat(pod.getSpec().getContainers())
        .extracting(c -> c.getName() + "=" + c.getImage())
        .containsExactly("con0=nginx", "con1=" + MakePod.PAUSE_IMAGE);
    assertThat(pod.getSpec().getContainers().get(1).getResources().getLimits())
        .isEqualTo(Map.of("cpu", new Quantity("2")));
    assertThat(pod.getSpec().getInitContainers())
        .extracting(c -> c.getName() + "/" + c.getRestartPolicy())
        .containsExactly("init-con0/null", "sidecar-con1/Always");
  }

  @Test
  void nonZeroDefaultsApplyOnlyToMissingRequests() {
    PodInfo pod = MakePod.pod().req("cpu", "300m").req().info();

    assertThat(pod.nonZeroMilliCpu()).isEqualTo(300 + 100);
    assertThat(pod.nonZeroMemory()).isEqualTo(2 * 200 * MI);
    assertThat(pod.requests()).isEqualTo(new Resource(300, 0, 0, 0, Map.of()));
  }

  @Test
  void badQuantitiesFailAtOnceNamingTheResource() {
    assertThatThrownBy(() -> MakePod.pod().req("cpu", "lots"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("req(): resource cpu")
        .hasMessageContaining("lots");
    assertThatThrownBy(() -> MakePod.pod().req("cpu"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("odd number");
  }

  @Test
  void hostPortsGoOnTheLastContainer() {
    PodInfo pod =
        MakePod.pod().hostPort(8080).req("cpu", "1").hostPort("127.0.0.1", "UDP", 53).info();

    assertThat(pod.hostPorts())
        .containsExactly(
            new HostPort("0.0.0.0", "TCP", 8080), new HostPort("127.0.0.1", "UDP", 53));
    assertThat(pod.pod().getSpec().getContainers()).hasSize(2);
  }

  @Test
  void tolerationsAndNodeSelection() {
    V1Pod pod =
        MakePod.pod()
            .toleration("k", "v", "NoSchedule")
            .tolerationExists("k2", null)
            .nodeSelector(Map.of("disk", "ssd"))
            .nodeAffinityIn("zone", "a", "b")
            .nodeAffinityNotIn("arch", "arm")
            .preferredNodeAffinity(5, "gpu", "yes")
            .obj();

    assertThat(pod.getSpec().getTolerations())
        .containsExactly(
            new V1Toleration().key("k").operator("Equal").value("v").effect("NoSchedule"),
            new V1Toleration().key("k2").operator("Exists"));
    assertThat(pod.getSpec().getNodeSelector()).isEqualTo(Map.of("disk", "ssd"));
    var required =
        pod.getSpec()
            .getAffinity()
            .getNodeAffinity()
            .getRequiredDuringSchedulingIgnoredDuringExecution();
    assertThat(required.getNodeSelectorTerms()).hasSize(1);
    assertThat(required.getNodeSelectorTerms().get(0).getMatchExpressions())
        .containsExactly(
            new V1NodeSelectorRequirement().key("zone").operator("In").values(List.of("a", "b")),
            new V1NodeSelectorRequirement().key("arch").operator("NotIn").values(List.of("arm")));
    var preferred =
        pod.getSpec()
            .getAffinity()
            .getNodeAffinity()
            .getPreferredDuringSchedulingIgnoredDuringExecution();
    assertThat(preferred).hasSize(1);
    assertThat(preferred.get(0).getWeight()).isEqualTo(5);
    PodInfo info = PodInfo.of(pod);
    assertThat(info.requiredNodeAffinity().matches("n", Map.of("zone", "a", "arch", "x86")))
        .isTrue();
    assertThat(info.requiredNodeAffinity().matches("n", Map.of("zone", "a", "arch", "arm")))
        .isFalse();
  }

  @Test
  void podAffinityTermsAreParsedByPodInfo() {
    PodInfo pod =
        MakePod.pod()
            .name("p")
            .podAffinity("zone", "app", "web")
            .podAffinityExists("host", "db")
            .podAntiAffinity("host", "app", "web")
            .preferredPodAffinity(10, "zone", "app", "cache")
            .preferredPodAntiAffinity(20, "host", "app", "batch")
            .info();

    assertThat(pod.requiredAffinityTerms()).hasSize(2);
    assertThat(pod.requiredAntiAffinityTerms()).hasSize(1);
    assertThat(pod.preferredAffinityTerms()).hasSize(1);
    assertThat(pod.preferredAntiAffinityTerms()).hasSize(1);
    assertThat(pod.hasAffinity()).isTrue();
    assertThat(pod.hasRequiredAntiAffinity()).isTrue();
    assertThat(pod.affinityParseError()).isNull();
  }

  @Test
  void spreadConstraintBuilder() {
    V1Pod pod =
        MakePod.pod()
            .spreadConstraint(
                s ->
                    s.maxSkew(2)
                        .topologyKey("zone")
                        .whenUnsatisfiable("ScheduleAnyway")
                        .selectorExists("foo")
                        .selectorIn("bar", "x")
                        .minDomains(3)
                        .nodeAffinityPolicy("Ignore")
                        .nodeTaintsPolicy("Honor")
                        .matchLabelKeys("pod-template-hash"))
            .spreadConstraint(s -> s.topologyKey("node"))
            .obj();

    assertThat(pod.getSpec().getTopologySpreadConstraints())
        .containsExactly(
            new V1TopologySpreadConstraint()
                .maxSkew(2)
                .topologyKey("zone")
                .whenUnsatisfiable("ScheduleAnyway")
                .labelSelector(
                    new V1LabelSelector()
                        .addMatchExpressionsItem(
                            new V1LabelSelectorRequirement().key("foo").operator("Exists"))
                        .addMatchExpressionsItem(
                            new V1LabelSelectorRequirement()
                                .key("bar")
                                .operator("In")
                                .values(List.of("x"))))
                .minDomains(3)
                .nodeAffinityPolicy("Ignore")
                .nodeTaintsPolicy("Honor")
                .matchLabelKeys(List.of("pod-template-hash")),
            new V1TopologySpreadConstraint()
                .maxSkew(1)
                .topologyKey("node")
                .whenUnsatisfiable("DoNotSchedule"));
    assertThatThrownBy(() -> MakePod.pod().spreadConstraint(s -> s.maxSkew(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topologyKey");
  }

  @Test
  void metadataAndStatusFields() {
    OffsetDateTime t = OffsetDateTime.of(2025, 5, 1, 12, 0, 0, 0, ZoneOffset.UTC);
    PodInfo pod =
        MakePod.pod()
            .name("p")
            .namespace("ns")
            .annotation("a", "b")
            .priority(10)
            .preemptionPolicy("Never")
            .schedulerName("custom")
            .nominatedNode("n2")
            .schedulingGate("gate")
            .ownerReference("ReplicaSet", "rs")
            .pvc("data")
            .startTime(t)
            .creationTimestamp(t)
            .terminating()
            .info();

    assertThat(pod.priority()).isEqualTo(10);
    assertThat(pod.preemptionPolicy()).isEqualTo("Never");
    assertThat(pod.schedulerName()).isEqualTo("custom");
    assertThat(pod.nominatedNodeName()).isEqualTo("n2");
    assertThat(pod.schedulingGates()).containsExactly("gate");
    assertThat(pod.ownerReferences())
        .containsExactly(
            new V1OwnerReference()
                .apiVersion("apps/v1")
                .kind("ReplicaSet")
                .name("rs")
                .uid("ReplicaSet/rs")
                .controller(true));
    assertThat(pod.pvcNames()).containsExactly("data");
    assertThat(pod.startTime()).isEqualTo(t);
    assertThat(pod.pod().getMetadata().getCreationTimestamp()).isEqualTo(t);
    assertThat(pod.isTerminating()).isTrue();
    assertThat(pod.pod().getMetadata().getAnnotations()).isEqualTo(Map.of("a", "b"));
    assertThat(pod.key()).isEqualTo("ns/p");
  }
}
