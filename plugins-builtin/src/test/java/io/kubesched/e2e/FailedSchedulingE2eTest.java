package io.kubesched.e2e;

import static io.kubesched.e2e.E2eCluster.HOSTNAME;
import static io.kubesched.e2e.E2eCluster.ZONE;
import static io.kubesched.e2e.E2eCluster.failed;
import static io.kubesched.e2e.E2eCluster.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A pod that fits no node stays pending with kube-scheduler's exact FailedScheduling text, on the
 * PodScheduled condition and in the events, through the default profile (filters + DefaultPreemption
 * PostFilter).
 */
final class FailedSchedulingE2eTest {
  private static final String NO_VICTIMS = "No preemption victims found for incoming pod";
  private static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";

  /**
   * kube's FitError text: the filter histogram, then DefaultPreemption's own FitError text (since
   * v1.32 the PostFilter message gets no extra period).
   */
  private static String fitError(int n, String filterReasons, String preemptionReasons) {
    return "0/"
        + n
        + " nodes are available: "
        + filterReasons
        + ". preemption: 0/"
        + n
        + " nodes are available: "
        + preemptionReasons
        + ".";
  }

  private static MakePod pod(String name) {
    return MakePod.pod().name(name).container("registry.k8s.io/pause:3.10");
  }

  /** Required node affinity on {@code metadata.name}, as the DaemonSet controller writes it. */
  private static V1Affinity nodeNameAffinity(String node) {
    return new V1Affinity()
        .nodeAffinity(
            new V1NodeAffinity()
                .requiredDuringSchedulingIgnoredDuringExecution(
                    new V1NodeSelector()
                        .addNodeSelectorTermsItem(
                            new V1NodeSelectorTerm()
                                .addMatchFieldsItem(
                                    new V1NodeSelectorRequirement()
                                        .key("metadata.name")
                                        .operator("In")
                                        .addValuesItem(node)))));
  }

  /** Nodes a1, b1, c1 in zones a, b, c; the named ones tainted dedicated=x:NoSchedule. */
  static List<MakeNode> zonesAbc(String... tainted) {
    List<String> t = List.of(tainted);
    return Stream.of("a", "b", "c")
        .map(
            z -> {
              MakeNode n = node(z + "1", "4", "8Gi").label(ZONE, z);
              return t.contains(z + "1") ? n.taint("dedicated", "x", "NoSchedule") : n;
            })
        .toList();
  }

  static Stream<Arguments> unschedulable() {
    return Stream.of(
        argumentSet(
            "required anti-affinity on hostname leaves the fourth replica pending",
            List.of(node("n1", "4", "8Gi"), node("n2", "4", "8Gi"), node("n3", "4", "8Gi")),
            List.of(
                pod("web-0").label("app", "web").podAntiAffinity(HOSTNAME, "app", "web").node("n1").obj(),
                pod("web-1").label("app", "web").podAntiAffinity(HOSTNAME, "app", "web").node("n2").obj(),
                pod("web-2").label("app", "web").podAntiAffinity(HOSTNAME, "app", "web").node("n3").obj()),
            pod("p").label("app", "web").podAntiAffinity(HOSTNAME, "app", "web").obj(),
            fitError(3, "3 node(s) didn't match pod anti-affinity rules", "3 " + NO_VICTIMS)),
        argumentSet(
            "existing pods' anti-affinity rejects a matching pod",
            List.of(node("n1", "4", "8Gi"), node("n2", "4", "8Gi")),
            List.of(
                pod("db-0").label("app", "db").podAntiAffinity(HOSTNAME, "app", "web").node("n1").obj(),
                pod("db-1").label("app", "db").podAntiAffinity(HOSTNAME, "app", "web").node("n2").obj()),
            pod("p").label("app", "web").obj(),
            fitError(
                2, "2 node(s) didn't satisfy existing pods anti-affinity rules", "2 " + NO_VICTIMS)),
        argumentSet(
            "required pod affinity with no matching pod anywhere",
            List.of(node("n1", "4", "8Gi"), node("n2", "4", "8Gi")),
            List.of(pod("other").label("app", "other").node("n1").obj()),
            pod("p").podAffinity(HOSTNAME, "app", "cache").obj(),
            fitError(2, "2 node(s) didn't match pod affinity rules", "2 " + NOT_HELPFUL)),
        argumentSet(
            "nodeSelector matching no node",
            List.of(node("n1", "4", "8Gi").label("disk", "hdd"), node("n2", "4", "8Gi")),
            List.of(),
            pod("p").nodeSelector(Map.of("disk", "ssd")).obj(),
            fitError(2, "2 node(s) didn't match Pod's node affinity/selector", "2 " + NOT_HELPFUL)),
        argumentSet(
            "required node affinity and an untolerated taint",
            List.of(
                node("n1", "4", "8Gi").label("zone", "a").taint("dedicated", "gpu", "NoSchedule"),
                node("n2", "4", "8Gi").label("zone", "b"),
                node("n3", "4", "8Gi").label("zone", "c")),
            List.of(),
            pod("p").nodeAffinityIn("zone", "a").obj(),
            fitError(
                3,
                "1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) didn't match Pod's node"
                    + " affinity/selector",
                "3 " + NOT_HELPFUL)),
        argumentSet(
            "a NoExecute taint with an empty value and a control-plane taint",
            List.of(
                node("n1", "4", "8Gi").taint("node-role.kubernetes.io/control-plane", "", "NoSchedule"),
                node("n2", "4", "8Gi").taint("maintenance", "", "NoExecute")),
            List.of(),
            pod("p").toleration("other", "x", "NoSchedule").obj(),
            fitError(
                2,
                "1 node(s) had untolerated taint {maintenance: }, 1 node(s) had untolerated taint"
                    + " {node-role.kubernetes.io/control-plane: }",
                "2 " + NOT_HELPFUL)),
        argumentSet(
            "extended resources run out",
            List.of(
                MakeNode.node().name("g1").label(HOSTNAME, "g1")
                    .capacity("cpu", "8", "memory", "16Gi", "nvidia.com/gpu", "2"),
                node("n2", "8", "16Gi")),
            List.of(pod("train").req("nvidia.com/gpu", "2").node("g1").obj()),
            pod("p").req("nvidia.com/gpu", "1").obj(),
            fitError(2, "2 Insufficient nvidia.com/gpu", "2 " + NO_VICTIMS)),
        argumentSet(
            "several insufficient resources on one node are each counted",
            List.of(node("n1", "2", "2Gi"), node("n2", "8", "1Gi")),
            List.of(),
            pod("p").req("cpu", "4", "memory", "4Gi").obj(),
            fitError(2, "1 Insufficient cpu, 2 Insufficient memory", "2 " + NO_VICTIMS)),
        argumentSet(
            "the pod count is exhausted",
            List.of(MakeNode.node().name("n1").capacity("cpu", "4", "memory", "8Gi", "pods", "1")),
            List.of(pod("a").node("n1").obj()),
            pod("p").obj(),
            fitError(1, "1 Too many pods", "1 " + NO_VICTIMS)),
        argumentSet(
            "host port conflicts",
            List.of(node("n1", "4", "8Gi"), node("n2", "4", "8Gi")),
            List.of(pod("a").hostPort(8080).node("n1").obj(), pod("b").hostPort(8080).node("n2").obj()),
            pod("p").hostPort(8080).obj(),
            fitError(
                2,
                "2 node(s) didn't have free ports for the requested pod ports",
                "2 " + NO_VICTIMS)),
        argumentSet(
            "cordoned nodes",
            List.of(node("n1", "4", "8Gi").unschedulable(true), node("n2", "4", "8Gi").unschedulable(true)),
            List.of(),
            pod("p").obj(),
            fitError(2, "2 node(s) were unschedulable", "2 " + NOT_HELPFUL)),
        argumentSet(
            "a DaemonSet-style matchFields affinity restricts the nodes evaluated",
            List.of(node("n1", "1", "8Gi"), node("n2", "4", "8Gi"), node("n3", "4", "8Gi")),
            List.of(),
            pod("p").affinity(nodeNameAffinity("n1")).req("cpu", "2").obj(),
            fitError(
                3,
                "1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]",
                "1 " + NO_VICTIMS + ", 2 " + NOT_HELPFUL)),
        argumentSet(
            "a matchFields affinity naming a node that does not exist",
            List.of(node("n1", "4", "8Gi"), node("n2", "4", "8Gi")),
            List.of(),
            pod("p").affinity(nodeNameAffinity("ghost")).obj(),
            fitError(2, "2 node(s) didn't satisfy plugin(s) [NodeAffinity]", "2 " + NOT_HELPFUL)),
        argumentSet(
            "an init container larger than the node",
            List.of(node("n1", "2", "8Gi")),
            List.of(),
            pod("p").req("cpu", "1").initReq("cpu", "3").obj(),
            fitError(1, "1 Insufficient cpu", "1 " + NO_VICTIMS)),
        argumentSet(
            "pod overhead counts towards the request",
            List.of(node("n1", "2", "8Gi")),
            List.of(),
            pod("p").req("cpu", "1").overhead("cpu", "1500m").obj(),
            fitError(1, "1 Insufficient cpu", "1 " + NO_VICTIMS)),
        argumentSet(
            "too many pods and too little cpu on the same node",
            List.of(MakeNode.node().name("n1").capacity("cpu", "1", "memory", "8Gi", "pods", "1")),
            List.of(pod("a").req("cpu", "500m").node("n1").obj()),
            pod("p").req("cpu", "1").obj(),
            fitError(1, "1 Insufficient cpu, 1 Too many pods", "1 " + NO_VICTIMS)),
        argumentSet(
            "ephemeral storage and a resource the node does not have",
            List.of(
                MakeNode.node()
                    .name("n1")
                    .capacity("cpu", "4", "memory", "8Gi", "ephemeral-storage", "10Gi")),
            List.of(),
            pod("p").req("ephemeral-storage", "20Gi", "example.com/foo", "1").obj(),
            fitError(
                1, "1 Insufficient ephemeral-storage, 1 Insufficient example.com/foo", "1 " + NO_VICTIMS)),
        argumentSet(
            "minDomains above the number of zones makes the global minimum zero",
            List.of(
                node("n1", "4", "8Gi").label(ZONE, "a"), node("n2", "4", "8Gi").label(ZONE, "b")),
            List.of(
                pod("w1").label("app", "web").node("n1").obj(),
                pod("w2").label("app", "web").node("n2").obj()),
            pod("p")
                .label("app", "web")
                .spreadConstraint(
                    s -> s.maxSkew(1).topologyKey(ZONE).selectorIn("app", "web").minDomains(3))
                .obj(),
            fitError(
                2, "2 node(s) didn't match pod topology spread constraints", "2 " + NO_VICTIMS)),
        argumentSet(
            "a higher-priority pod on the node leaves no room even after preemption",
            List.of(node("n1", "2", "8Gi")),
            List.of(
                pod("high").priority(100).req("cpu", "1").node("n1").obj(),
                pod("low").priority(1).req("cpu", "1").node("n1").obj()),
            pod("p").priority(50).req("cpu", "2").obj(),
            fitError(1, "1 Insufficient cpu", "1 Insufficient cpu")),
        argumentSet(
            "required self-affinity on a topology key the nodes lack",
            List.of(node("n1", "4", "8Gi"), node("n2", "4", "8Gi")),
            List.of(),
            pod("p").label("app", "db").podAffinity(ZONE, "app", "db").obj(),
            fitError(2, "2 node(s) didn't match pod affinity rules", "2 " + NOT_HELPFUL)),
        argumentSet(
            "nodeAffinityPolicy Ignore counts the zone the pod cannot go to",
            zonesAbc(),
            List.of(
                pod("w1").label("app", "web").node("a1").obj(),
                pod("w2").label("app", "web").node("b1").obj()),
            pod("p")
                .label("app", "web")
                .nodeAffinityIn(ZONE, "a", "b")
                .spreadConstraint(
                    s ->
                        s.maxSkew(1)
                            .topologyKey(ZONE)
                            .selectorIn("app", "web")
                            .nodeAffinityPolicy("Ignore"))
                .obj(),
            fitError(
                3,
                "1 node(s) didn't match Pod's node affinity/selector, 2 node(s) didn't match pod"
                    + " topology spread constraints",
                "1 " + NOT_HELPFUL + ", 2 " + NO_VICTIMS)),
        argumentSet(
            "the default nodeTaintsPolicy Ignore counts the tainted zone",
            zonesAbc("c1"),
            List.of(
                pod("w1").label("app", "web").node("a1").obj(),
                pod("w2").label("app", "web").node("b1").obj()),
            pod("p")
                .label("app", "web")
                .spreadConstraint(s -> s.maxSkew(1).topologyKey(ZONE).selectorIn("app", "web"))
                .obj(),
            fitError(
                3,
                "1 node(s) had untolerated taint {dedicated: x}, 2 node(s) didn't match pod"
                    + " topology spread constraints",
                "1 " + NOT_HELPFUL + ", 2 " + NO_VICTIMS)),
        argumentSet(
            "without matchLabelKeys the old revision's pods count",
            List.of(
                node("a1", "4", "8Gi").label(ZONE, "a"),
                node("b1", "1", "8Gi").label(ZONE, "b"),
                node("c1", "1", "8Gi").label(ZONE, "c")),
            List.of(
                pod("old-1").label("app", "web").label("pod-template-hash", "v1").node("a1").obj(),
                pod("old-2").label("app", "web").label("pod-template-hash", "v1").node("a1").obj(),
                pod("fill-b").req("cpu", "1").node("b1").obj(),
                pod("fill-c").req("cpu", "1").node("c1").obj()),
            pod("p")
                .label("app", "web")
                .label("pod-template-hash", "v2")
                .req("cpu", "1")
                .spreadConstraint(s -> s.maxSkew(1).topologyKey(ZONE).selectorIn("app", "web"))
                .obj(),
            fitError(
                3,
                "1 node(s) didn't match pod topology spread constraints, 2 Insufficient cpu",
                "3 " + NO_VICTIMS)),
        argumentSet(
            "a hard topology spread constraint whose domain key no node has",
            List.of(node("n1", "4", "8Gi"), node("n2", "4", "8Gi")),
            List.of(),
            pod("p").label("app", "web")
                .spreadConstraint(s -> s.maxSkew(1).topologyKey("rack").selectorIn("app", "web"))
                .obj(),
            fitError(
                2,
                "2 node(s) didn't match pod topology spread constraints (missing required label)",
                "2 " + NOT_HELPFUL)));
  }

  @ParameterizedTest
  @MethodSource("unschedulable")
  void thePodStaysPendingWithKubesMessage(
      List<MakeNode> nodes, List<V1Pod> bound, V1Pod pod, String message) {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      nodes.forEach(c::add);
      bound.forEach(c::add);
      c.add(pod).run();

      assertThat(c.nodeOf("p")).isNull();
      assertThat(c.podScheduled("p")).containsExactly("False", "Unschedulable", message);
      assertThat(c.distinctEvents("p")).containsExactly(failed(message));
      assertThat(c.nominatedNode("p")).isNull();
    }
  }
}
