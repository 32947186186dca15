package io.kubesched.plugins.interpodaffinity;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodAntiAffinity;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PreFilter and Filter of InterPodAffinity, ported from kube's TestRequiredAffinitySingleNode and
 * TestRequiredAffinityMultipleNodes.
 */
final class InterPodAffinityFilterTest {
  static final Status OK = Status.success();
  static final Status AFFINITY =
      Status.unresolvable(InterPodAffinity.REASON_AFFINITY_RULES_NOT_MATCH);
  static final Status ANTI =
      Status.unschedulable(InterPodAffinity.REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
  static final Status EXISTING_ANTI =
      Status.unschedulable(InterPodAffinity.REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);

  static final Map<String, String> SECURITYSCAN = Map.of("service", "securityscan");
  static final Map<String, String> S1 = Map.of("security", "S1");

  static V1LabelSelectorRequirement req(String key, String op, String... values) {
    V1LabelSelectorRequirement r = new V1LabelSelectorRequirement().key(key).operator(op);
    if (values.length > 0) {
      r.values(new ArrayList<>(List.of(values)));
    }
    return r;
  }

  static V1PodAffinityTerm term(String topologyKey, V1LabelSelectorRequirement... reqs) {
    V1LabelSelector s = new V1LabelSelector();
    for (V1LabelSelectorRequirement r : reqs) {
      s.addMatchExpressionsItem(r);
    }
    return new V1PodAffinityTerm().labelSelector(s).topologyKey(topologyKey);
  }

  /** kube's createPodWithAffinityTerms. */
  static V1Pod pod(
      String name,
      String node,
      Map<String, String> labels,
      List<V1PodAffinityTerm> affinity,
      List<V1PodAffinityTerm> anti) {
    MakePod p = MakePod.pod().name(name).labels(labels);
    if (node != null) {
      p.node(node);
    }
    if (!affinity.isEmpty() || !anti.isEmpty()) {
      V1Affinity a = new V1Affinity();
      if (!affinity.isEmpty()) {
        a.podAffinity(new V1PodAffinity().requiredDuringSchedulingIgnoredDuringExecution(affinity));
      }
      if (!anti.isEmpty()) {
        a.podAntiAffinity(
            new V1PodAntiAffinity().requiredDuringSchedulingIgnoredDuringExecution(anti));
      }
      p.affinity(a);
    }
    return p.obj();
  }

  static V1Pod existing(String name, String node, Map<String, String> labels) {
    return pod(name, node, labels, List.of(), List.of());
  }

  static V1Node machine1() {
    return MakeNode.node().name("machine1").label("region", "r1").label("zone", "z11").obj();
  }

  static Stream<Arguments> singleNode() {
    V1PodAffinityTerm regionSecurityscan =
        term("region", req("service", "In", "securityscan", "value2"));
    V1PodAffinityTerm nodeAntivirus = term("node", req("service", "In", "antivirusscan", "value2"));
    V1PodAffinityTerm zoneSecurityscan =
        term("zone", req("service", "In", "securityscan", "value2"));
    return Stream.of(
        Arguments.argumentSet(
            "a pod without required pod affinity rules fits a node with no existing pods",
            MakePod.pod().name("p").obj(),
            List.of(),
            OK),
        Arguments.argumentSet(
            "satisfies required affinity using In operator that matches the existing pod",
            pod("p", null, S1, List.of(regionSecurityscan), List.of()),
            List.of(existing("e", "machine1", SECURITYSCAN)),
            OK),
        Arguments.argumentSet(
            "satisfies required affinity using NotIn operator that matches the existing pod",
            pod(
                "p",
                null,
                S1,
                List.of(term("region", req("service", "NotIn", "securityscan3", "value3"))),
                List.of()),
            List.of(existing("e", "machine1", SECURITYSCAN)),
            OK),
        Arguments.argumentSet(
            "does not satisfy affinity because of a different namespace",
            pod(
                "p",
                null,
                S1,
                List.of(
                    term("", req("service", "In", "securityscan", "value2"))
                        .namespaces(List.of("DiffNameSpace"))),
                List.of()),
            List.of(
                MakePod.pod()
                    .name("e")
                    .namespace("ns")
                    .node("machine1")
                    .labels(SECURITYSCAN)
                    .obj()),
            AFFINITY),
        Arguments.argumentSet(
            "doesn't satisfy affinity because the selector doesn't match the existing pod",
            pod(
                "p",
                null,
                SECURITYSCAN,
                List.of(term("", req("service", "In", "antivirusscan", "value2"))),
                List.of()),
            List.of(existing("e", "machine1", SECURITYSCAN)),
            AFFINITY),
        Arguments.argumentSet(
            "satisfies affinity with different operators in several required terms",
            pod(
                "p",
                null,
                S1,
                List.of(
                    term("region", req("service", "Exists"), req("wrongkey", "DoesNotExist")),
                    term(
                        "region",
                        req("service", "In", "securityscan"),
                        req("service", "NotIn", "WrongValue"))),
                List.of()),
            List.of(existing("e", "machine1", SECURITYSCAN)),
            OK),
        Arguments.argumentSet(
            "selector requirements are ANDed: one that doesn't match fails the pod",
            pod(
                "p",
                null,
                S1,
                List.of(
                    term("region", req("service", "Exists"), req("wrongkey", "DoesNotExist")),
                    term(
                        "region",
                        req("service", "In", "securityscan2"),
                        req("service", "NotIn", "WrongValue"))),
                List.of()),
            List.of(existing("e", "machine1", SECURITYSCAN)),
            AFFINITY),
        Arguments.argumentSet(
            "satisfies affinity and anti-affinity with the existing pod",
            pod("p", null, S1, List.of(regionSecurityscan), List.of(nodeAntivirus)),
            List.of(existing("e", "machine1", SECURITYSCAN)),
            OK),
        Arguments.argumentSet(
            "satisfies affinity, anti-affinity and anti-affinity symmetry with the existing pod",
            pod("p", null, S1, List.of(regionSecurityscan), List.of(nodeAntivirus)),
            List.of(pod("e", "machine1", SECURITYSCAN, List.of(), List.of(nodeAntivirus))),
            OK),
        Arguments.argumentSet(
            "satisfies affinity but not anti-affinity with the existing pod",
            pod("p", null, S1, List.of(regionSecurityscan), List.of(zoneSecurityscan)),
            List.of(existing("e", "machine1", SECURITYSCAN)),
            ANTI),
        Arguments.argumentSet(
            "satisfies affinity and anti-affinity but not anti-affinity symmetry",
            pod("p", null, SECURITYSCAN, List.of(regionSecurityscan), List.of(nodeAntivirus)),
            List.of(pod("e", "machine1", SECURITYSCAN, List.of(), List.of(zoneSecurityscan))),
            EXISTING_ANTI),
        Arguments.argumentSet(
            "pod doesn't match its own affinity term and no existing pod matches",
            pod(
                "p",
                null,
                SECURITYSCAN,
                List.of(term("region", req("service", "NotIn", "securityscan", "value2"))),
                List.of()),
            List.of(existing("e", "machine2", SECURITYSCAN)),
            AFFINITY),
        Arguments.argumentSet(
            "existing pod's anti-affinity is respected when the pod has no anti-affinity",
            MakePod.pod().name("p").labels(SECURITYSCAN).obj(),
            List.of(pod("e", "machine1", SECURITYSCAN, List.of(), List.of(zoneSecurityscan))),
            EXISTING_ANTI),
        Arguments.argumentSet(
            "existing pod's anti-affinity that doesn't select the pod is satisfied",
            MakePod.pod().name("p").labels(SECURITYSCAN).obj(),
            List.of(
                pod(
                    "e",
                    "machine1",
                    SECURITYSCAN,
                    List.of(),
                    List.of(term("zone", req("service", "NotIn", "securityscan", "value2"))))),
            OK),
        Arguments.argumentSet(
            "anti-affinity with several terms where only the second matches",
            pod(
                "p",
                null,
                SECURITYSCAN,
                List.of(),
                List.of(
                    term("region", req("service", "Exists")),
                    term("region", req("security", "Exists")))),
            List.of(existing("e", "machine1", S1)),
            ANTI),
        Arguments.argumentSet(
            "self affinity: the first pod of a group matching its own terms fits",
            pod("p", null, SECURITYSCAN, List.of(regionSecurityscan), List.of()),
            List.of(),
            OK),
        Arguments.argumentSet(
            "self affinity is not enough when the node lacks the topology key",
            pod(
                "p",
                null,
                SECURITYSCAN,
                List.of(term("rack", req("service", "Exists"))),
                List.of()),
            List.of(),
            AFFINITY));
  }

  @ParameterizedTest
  @MethodSource("singleNode")
  void singleNode(V1Pod pod, List<V1Pod> pods, Status want) {
    assertThat(run(pod, List.of(machine1()), pods, new InMemoryCluster()))
        .isEqualTo(Map.of("machine1", want));
  }

  static Map<String, Status> run(
      V1Pod pod, List<V1Node> nodes, List<V1Pod> pods, InMemoryCluster cluster) {
    FakeHandle handle = FakeHandle.of(nodes, pods, cluster);
    InterPodAffinity plugin = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod);
    PreFilterResult pre = plugin.preFilter(state, info, handle.nodes());
    Map<String, Status> got = new LinkedHashMap<>();
    // plain, bound and bulk Filter alike
    List<Status> statuses =
        pre.status().isSuccess()
            ? BoundFaces.assertFilterFaces(plugin, state, info, handle.nodes())
            : null;
    for (int i = 0; i < handle.nodes().size(); i++) {
      NodeInfo n = handle.nodes().get(i);
      if (pre.status().isSkip()) {
        got.put(n.name(), OK);
      } else if (!pre.status().isSuccess()) {
        got.put(n.name(), pre.status());
      } else {
        got.put(n.name(), statuses.get(i));
      }
    }
    return got;
  }

  static V1Node node(String name, String... labels) {
    MakeNode n = MakeNode.node().name(name);
    for (int i = 0; i < labels.length; i += 2) {
      n.label(labels[i], labels[i + 1]);
    }
    return n.obj();
  }

  static List<V1Node> abNodes() {
    return List.of(
        node("nodeA", "region", "r1", "zone", "z1", "hostname", "nodeA"),
        node("nodeB", "region", "r1", "zone", "z2", "hostname", "nodeB"));
  }

  static Map<String, Status> want(Object... pairs) {
    Map<String, Status> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], (Status) pairs[i + 1]);
    }
    return m;
  }

  static Stream<Arguments> multipleNodes() {
    Map<String, String> foo = Map.of("foo", "bar");
    List<V1Node> regionNodes =
        List.of(
            node("nodeA", "region", "r1", "hostname", "h1"),
            node("nodeB", "region", "r1", "hostname", "h2"),
            node("nodeC", "region", "r2", "hostname", "h3"));
    return Stream.of(
        Arguments.argumentSet(
            "anti-affinity by region; a pod in another namespace hating the pod doesn't count",
            MakePod.pod()
                .name("p")
                .namespace("NS1")
                .label("foo", "123")
                .affinity(
                    new V1Affinity()
                        .podAntiAffinity(
                            new V1PodAntiAffinity()
                                .addRequiredDuringSchedulingIgnoredDuringExecutionItem(
                                    term("region", req("foo", "In", "bar")))))
                .obj(),
            List.of(
                node("nodeA", "region", "China"),
                node("nodeB", "region", "China", "az", "az1"),
                node("nodeC", "region", "India")),
            List.of(
                MakePod.pod().name("e1").namespace("NS1").node("nodeA").label("foo", "bar").obj(),
                MakePod.pod()
                    .name("e2")
                    .namespace("NS2")
                    .node("nodeC")
                    .affinity(
                        new V1Affinity()
                            .podAntiAffinity(
                                new V1PodAntiAffinity()
                                    .addRequiredDuringSchedulingIgnoredDuringExecutionItem(
                                        term("region", req("foo", "In", "123")))))
                    .obj()),
            want("nodeA", ANTI, "nodeB", ANTI, "nodeC", OK)),
        Arguments.argumentSet(
            "existing pod's anti-affinity with a topology key no node has",
            MakePod.pod().name("p").label("foo", "").obj(),
            abNodes(),
            List.of(
                pod(
                    "e1",
                    "nodeA",
                    Map.of(),
                    List.of(),
                    List.of(term("invalid-node-label", req("foo", "Exists"))))),
            want("nodeA", OK, "nodeB", OK)),
        Arguments.argumentSet(
            "incoming anti-affinity: a matching selector still needs the topology key",
            pod(
                "p",
                null,
                Map.of(),
                List.of(),
                List.of(term("invalid-node-label", req("foo", "Exists")))),
            abNodes(),
            List.of(existing("e1", "nodeA", Map.of("foo", ""))),
            want("nodeA", OK, "nodeB", OK)),
        Arguments.argumentSet(
            "existing pods' anti-affinity: the pod violates a term on every node",
            MakePod.pod().name("p").label("foo", "").label("bar", "").obj(),
            abNodes(),
            List.of(
                pod(
                    "e1",
                    "nodeA",
                    Map.of(),
                    List.of(),
                    List.of(term("zone", req("foo", "Exists")))),
                pod(
                    "e2",
                    "nodeA",
                    Map.of(),
                    List.of(),
                    List.of(term("region", req("bar", "Exists"))))),
            want("nodeA", EXISTING_ANTI, "nodeB", EXISTING_ANTI)),
        Arguments.argumentSet(
            "incoming anti-affinity: the pod violates at least one term on every node",
            pod(
                "p",
                null,
                Map.of(),
                List.of(),
                List.of(term("zone", req("foo", "Exists")), term("region", req("bar", "Exists")))),
            abNodes(),
            List.of(
                existing("e1", "nodeA", Map.of("foo", "")),
                existing("e2", "nodeB", Map.of("bar", ""))),
            want("nodeA", ANTI, "nodeB", ANTI)),
        Arguments.argumentSet(
            "existing pod's anti-affinity: a term counts only with selector and key matching",
            MakePod.pod().name("p").label("foo", "").label("bar", "").obj(),
            abNodes(),
            List.of(
                pod(
                    "e1",
                    "nodeA",
                    Map.of(),
                    List.of(),
                    List.of(
                        term("invalid-node-label", req("foo", "Exists")),
                        term("zone", req("bar", "Exists"))))),
            want("nodeA", EXISTING_ANTI, "nodeB", OK)),
        Arguments.argumentSet(
            "incoming anti-affinity: a term counts only with selector and key matching",
            pod(
                "p",
                null,
                Map.of(),
                List.of(),
                List.of(
                    term("invalid-node-label", req("foo", "Exists")),
                    term("zone", req("bar", "Exists")))),
            abNodes(),
            List.of(existing("podA", "nodeA", Map.of("foo", "", "bar", ""))),
            want("nodeA", ANTI, "nodeB", OK)),
        Arguments.argumentSet(
            "existing pod's anti-affinity: all terms with valid keys",
            MakePod.pod().name("p").label("foo", "").label("bar", "").obj(),
            abNodes(),
            List.of(
                pod(
                    "e1",
                    "nodeA",
                    Map.of(),
                    List.of(),
                    List.of(
                        term("region", req("foo", "Exists")), term("zone", req("bar", "Exists"))))),
            want("nodeA", EXISTING_ANTI, "nodeB", EXISTING_ANTI)),
        Arguments.argumentSet(
            "incoming anti-affinity: all terms with valid keys",
            pod(
                "p",
                null,
                Map.of(),
                List.of(),
                List.of(term("region", req("foo", "Exists")), term("zone", req("bar", "Exists")))),
            abNodes(),
            List.of(existing("e1", "nodeA", Map.of("foo", "", "bar", ""))),
            want("nodeA", ANTI, "nodeB", ANTI)),
        Arguments.argumentSet(
            "a pod can be scheduled onto all nodes of the region of a pod it has affinity to",
            pod("p", null, Map.of(), List.of(term("region", req("foo", "In", "bar"))), List.of()),
            regionNodes,
            List.of(existing("e", "nodeA", foo)),
            want("nodeA", OK, "nodeB", OK, "nodeC", AFFINITY)),
        Arguments.argumentSet(
            "anti-affinity by region keeps the pod out of the whole region",
            pod("p", null, Map.of(), List.of(), List.of(term("region", req("foo", "In", "bar")))),
            regionNodes,
            List.of(existing("e", "nodeA", foo)),
            want("nodeA", ANTI, "nodeB", ANTI, "nodeC", OK)),
        Arguments.argumentSet(
            "an existing pod's anti-affinity by region keeps a matching pod out of its region",
            MakePod.pod().name("p").labels(foo).obj(),
            regionNodes,
            List.of(
                pod(
                    "e",
                    "nodeC",
                    Map.of(),
                    List.of(),
                    List.of(term("region", req("foo", "In", "bar"))))),
            want("nodeA", OK, "nodeB", OK, "nodeC", EXISTING_ANTI)),
        Arguments.argumentSet(
            "nodes without the anti-affinity topology key are fine",
            pod("p", null, Map.of(), List.of(), List.of(term("zone", req("foo", "In", "bar")))),
            List.of(node("nodeA", "zone", "z1"), node("nodeB", "region", "r1")),
            List.of(existing("e", "nodeA", foo)),
            want("nodeA", ANTI, "nodeB", OK)),
        Arguments.argumentSet(
            "self affinity does not apply once a matching pod exists elsewhere",
            pod("p", null, foo, List.of(term("region", req("foo", "In", "bar"))), List.of()),
            regionNodes,
            List.of(existing("e", "nodeC", foo)),
            want("nodeA", AFFINITY, "nodeB", AFFINITY, "nodeC", OK)),
        Arguments.argumentSet(
            "a pod matching all affinity terms counts for each term",
            pod(
                "p",
                null,
                Map.of(),
                List.of(
                    term("region", req("foo", "In", "bar")),
                    term("hostname", req("foo", "Exists"))),
                List.of()),
            regionNodes,
            List.of(existing("e", "nodeB", foo)),
            want("nodeA", AFFINITY, "nodeB", OK, "nodeC", AFFINITY)));
  }

  @ParameterizedTest
  @MethodSource("multipleNodes")
  void multipleNodes(V1Pod pod, List<V1Node> nodes, List<V1Pod> pods, Map<String, Status> want) {
    assertThat(run(pod, nodes, pods, new InMemoryCluster())).isEqualTo(want);
  }

  static Stream<Arguments> namespaceSelectors() {
    Map<String, String> foo = Map.of("foo", "bar");
    V1PodAffinityTerm teamSelector =
        term("region", req("foo", "In", "bar"))
            .namespaceSelector(new V1LabelSelector().putMatchLabelsItem("team", "a"));
    V1PodAffinityTerm allNamespaces =
        term("region", req("foo", "In", "bar")).namespaceSelector(new V1LabelSelector());
    List<V1Node> nodes = List.of(node("nodeA", "region", "r1"), node("nodeB", "region", "r2"));
    return Stream.of(
        Arguments.argumentSet(
            "affinity namespaceSelector resolves to the namespaces with the label",
            pod("p", null, Map.of(), List.of(teamSelector), List.of()),
            nodes,
            List.of(
                MakePod.pod().name("e1").namespace("ns-b").node("nodeA").labels(foo).obj(),
                MakePod.pod().name("e2").namespace("ns-a").node("nodeB").labels(foo).obj()),
            want("nodeA", AFFINITY, "nodeB", OK)),
        Arguments.argumentSet(
            "an empty namespaceSelector selects every namespace",
            pod("p", null, Map.of(), List.of(allNamespaces), List.of()),
            nodes,
            List.of(MakePod.pod().name("e1").namespace("ns-b").node("nodeA").labels(foo).obj()),
            want("nodeA", OK, "nodeB", AFFINITY)),
        Arguments.argumentSet(
            "an existing pod's anti-affinity namespaceSelector uses the incoming namespace labels",
            MakePod.pod().name("p").namespace("ns-a").labels(foo).obj(),
            nodes,
            List.of(pod("e1", "nodeA", Map.of(), List.of(), List.of(teamSelector))),
            want("nodeA", EXISTING_ANTI, "nodeB", OK)),
        Arguments.argumentSet(
            "an existing pod's anti-affinity namespaceSelector that doesn't select the namespace",
            MakePod.pod().name("p").namespace("ns-b").labels(foo).obj(),
            nodes,
            List.of(pod("e1", "nodeA", Map.of(), List.of(), List.of(teamSelector))),
            want("nodeA", OK, "nodeB", OK)));
  }

  @ParameterizedTest
  @MethodSource("namespaceSelectors")
  void namespaceSelectors(
      V1Pod pod, List<V1Node> nodes, List<V1Pod> pods, Map<String, Status> want) {
    InMemoryCluster cluster = new InMemoryCluster();
    cluster.create(
        new V1Namespace().metadata(new V1ObjectMeta().name("ns-a").putLabelsItem("team", "a")));
    cluster.create(
        new V1Namespace().metadata(new V1ObjectMeta().name("ns-b").putLabelsItem("team", "b")));
    assertThat(run(pod, nodes, pods, cluster)).isEqualTo(want);
  }
}
