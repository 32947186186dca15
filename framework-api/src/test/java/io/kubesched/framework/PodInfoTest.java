package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodSchedulingGate;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1PreferredSchedulingTerm;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class PodInfoTest {
  @Test
  void defaultsForAnEmptyPod() {
    PodInfo p = PodInfo.of(new V1Pod().metadata(new V1ObjectMeta().name("p").namespace("ns")));

    assertThat(p.uid()).isEqualTo("ns/p");
    assertThat(p.key()).isEqualTo("ns/p");
    assertThat(p.priority()).isZero();
    assertThat(p.schedulerName()).isEqualTo("default-scheduler");
    assertThat(p.preemptionPolicy()).isEqualTo("PreemptLowerPriority");
    assertThat(p.nodeName()).isNull();
    assertThat(p.nominatedNodeName()).isNull();
    assertThat(p.requests()).isEqualTo(Resource.zero());
    assertThat(p.labels()).isEmpty();
    assertThat(p.requiredNodeAffinity()).isNull();
    assertThat(p.hasAffinity()).isFalse();
    assertThat(p.isTerminating()).isFalse();
  }

  @Test
  void anEmptyNominatedNodeNameIsNone() {
    V1Pod pod = Pods.pod("p").obj().status(new V1PodStatus().nominatedNodeName(""));

    assertThat(PodInfo.of(pod).nominatedNodeName()).isNull();
  }

  @Test
  void imagesGatesAndClaims() {
    V1Pod pod =
        Pods.pod("p")
            .pvc("data")
            .obj()
            .spec(
                new V1PodSpec()
                    .addInitContainersItem(new V1Container().name("i").image("busybox"))
                    .addContainersItem(new V1Container().name("c").image("nginx:1.25"))
                    .addSchedulingGatesItem(new V1PodSchedulingGate().name("example.com/gate")));

    PodInfo p = PodInfo.of(pod);

    assertThat(p.images()).containsExactly("busybox", "nginx:1.25");
    assertThat(p.schedulingGates()).containsExactly("example.com/gate");
  }

  @Test
  void preferredNodeAffinityTermsWithZeroWeightAreDropped() {
    V1NodeSelectorTerm term =
        new V1NodeSelectorTerm()
            .addMatchExpressionsItem(
                new V1NodeSelectorRequirement().key("zone").operator("In").values(List.of("a")));
    V1Pod pod =
        Pods.pod("p")
            .obj()
            .spec(
                new V1PodSpec()
                    .affinity(
                        new V1Affinity()
                            .nodeAffinity(
                                new V1NodeAffinity()
                                    .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                                        new V1PreferredSchedulingTerm().weight(0).preference(term))
                                    .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                                        new V1PreferredSchedulingTerm()
                                            .weight(3)
                                            .preference(term)))));

    PodInfo p = PodInfo.of(pod);

    assertThat(p.preferredNodeAffinity()).hasSize(1);
    assertThat(p.preferredNodeAffinity().get(0).weight()).isEqualTo(3);
    assertThat(p.preferredNodeAffinityError()).isNull();
  }

  @Test
  void affinityTermsDefaultToThePodsNamespace() {
    V1PodAffinityTerm own =
        new V1PodAffinityTerm()
            .topologyKey("zone")
            .labelSelector(new V1LabelSelector().putMatchLabelsItem("app", "web"));
    V1PodAffinityTerm named =
        new V1PodAffinityTerm()
            .topologyKey("zone")
            .namespaces(List.of("a", "b"))
            .labelSelector(new V1LabelSelector().putMatchLabelsItem("app", "web"));
    V1PodAffinityTerm allNamespaces =
        new V1PodAffinityTerm()
            .topologyKey("zone")
            .namespaceSelector(new V1LabelSelector())
            .labelSelector(new V1LabelSelector().putMatchLabelsItem("app", "web"));
    V1Pod pod =
        Pods.pod("p")
            .obj()
            .spec(
                new V1PodSpec()
                    .affinity(
                        new V1Affinity()
                            .podAffinity(
                                new V1PodAffinity()
                                    .requiredDuringSchedulingIgnoredDuringExecution(
                                        List.of(own, named, allNamespaces)))));
    PodInfo p = PodInfo.of(pod);
    PodInfo webInOther =
        PodInfo.of(
            new V1Pod()
                .metadata(
                    new V1ObjectMeta().name("w").namespace("other").putLabelsItem("app", "web")));

    List<AffinityTerm> terms = p.requiredAffinityTerms();
    assertThat(terms)
        .extracting(AffinityTerm::namespaces)
        .containsExactly(Set.of("default"), Set.of("a", "b"), Set.of());
    assertThat(terms.get(0).matches(webInOther, Map.of())).isFalse();
    assertThat(terms.get(2).matches(webInOther, Map.of("team", "x"))).isTrue();
    assertThat(p.hasAffinity()).isTrue();
    assertThat(p.hasRequiredAntiAffinity()).isFalse();
  }

  @Test
  void anUnparsableAffinityTermIsRecordedNotThrown() {
    V1PodAffinityTerm bad =
        new V1PodAffinityTerm()
            .topologyKey("zone")
            .labelSelector(
                new V1LabelSelector()
                    .addMatchExpressionsItem(
                        new V1LabelSelectorRequirement().key("app").operator("In")));
    V1Pod pod =
        Pods.pod("p")
            .obj()
            .spec(
                new V1PodSpec()
                    .affinity(
                        new V1Affinity()
                            .podAffinity(
                                new V1PodAffinity()
                                    .addRequiredDuringSchedulingIgnoredDuringExecutionItem(bad))));

    PodInfo p = PodInfo.of(pod);

    assertThat(p.affinityParseError()).isNotNull();
    assertThat(p.requiredAffinityTerms()).isEmpty();
  }

  @Test
  void aRevisionWithANodeNameSharesWhatWasComputed() {
    V1Pod pod =
        new V1Pod()
            .metadata(
                new V1ObjectMeta().name("p").namespace("ns").uid("u1").labels(Map.of("a", "b")))
            .spec(
                new V1PodSpec()
                    .priority(7)
                    .nodeSelector(Map.of("zone", "z1"))
                    .addContainersItem(
                        new V1Container()
                            .name("c")
                            .image("img:1")
                            .resources(
                                new io.kubernetes.client.openapi.models.V1ResourceRequirements()
                                    .requests(
                                        Map.of(
                                            "cpu",
                                            io.kubernetes.client.custom.Quantity.fromString(
                                                "250m"))))));
    PodInfo info = PodInfo.of(pod);
    V1Pod revision =
        new V1Pod()
            .metadata(pod.getMetadata())
            .spec(
                new V1PodSpec()
                    .priority(7)
                    .nodeSelector(pod.getSpec().getNodeSelector())
                    .containers(pod.getSpec().getContainers())
                    .nodeName("n1"));

    PodInfo assumed = info.withNodeName(revision);
    PodInfo parsed = PodInfo.of(revision);

    assertThat(assumed.pod()).isSameAs(revision);
    assertThat(
            List.of(
                assumed.nodeName(),
                assumed.key(),
                assumed.uid(),
                assumed.labels(),
                assumed.priority(),
                assumed.requests(),
                assumed.nonZeroMilliCpu(),
                assumed.nonZeroMemory(),
                assumed.tolerations(),
                assumed.nodeSelector(),
                assumed.images(),
                assumed.hostPorts(),
                assumed.pvcNames()))
        .isEqualTo(
            List.of(
                parsed.nodeName(),
                parsed.key(),
                parsed.uid(),
                parsed.labels(),
                parsed.priority(),
                parsed.requests(),
                parsed.nonZeroMilliCpu(),
                parsed.nonZeroMemory(),
                parsed.tolerations(),
                parsed.nodeSelector(),
                parsed.images(),
                parsed.hostPorts(),
                parsed.pvcNames()));
    assertThat(assumed.requests()).isSameAs(info.requests());
  }

  @Test
  void anotherPodIsNoRevision() {
    PodInfo info = PodInfo.of(new V1Pod().metadata(new V1ObjectMeta().name("p").namespace("ns")));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                info.withNodeName(
                    new V1Pod().metadata(new V1ObjectMeta().name("q").namespace("ns"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withNodeName: ns/q is not a revision of ns/p");
  }

  private static V1Pod revisable() {
    return new V1Pod()
        .metadata(
            new V1ObjectMeta().name("p").namespace("ns").uid("u1").labels(Map.of("app", "web")))
        .spec(
            new V1PodSpec()
                .priority(3)
                .nodeSelector(Map.of("zone", "z1"))
                .addContainersItem(
                    new V1Container()
                        .name("c")
                        .image("img:1")
                        .resources(
                            new io.kubernetes.client.openapi.models.V1ResourceRequirements()
                                .requests(
                                    Map.of(
                                        "cpu",
                                        io.kubernetes.client.custom.Quantity.fromString(
                                            "250m"))))));
  }

  /** A revision as an API server makes it: new pod, metadata and spec objects sharing the rest. */
  private static V1Pod copyOf(V1Pod pod) {
    V1ObjectMeta m = pod.getMetadata();
    V1PodSpec s = pod.getSpec();
    return new V1Pod()
        .metadata(
            new V1ObjectMeta()
                .name(m.getName())
                .namespace(m.getNamespace())
                .uid(m.getUid())
                .labels(m.getLabels())
                .ownerReferences(m.getOwnerReferences())
                .resourceVersion("2"))
        .spec(
            new V1PodSpec()
                .priority(s.getPriority())
                .nodeSelector(s.getNodeSelector())
                .containers(s.getContainers())
                .initContainers(s.getInitContainers())
                .overhead(s.getOverhead())
                .tolerations(s.getTolerations())
                .affinity(s.getAffinity())
                .topologySpreadConstraints(s.getTopologySpreadConstraints())
                .schedulingGates(s.getSchedulingGates())
                .volumes(s.getVolumes())
                .nodeName(s.getNodeName()));
  }

  static Stream<Arguments> revisions() {
    return Stream.of(
        Arguments.argumentSet(
            "bound: node name and status changed",
            (UnaryOperator<V1Pod>)
                p -> {
                  V1Pod r = copyOf(p);
                  r.getSpec().setNodeName("n1");
                  r.setStatus(new V1PodStatus().phase("Pending"));
                  return r;
                },
            true),
        Arguments.argumentSet(
            "labels replaced by an equal map: computed again",
            (UnaryOperator<V1Pod>)
                p -> {
                  V1Pod r = copyOf(p);
                  r.getMetadata().setLabels(new java.util.HashMap<>(p.getMetadata().getLabels()));
                  return r;
                },
            false),
        Arguments.argumentSet(
            "labels changed",
            (UnaryOperator<V1Pod>)
                p -> {
                  V1Pod r = copyOf(p);
                  r.getMetadata().setLabels(Map.of("app", "db"));
                  return r;
                },
            false),
        Arguments.argumentSet(
            "started: a status with a start time, the rest shared",
            (UnaryOperator<V1Pod>)
                p -> {
                  V1Pod r = copyOf(p);
                  r.status(
                      new io.kubernetes.client.openapi.models.V1PodStatus()
                          .startTime(java.time.OffsetDateTime.parse("2026-01-01T00:00:05Z")));
                  return r;
                },
            true),
        Arguments.argumentSet(
            "containers changed",
            (UnaryOperator<V1Pod>)
                p -> {
                  V1Pod r = copyOf(p);
                  r.getSpec().setContainers(List.of(new V1Container().name("c").image("img:2")));
                  return r;
                },
            false),
        Arguments.argumentSet(
            "priority changed",
            (UnaryOperator<V1Pod>)
                p -> {
                  V1Pod r = copyOf(p);
                  r.getSpec().setPriority(9);
                  return r;
                },
            false),
        Arguments.argumentSet(
            "tolerations added",
            (UnaryOperator<V1Pod>)
                p -> {
                  V1Pod r = copyOf(p);
                  r.getSpec()
                      .setTolerations(
                          List.of(
                              new io.kubernetes.client.openapi.models.V1Toleration()
                                  .key("k")
                                  .operator("Exists")));
                  return r;
                },
            false));
  }

  @ParameterizedTest
  @MethodSource("revisions")
  void aRevisionIsParsedAsItsOwnPodAndSharesOnlyWhatItRefersTo(
      UnaryOperator<V1Pod> revise, boolean shared) {
    V1Pod pod = revisable();
    PodInfo info = PodInfo.of(pod);
    V1Pod revision = revise.apply(pod);

    PodInfo next = info.forRevision(revision);
    PodInfo parsed = PodInfo.of(revision);

    assertThat(next.pod()).isSameAs(revision);
    assertThat(
            java.util.Arrays.asList(
                next.nodeName(),
                next.uid(),
                next.labels(),
                next.priority(),
                next.requests(),
                next.nonZeroMilliCpu(),
                next.tolerations(),
                next.nodeSelector(),
                next.images(),
                String.valueOf(next.startTime()),
                List.of(
                    next.requestsMilliCpu(),
                    next.requestsMemory(),
                    next.requestsEphemeralStorage(),
                    next.requestsPods()),
                next.requestsScalars()))
        .isEqualTo(
            java.util.Arrays.asList(
                parsed.nodeName(),
                parsed.uid(),
                parsed.labels(),
                parsed.priority(),
                parsed.requests(),
                parsed.nonZeroMilliCpu(),
                parsed.tolerations(),
                parsed.nodeSelector(),
                parsed.images(),
                String.valueOf(parsed.startTime()),
                List.of(
                    parsed.requests().milliCpu(),
                    parsed.requests().memory(),
                    parsed.requests().ephemeralStorage(),
                    parsed.requests().allowedPodNumber()),
                !parsed.requests().scalarResources().isEmpty()));
    assertThat(next.requests() == info.requests()).isEqualTo(shared);
  }

  @Test
  void uidOfIsTheUidOfTheParsedPod() {
    V1Pod withUid = revisable();
    V1Pod without = new V1Pod().metadata(new V1ObjectMeta().name("q").namespace("ns"));
    V1Pod bare = new V1Pod();

    assertThat(List.of(PodInfo.uidOf(withUid), PodInfo.uidOf(without), PodInfo.uidOf(bare)))
        .isEqualTo(
            List.of(PodInfo.of(withUid).uid(), PodInfo.of(without).uid(), PodInfo.of(bare).uid()));
  }
}
