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
import io.kubernetes.client.openapi.models.V1WeightedPodAffinityTerm;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** PreScore/Score/NormalizeScore of InterPodAffinity, ported from kube's TestPreferredAffinity. */
final class InterPodAffinityScoreTest {
  static final Map<String, String> RG_CHINA = Map.of("region", "China");
  static final Map<String, String> RG_INDIA = Map.of("region", "India");
  static final Map<String, String> AZ1 = Map.of("az", "az1");
  static final Map<String, String> AZ2 = Map.of("az", "az2");
  static final Map<String, String> RG_CHINA_AZ1 = Map.of("region", "China", "az", "az1");
  static final Map<String, String> S1 = Map.of("security", "S1");
  static final Map<String, String> S2 = Map.of("security", "S2");

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

  static V1WeightedPodAffinityTerm weighted(int weight, V1PodAffinityTerm t) {
    return new V1WeightedPodAffinityTerm().weight(weight).podAffinityTerm(t);
  }

  static V1Affinity preferred(V1WeightedPodAffinityTerm... terms) {
    return new V1Affinity()
        .podAffinity(
            new V1PodAffinity()
                .preferredDuringSchedulingIgnoredDuringExecution(new ArrayList<>(List.of(terms))));
  }

  static V1Affinity preferredAnti(V1WeightedPodAffinityTerm... terms) {
    return new V1Affinity()
        .podAntiAffinity(
            new V1PodAntiAffinity()
                .preferredDuringSchedulingIgnoredDuringExecution(new ArrayList<>(List.of(terms))));
  }

  static final V1Affinity STAY_WITH_S1_IN_REGION =
      preferred(weighted(5, term("region", req("security", "In", "S1"))));
  static final V1Affinity STAY_WITH_S2_IN_REGION =
      preferred(weighted(6, term("region", req("security", "In", "S2"))));
  static final V1Affinity AFFINITY3 =
      preferred(
          weighted(8, term("region", req("security", "NotIn", "S1"), req("security", "In", "S2"))),
          weighted(2, term("region", req("security", "Exists"), req("wrongkey", "DoesNotExist"))));
  static final V1Affinity HARD_AFFINITY =
      new V1Affinity()
          .podAffinity(
              new V1PodAffinity()
                  .requiredDuringSchedulingIgnoredDuringExecution(
                      List.of(
                          term("region", req("security", "In", "S1", "value2")),
                          term(
                              "region",
                              req("security", "Exists"),
                              req("wrongkey", "DoesNotExist")))));
  static final V1Affinity AWAY_FROM_S1_IN_AZ =
      preferredAnti(weighted(5, term("az", req("security", "In", "S1"))));
  static final V1Affinity AWAY_FROM_S2_IN_AZ =
      preferredAnti(weighted(5, term("az", req("security", "In", "S2"))));
  static final V1Affinity STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ =
      new V1Affinity()
          .podAffinity(
              new V1PodAffinity()
                  .preferredDuringSchedulingIgnoredDuringExecution(
                      List.of(weighted(8, term("region", req("security", "In", "S1"))))))
          .podAntiAffinity(
              new V1PodAntiAffinity()
                  .preferredDuringSchedulingIgnoredDuringExecution(
                      List.of(weighted(5, term("az", req("security", "In", "S2"))))));
  static final V1LabelSelector TEAM1 =
      new V1LabelSelector().addMatchExpressionsItem(req("team", "In", "team1"));
  static final V1Affinity AFFINITY_NAMESPACE_SELECTOR =
      preferred(
          weighted(
              5,
              term("region", req("security", "In", "S1"))
                  .namespaces(List.of("subteam2.team2"))
                  .namespaceSelector(TEAM1)));
  static final V1Affinity ANTI_AFFINITY_NAMESPACE_SELECTOR =
      preferredAnti(
          weighted(
              5,
              term("region", req("security", "In", "S1"))
                  .namespaces(List.of("subteam2.team2"))
                  .namespaceSelector(TEAM1)));

  static V1Node node(String name, Map<String, String> labels) {
    return MakeNode.node().name(name).labels(labels).obj();
  }

  static V1Pod pod(String name, String node, Map<String, String> labels, V1Affinity affinity) {
    MakePod p = MakePod.pod().name(name).labels(labels);
    if (node != null) {
      p.node(node);
    }
    if (affinity != null) {
      p.affinity(affinity);
    }
    return p.obj();
  }

  static V1Pod incoming(Map<String, String> labels, V1Affinity affinity) {
    return pod("p", null, labels, affinity);
  }

  static List<NodeScore> want(Object... pairs) {
    List<NodeScore> out = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.add(new NodeScore((String) pairs[i], ((Integer) pairs[i + 1]).longValue()));
    }
    return out;
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "pod that matches topology key & pods in nodes gets a high score",
            incoming(S1, STAY_WITH_S1_IN_REGION),
            List.of(
                pod("e1", "node1", S1, null),
                pod("e2", "node2", S2, null),
                pod("e3", "node3", S1, null)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            false,
            want("node1", 100, "node2", 0, "node3", 0)),
        Arguments.argumentSet(
            "all nodes with the same topology value as a matching pod get the same score",
            incoming(Map.of(), STAY_WITH_S1_IN_REGION),
            List.of(pod("e1", "node1", S1, null)),
            List.of(node("node1", RG_CHINA), node("node2", RG_CHINA_AZ1), node("node3", RG_INDIA)),
            false,
            want("node1", 100, "node2", 100, "node3", 0)),
        Arguments.argumentSet(
            "the region with more matching pods gets the high score",
            incoming(S1, STAY_WITH_S2_IN_REGION),
            List.of(
                pod("e1", "node1", S2, null),
                pod("e2", "node1", S2, null),
                pod("e3", "node2", S2, null),
                pod("e4", "node3", S2, null),
                pod("e5", "node4", S2, null),
                pod("e6", "node5", S2, null)),
            List.of(
                node("node1", RG_CHINA),
                node("node2", RG_INDIA),
                node("node3", RG_CHINA),
                node("node4", RG_CHINA),
                node("node5", RG_INDIA)),
            false,
            want("node1", 100, "node2", 0, "node3", 100, "node4", 100, "node5", 0)),
        Arguments.argumentSet(
            "different operators and values, including some match failures",
            incoming(S1, AFFINITY3),
            List.of(
                pod("e1", "node1", S1, null),
                pod("e2", "node2", S2, null),
                pod("e3", "node3", S1, null)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            false,
            want("node1", 20, "node2", 100, "node3", 0)),
        Arguments.argumentSet(
            "affinity symmetry: existing pods' preferred affinity",
            incoming(S2, null),
            List.of(
                pod("e1", "node1", S1, STAY_WITH_S1_IN_REGION),
                pod("e2", "node2", S2, STAY_WITH_S2_IN_REGION)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            false,
            want("node1", 0, "node2", 100, "node3", 0)),
        Arguments.argumentSet(
            "affinity symmetry with namespace selector",
            MakePod.pod().name("p").namespace("subteam1.team1").labels(S1).obj(),
            List.of(
                pod("e1", "node1", S1, AFFINITY_NAMESPACE_SELECTOR),
                pod("e2", "node2", S2, STAY_WITH_S2_IN_REGION)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            false,
            want("node1", 100, "node2", 0, "node3", 0)),
        Arguments.argumentSet(
            "anti-affinity symmetry with namespace selector",
            MakePod.pod().name("p").namespace("subteam1.team1").labels(S1).obj(),
            List.of(
                pod("e1", "node1", S1, ANTI_AFFINITY_NAMESPACE_SELECTOR),
                pod("e2", "node2", S2, STAY_WITH_S2_IN_REGION)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            false,
            want("node1", 0, "node2", 100, "node3", 100)),
        Arguments.argumentSet(
            "affinity symmetry: existing pods' required affinity weighted by hardPodAffinityWeight",
            incoming(S1, null),
            List.of(pod("e1", "node1", S1, HARD_AFFINITY), pod("e2", "node2", S2, HARD_AFFINITY)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            false,
            want("node1", 100, "node2", 100, "node3", 0)),
        Arguments.argumentSet(
            "anti-affinity: a node whose pods don't match gets the high score",
            incoming(S1, AWAY_FROM_S1_IN_AZ),
            List.of(pod("e1", "node1", S1, null), pod("e2", "node2", S2, null)),
            List.of(node("node1", AZ1), node("node2", RG_CHINA)),
            false,
            want("node1", 0, "node2", 100)),
        Arguments.argumentSet(
            "anti-affinity: a node without the topology key gets the higher score",
            incoming(S1, AWAY_FROM_S1_IN_AZ),
            List.of(pod("e1", "node1", S1, null), pod("e2", "node2", S1, null)),
            List.of(node("node1", AZ1), node("node2", RG_CHINA)),
            false,
            want("node1", 0, "node2", 100)),
        Arguments.argumentSet(
            "anti-affinity: the node with more matching pods gets the low score",
            incoming(S1, AWAY_FROM_S1_IN_AZ),
            List.of(
                pod("e1", "node1", S1, null),
                pod("e2", "node1", S1, null),
                pod("e3", "node2", S2, null)),
            List.of(node("node1", AZ1), node("node2", RG_INDIA)),
            false,
            want("node1", 0, "node2", 100)),
        Arguments.argumentSet(
            "anti-affinity symmetry: existing pods' preferred anti-affinity",
            incoming(S2, null),
            List.of(
                pod("e1", "node1", S1, AWAY_FROM_S2_IN_AZ),
                pod("e2", "node2", S2, AWAY_FROM_S1_IN_AZ)),
            List.of(node("node1", AZ1), node("node2", AZ2)),
            false,
            want("node1", 0, "node2", 100)),
        Arguments.argumentSet(
            "affinity and anti-affinity: preferred terms of both kinds",
            incoming(S1, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
            List.of(pod("e1", "node1", S1, null), pod("e2", "node2", S1, null)),
            List.of(node("node1", RG_CHINA), node("node2", AZ1)),
            false,
            want("node1", 100, "node2", 0)),
        Arguments.argumentSet(
            "affinity and anti-affinity: pods of the same group kept in a region",
            incoming(S1, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
            List.of(
                pod("e1", "node1", S1, null),
                pod("e2", "node1", S1, null),
                pod("e3", "node2", S1, null),
                pod("e4", "node3", S1, null),
                pod("e5", "node3", S1, null),
                pod("e6", "node4", S1, null),
                pod("e7", "node5", S1, null)),
            List.of(
                node("node1", RG_CHINA_AZ1),
                node("node2", RG_INDIA),
                node("node3", RG_CHINA),
                node("node4", RG_CHINA),
                node("node5", RG_INDIA)),
            false,
            want("node1", 100, "node2", 0, "node3", 100, "node4", 100, "node5", 0)),
        Arguments.argumentSet(
            "affinity, anti-affinity and symmetry together",
            incoming(S1, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
            List.of(
                pod("e1", "node1", S1, null),
                pod("e2", "node2", S2, null),
                pod("e3", "node3", Map.of(), STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
                pod("e4", "node4", Map.of(), AWAY_FROM_S1_IN_AZ)),
            List.of(
                node("node1", RG_CHINA),
                node("node2", AZ1),
                node("node3", RG_INDIA),
                node("node4", AZ2)),
            false,
            want("node1", 100, "node2", 0, "node3", 100, "node4", 0)),
        Arguments.argumentSet(
            "no panic when only some nodes of a topology have pods with affinity",
            incoming(S1, null),
            List.of(
                pod("e1", "node1", S1, null),
                pod("e2", "node2", Map.of(), STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ)),
            List.of(node("node1", RG_CHINA), node("node2", RG_CHINA)),
            false,
            want("node1", 0, "node2", 0)),
        Arguments.argumentSet(
            "affinity with pods matching both the namespaceSelector and the namespaces",
            MakePod.pod()
                .name("p")
                .namespace("subteam1.team1")
                .labels(S1)
                .affinity(AFFINITY_NAMESPACE_SELECTOR)
                .obj(),
            List.of(
                nsPod("e1", "subteam1.team1", "node1"),
                nsPod("e2", "subteam1.team1", "node1"),
                nsPod("e3", "subteam2.team2", "node1"),
                nsPod("e4", "subteam2.team1", "node2")),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA)),
            false,
            want("node1", 100, "node2", 0)),
        Arguments.argumentSet(
            "anti-affinity with pods matching the namespaceSelector",
            MakePod.pod()
                .name("p")
                .namespace("subteam1.team1")
                .labels(S1)
                .affinity(ANTI_AFFINITY_NAMESPACE_SELECTOR)
                .obj(),
            List.of(
                nsPod("e1", "subteam1.team1", "node1"),
                nsPod("e2", "subteam1.team1", "node1"),
                nsPod("e3", "subteam1.team2", "node1"),
                nsPod("e4", "subteam2.team1", "node2")),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA)),
            false,
            want("node1", 0, "node2", 100)),
        Arguments.argumentSet(
            "anti-affinity with pods matching both the namespaceSelector and the namespaces",
            MakePod.pod()
                .name("p")
                .namespace("subteam1.team1")
                .labels(S1)
                .affinity(ANTI_AFFINITY_NAMESPACE_SELECTOR)
                .obj(),
            List.of(
                nsPod("e1", "subteam1.team1", "node1"),
                nsPod("e2", "subteam1.team1", "node1"),
                nsPod("e3", "subteam2.team2", "node1"),
                nsPod("e4", "subteam2.team1", "node2")),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA)),
            false,
            want("node1", 0, "node2", 100)),
        Arguments.argumentSet(
            "do not ignore preferred terms of existing pods",
            incoming(S2, null),
            List.of(
                pod("e1", "node1", S1, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
                pod("e2", "node2", S2, STAY_WITH_S2_IN_REGION)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA)),
            false,
            want("node1", 0, "node2", 100)),
        Arguments.argumentSet(
            "hard pod affinity symmetric weight: default weight",
            MakePod.pod().name("p").labels(SERVICE_S1).obj(),
            List.of(
                pod("e1", "node1", Map.of(), HARD_POD_AFFINITY),
                pod("e2", "node2", Map.of(), HARD_POD_AFFINITY)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            false,
            want("node1", 100, "node2", 100, "node3", 0)),
        Arguments.argumentSet(
            "hard pod affinity symmetric weight: matching namespaceSelector",
            MakePod.pod().name("p").namespace("subteam1.team1").labels(SERVICE_S1).obj(),
            List.of(
                pod("e1", "node1", Map.of(), HARD_POD_AFFINITY),
                pod("e2", "node2", Map.of(), HARD_POD_AFFINITY)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            false,
            want("node1", 100, "node2", 100, "node3", 0)),
        Arguments.argumentSet(
            "hard pod affinity symmetric weight: matching namespaces",
            MakePod.pod().name("p").namespace("subteam2.team2").labels(SERVICE_S1).obj(),
            List.of(
                pod("e1", "node1", Map.of(), HARD_POD_AFFINITY),
                pod("e2", "node2", Map.of(), HARD_POD_AFFINITY)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            false,
            want("node1", 100, "node2", 100, "node3", 0)));
  }

  static final Map<String, String> SERVICE_S1 = Map.of("service", "S1");
  static final V1Affinity HARD_POD_AFFINITY =
      new V1Affinity()
          .podAffinity(
              new V1PodAffinity()
                  .requiredDuringSchedulingIgnoredDuringExecution(
                      List.of(
                          term("region", req("service", "In", "S1"))
                              .namespaces(List.of("default", "subteam2.team2"))
                              .namespaceSelector(TEAM1))));

  static V1Pod nsPod(String name, String namespace, String node) {
    return MakePod.pod().name(name).namespace(namespace).node(node).labels(S1).obj();
  }

  static List<NodeScore> run(
      V1Pod pod, List<V1Pod> pods, List<V1Node> nodes, InterPodAffinityArgs args, Status[] pre) {
    InMemoryCluster cluster = new InMemoryCluster();
    for (String ns : List.of("subteam1.team1", "subteam2.team1")) {
      cluster.create(
          new V1Namespace().metadata(new V1ObjectMeta().name(ns).putLabelsItem("team", "team1")));
    }
    for (String ns : List.of("subteam1.team2", "subteam2.team2")) {
      cluster.create(
          new V1Namespace().metadata(new V1ObjectMeta().name(ns).putLabelsItem("team", "team2")));
    }
    FakeHandle handle = FakeHandle.of(nodes, pods, cluster);
    InterPodAffinity plugin = new InterPodAffinity(args, handle);
    PodInfo info = PodInfo.of(pod);
    CycleState state = new CycleState();
    pre[0] = plugin.preScore(state, info, handle.nodes());
    if (!pre[0].isSuccess()) {
      return List.of();
    }
    NodeScores scores = new NodeScores(handle.nodes());
    // plain, bound and bulk Score alike
    long[] raw = BoundFaces.assertScoreFaces(plugin, state, info, handle.nodes());
    for (int i = 0; i < scores.size(); i++) {
      scores.set(i, raw[i]);
    }
    assertThat(plugin.normalizeScore(state, info, scores)).isEqualTo(Status.success());
    return scores.toList();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void score(
      V1Pod pod, List<V1Pod> pods, List<V1Node> nodes, boolean ignore, List<NodeScore> want) {
    Status[] pre = new Status[1];
    List<NodeScore> got = run(pod, pods, nodes, new InterPodAffinityArgs(1, ignore), pre);
    assertThat(pre[0]).isEqualTo(Status.success());
    assertThat(got).isEqualTo(want);
  }

  @Test
  void preScoreSkipsWhenNothingApplies() {
    Status[] pre = new Status[1];
    run(
        incoming(S1, null),
        List.of(),
        List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
        InterPodAffinityArgs.defaults(),
        pre);
    assertThat(pre[0]).isEqualTo(Status.skip());
  }

  @Test
  void ignorePreferredTermsOfExistingPodsSkipsAPodWithoutPreferredTerms() {
    Status[] pre = new Status[1];
    run(
        incoming(S2, null),
        List.of(
            pod("e1", "node1", S1, STAY_WITH_S1_IN_REGION),
            pod("e2", "node2", S2, STAY_WITH_S2_IN_REGION)),
        List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
        new InterPodAffinityArgs(1, true),
        pre);
    assertThat(pre[0]).isEqualTo(Status.skip());
  }

  @Test
  void ignorePreferredTermsOfExistingPodsStillScoresThePodsOwnTerms() {
    Status[] pre = new Status[1];
    List<NodeScore> got =
        run(
            incoming(S1, STAY_WITH_S1_IN_REGION),
            List.of(pod("e1", "node1", S1, null), pod("e2", "node2", S2, STAY_WITH_S2_IN_REGION)),
            List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
            new InterPodAffinityArgs(1, true),
            pre);
    assertThat(got).isEqualTo(want("node1", 100, "node2", 0, "node3", 0));
  }

  @Test
  void hardPodAffinitySymmetricWeightSkipsWithoutAMatchingNamespace() {
    Status[] pre = new Status[1];
    run(
        MakePod.pod().name("p").namespace("subteam1.team2").labels(SERVICE_S1).obj(),
        List.of(
            pod("e1", "node1", Map.of(), HARD_POD_AFFINITY),
            pod("e2", "node2", Map.of(), HARD_POD_AFFINITY)),
        List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
        InterPodAffinityArgs.defaults(),
        pre);
    assertThat(pre[0]).isEqualTo(Status.skip());
  }

  @Test
  void noNodesToScoreSkips() {
    Status[] pre = new Status[1];
    run(incoming(S2, null), List.of(), List.of(), InterPodAffinityArgs.defaults(), pre);
    assertThat(pre[0]).isEqualTo(Status.skip());
  }

  @Test
  void hardPodAffinityWeightZeroIgnoresExistingPodsRequiredAffinity() {
    Status[] pre = new Status[1];
    run(
        incoming(S1, null),
        List.of(pod("e1", "node1", S1, HARD_AFFINITY), pod("e2", "node2", S2, HARD_AFFINITY)),
        List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ1)),
        new InterPodAffinityArgs(0, false),
        pre);
    assertThat(pre[0]).isEqualTo(Status.skip());
  }

  @Test
  void rawScoresMayBeNegative() {
    InMemoryCluster cluster = new InMemoryCluster();
    FakeHandle handle =
        FakeHandle.of(
            List.of(node("node1", AZ1), node("node2", AZ2)),
            List.of(pod("e1", "node1", S1, null)),
            cluster);
    InterPodAffinity plugin = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
    PodInfo info = PodInfo.of(incoming(S1, AWAY_FROM_S1_IN_AZ));
    CycleState state = new CycleState();

    assertThat(plugin.preScore(state, info, handle.nodes())).isEqualTo(Status.success());
    assertThat(plugin.score(state, info, handle.node("node1"))).isEqualTo(-5);
    assertThat(plugin.score(state, info, handle.node("node2"))).isZero();
  }
}
