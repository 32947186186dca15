package io.kubesched.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
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
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** PreScore/Score/NormalizeScore of PodTopologySpread, ported from TestPodTopologySpreadScore. */
final class PodTopologySpreadScoreTest {
  static final String HOST = PodTopologySpread.LABEL_HOSTNAME;

  static V1Node node(String name, String... labels) {
    MakeNode n = MakeNode.node().name(name);
    for (int i = 0; i < labels.length; i += 2) {
      n.label(labels[i], labels[i + 1]);
    }
    return n.obj();
  }

  static V1Node host(String name) {
    return node(name, HOST, name);
  }

  static V1Pod pod(String name, String node, String... labels) {
    MakePod p = MakePod.pod().name(name).node(node);
    for (String l : labels) {
      p.label(l, "");
    }
    return p.obj();
  }

  /** {@code count} pods labelled foo on {@code node}, named {@code p-<suffix><i>}. */
  static List<V1Pod> foos(String node, String prefix, int count) {
    List<V1Pod> out = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      out.add(pod(prefix + i, node, "foo"));
    }
    return out;
  }

  @SafeVarargs
  static List<V1Pod> all(List<V1Pod>... lists) {
    List<V1Pod> out = new ArrayList<>();
    for (List<V1Pod> l : lists) {
      out.addAll(l);
    }
    return out;
  }

  static Consumer<MakePod.Spread> soft(int maxSkew, String key, String selectorExists) {
    return s ->
        s.maxSkew(maxSkew)
            .topologyKey(key)
            .whenUnsatisfiable("ScheduleAnyway")
            .selectorExists(selectorExists);
  }

  static V1Pod incoming(Consumer<MakePod.Spread>... constraints) {
    MakePod p = MakePod.pod().name("p").label("foo", "");
    for (Consumer<MakePod.Spread> c : constraints) {
      p.spreadConstraint(c);
    }
    return p.obj();
  }

  static List<NodeScore> want(Object... pairs) {
    List<NodeScore> out = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.add(new NodeScore((String) pairs[i], ((Integer) pairs[i + 1]).longValue()));
    }
    return out;
  }

  static Stream<Arguments> cases() {
    List<V1Pod> fourThreeTwoOne =
        all(
            foos("node-a", "p-a", 4),
            foos("node-b", "p-b", 3),
            foos("node-c", "p-c", 2),
            foos("node-d", "p-d", 1));
    List<V1Pod> twoOneZeroThree =
        all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-d", "p-d", 3));
    List<V1Node> abcd = List.of(host("node-a"), host("node-b"), host("node-c"), host("node-d"));
    List<V1Pod> fourTwoOneThree =
        all(
            foos("node-a", "p-a", 4),
            foos("node-b", "p-b", 2),
            foos("node-x", "p-x", 1),
            foos("node-y", "p-y", 3));
    List<V1Node> zonesWithHost =
        List.of(
            node("node-a", "zone", "zone1", HOST, "node-a"),
            node("node-b", "zone", "zone1", HOST, "node-b"),
            node("node-x", "zone", "zone2", HOST, "node-x"),
            node("node-y", "zone", "zone2", HOST, "node-y"));
    return Stream.of(
        Arguments.argumentSet(
            "one constraint on node, no existing pods",
            incoming(soft(1, HOST, "foo")),
            List.of(),
            List.of(host("node-a"), host("node-b")),
            List.of(),
            Map.of(),
            want("node-a", 100, "node-b", 100)),
        Arguments.argumentSet(
            "one constraint on node, only one node is candidate",
            incoming(soft(1, HOST, "foo")),
            all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1)),
            List.of(host("node-a")),
            List.of(host("node-b")),
            Map.of(),
            want("node-a", 100)),
        Arguments.argumentSet(
            "one constraint on node, all nodes have the same number of matching pods",
            incoming(soft(1, HOST, "foo")),
            all(foos("node-a", "p-a", 1), foos("node-b", "p-b", 1)),
            List.of(host("node-a"), host("node-b")),
            List.of(),
            Map.of(),
            want("node-a", 100, "node-b", 100)),
        Arguments.argumentSet(
            "one constraint on node, all 4 nodes are candidates (2/1/0/3)",
            incoming(soft(1, HOST, "foo")),
            twoOneZeroThree,
            abcd,
            List.of(),
            Map.of(),
            want("node-a", 20, "node-b", 60, "node-c", 100, "node-d", 0)),
        Arguments.argumentSet(
            "one constraint on node, null selector",
            incoming(s -> s.maxSkew(1).topologyKey(HOST).whenUnsatisfiable("ScheduleAnyway")),
            twoOneZeroThree,
            abcd,
            List.of(),
            Map.of(),
            want("node-a", 100, "node-b", 100, "node-c", 100, "node-d", 100)),
        Arguments.argumentSet(
            "one constraint on node, all 4 nodes are candidates, maxSkew=2",
            incoming(soft(2, HOST, "foo")),
            twoOneZeroThree,
            abcd,
            List.of(),
            Map.of(),
            want("node-a", 33, "node-b", 66, "node-c", 100, "node-d", 16)),
        Arguments.argumentSet(
            "one constraint on node, all 4 nodes are candidates, maxSkew=3",
            incoming(soft(3, HOST, "foo")),
            fourThreeTwoOne,
            abcd,
            List.of(),
            Map.of(),
            want("node-a", 44, "node-b", 66, "node-c", 77, "node-d", 100)),
        Arguments.argumentSet(
            "system defaulting, nodes don't have zone, pods match service",
            MakePod.pod().name("p").label("foo", "").obj(),
            fourThreeTwoOne,
            abcd,
            List.of(),
            Map.of("service", Map.of("foo", "")),
            want("node-a", 44, "node-b", 66, "node-c", 77, "node-d", 100)),
        Arguments.argumentSet(
            "one constraint on node, 3 out of 4 nodes are candidates (4/2/1/~3~)",
            incoming(soft(1, HOST, "foo")),
            fourTwoOneThree,
            List.of(host("node-a"), host("node-b"), host("node-x")),
            List.of(host("node-y")),
            Map.of(),
            want("node-a", 33, "node-b", 83, "node-x", 100)),
        Arguments.argumentSet(
            "one constraint on node, 3 of 4 candidates, one node doesn't match topology key",
            incoming(soft(1, HOST, "foo")),
            fourTwoOneThree,
            List.of(host("node-a"), node("node-b", "n", "node-b"), host("node-x")),
            List.of(host("node-y")),
            Map.of(),
            want("node-a", 16, "node-b", 0, "node-x", 100)),
        Arguments.argumentSet(
            "one constraint on zone, 3 out of 4 nodes are candidates",
            incoming(soft(1, "zone", "foo")),
            fourTwoOneThree,
            zonesWithHost.subList(0, 3),
            zonesWithHost.subList(3, 4),
            Map.of(),
            want("node-a", 75, "node-b", 75, "node-x", 100)),
        Arguments.argumentSet(
            "two constraints on zone and node, 2 out of 4 nodes are candidates",
            incoming(soft(1, "zone", "foo"), soft(1, HOST, "foo")),
            all(
                foos("node-a", "p-a", 2),
                foos("node-b", "p-b", 1),
                foos("node-x", "p-x", 2),
                foos("node-y", "p-y", 4)),
            List.of(zonesWithHost.get(0), zonesWithHost.get(2)),
            List.of(zonesWithHost.get(1), zonesWithHost.get(3)),
            Map.of(),
            want("node-a", 100, "node-x", 63)),
        Arguments.argumentSet(
            "two constraints on zone, 2 out of 4 nodes are candidates",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .label("bar", "")
                .spreadConstraint(soft(1, "zone", "foo"))
                .spreadConstraint(soft(1, "zone", "bar"))
                .obj(),
            List.of(
                pod("p-a1", "node-a", "foo", "bar"),
                pod("p-a2", "node-a", "foo"),
                pod("p-b1", "node-b", "foo", "bar"),
                pod("p-y1", "node-y", "foo"),
                pod("p-y2", "node-y", "foo", "bar"),
                pod("p-y3", "node-y", "foo")),
            List.of(node("node-a", "zone", "zone1"), node("node-x", "zone", "zone2")),
            List.of(node("node-b", "zone", "zone1"), node("node-y", "zone", "zone2")),
            Map.of(),
            want("node-a", 85, "node-x", 100)),
        Arguments.argumentSet(
            "two constraints on zone and node, with different selectors",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .label("bar", "")
                .spreadConstraint(soft(1, "zone", "foo"))
                .spreadConstraint(soft(1, HOST, "bar"))
                .obj(),
            List.of(
                pod("p-a1", "node-a", "foo"),
                pod("p-b1", "node-b", "foo", "bar"),
                pod("p-y1", "node-y", "foo"),
                pod("p-y2", "node-y", "bar")),
            zonesWithHost,
            List.of(),
            Map.of(),
            want("node-a", 60, "node-b", 20, "node-x", 100, "node-y", 60)),
        Arguments.argumentSet(
            "two constraints on zone and node, with different selectors, some nodes have 0 pods",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .label("bar", "")
                .spreadConstraint(soft(1, "zone", "foo"))
                .spreadConstraint(soft(1, HOST, "bar"))
                .obj(),
            List.of(
                pod("p-b1", "node-b", "bar"),
                pod("p-x1", "node-x", "foo"),
                pod("p-y1", "node-y", "foo", "bar")),
            zonesWithHost,
            List.of(),
            Map.of(),
            want("node-a", 100, "node-b", 60, "node-x", 40, "node-y", 0)),
        Arguments.argumentSet(
            "two constraints on zone and node, different selectors, 3 of 4 nodes are candidates",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .label("bar", "")
                .spreadConstraint(soft(1, "zone", "foo"))
                .spreadConstraint(soft(1, HOST, "bar"))
                .obj(),
            List.of(
                pod("p-a1", "node-a", "foo"),
                pod("p-b1", "node-b", "foo", "bar"),
                pod("p-y1", "node-y", "foo"),
                pod("p-y2", "node-y", "bar")),
            zonesWithHost.subList(0, 3),
            zonesWithHost.subList(3, 4),
            Map.of(),
            want("node-a", 50, "node-b", 25, "node-x", 100)),
        Arguments.argumentSet(
            "existing pods in a different namespace do not count",
            incoming(soft(1, HOST, "foo")),
            List.of(
                MakePod.pod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
                pod("p-a2", "node-a", "foo"),
                pod("p-b1", "node-b", "foo"),
                pod("p-b2", "node-b", "foo")),
            List.of(host("node-a"), host("node-b")),
            List.of(),
            Map.of(),
            want("node-a", 100, "node-b", 33)),
        Arguments.argumentSet(
            "terminating pods are excluded",
            incoming(soft(1, HOST, "foo")),
            List.of(
                MakePod.pod().name("p-a").node("node-a").label("foo", "").terminating().obj(),
                pod("p-b", "node-b", "foo")),
            List.of(host("node-a"), host("node-b")),
            List.of(),
            Map.of(),
            want("node-a", 100, "node-b", 0)),
        Arguments.argumentSet(
            "minDomains has no effect when ScheduleAnyway",
            incoming(
                s ->
                    s.maxSkew(2)
                        .topologyKey("node")
                        .whenUnsatisfiable("ScheduleAnyway")
                        .selectorExists("foo")
                        .minDomains(10)),
            all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 2), foos("node-c", "p-c", 1)),
            List.of(
                node("node-a", "node", "node-a"),
                node("node-b", "node", "node-b"),
                node("node-c", "node", "node-c")),
            List.of(),
            Map.of(),
            want("node-a", 75, "node-b", 75, "node-c", 100)),
        Arguments.argumentSet(
            "NodeAffinityPolicy honored with nodeSelector",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(soft(1, "node", "foo"))
                .obj(),
            all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-c", "p-c", 1)),
            List.of(
                node("node-a", "node", "node-a", "foo", ""),
                node("node-b", "node", "node-b", "foo", ""),
                node("node-c", "node", "node-c")),
            List.of(),
            Map.of(),
            want("node-a", 0, "node-b", 33, "node-c", 100)),
        Arguments.argumentSet(
            "NodeAffinityPolicy ignored with nodeSelector",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(
                    s ->
                        s.maxSkew(1)
                            .topologyKey("node")
                            .whenUnsatisfiable("ScheduleAnyway")
                            .selectorExists("foo")
                            .nodeAffinityPolicy("Ignore"))
                .obj(),
            all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-c", "p-c", 1)),
            List.of(
                node("node-a", "node", "node-a", "foo", ""),
                node("node-b", "node", "node-b", "foo", ""),
                node("node-c", "node", "node-c")),
            List.of(),
            Map.of(),
            want("node-a", 66, "node-b", 100, "node-c", 100)),
        Arguments.argumentSet(
            "NodeTaintsPolicy honored",
            incoming(
                s ->
                    s.maxSkew(1)
                        .topologyKey("node")
                        .whenUnsatisfiable("ScheduleAnyway")
                        .selectorExists("foo")
                        .nodeTaintsPolicy("Honor")),
            all(foos("node-a", "p-a", 2), foos("node-b", "p-b", 1), foos("node-c", "p-c", 1)),
            List.of(
                node("node-a", "node", "node-a"),
                node("node-b", "node", "node-b"),
                MakeNode.node()
                    .name("node-c")
                    .label("node", "node-c")
                    .taint("node.kubernetes.io/unschedulable", "", "NoSchedule")
                    .obj()),
            List.of(),
            Map.of(),
            want("node-a", 0, "node-b", 33, "node-c", 100)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void score(
      V1Pod pod,
      List<V1Pod> existing,
      List<V1Node> nodes,
      List<V1Node> failedNodes,
      Map<String, Map<String, String>> services,
      List<NodeScore> want) {
    InMemoryCluster cluster = new InMemoryCluster();
    services.forEach(
        (name, selector) ->
            cluster.create(
                new V1Service()
                    .metadata(new V1ObjectMeta().name(name).namespace("default"))
                    .spec(new V1ServiceSpec().selector(selector))));
    List<V1Node> allNodes = new ArrayList<>(nodes);
    allNodes.addAll(failedNodes);
    FakeHandle handle = FakeHandle.of(allNodes, existing, cluster);
    PodTopologySpread plugin = new PodTopologySpread(PodTopologySpreadArgs.defaults(), handle);
    PodInfo info = PodInfo.of(pod);
    List<NodeInfo> filtered = new ArrayList<>();
    for (V1Node n : nodes) {
      filtered.add(handle.node(n.getMetadata().getName()));
    }
    CycleState state = new CycleState();
    assertThat(plugin.preScore(state, info, filtered)).isEqualTo(Status.success());
    NodeScores scores = new NodeScores(filtered);
    // plain, bound and bulk Score alike
    long[] raw = BoundFaces.assertScoreFaces(plugin, state, info, filtered);
    for (int i = 0; i < filtered.size(); i++) {
      scores.set(i, raw[i]);
    }
    assertThat(plugin.normalizeScore(state, info, scores)).isEqualTo(Status.success());
    assertThat(scores.toList()).isEqualTo(want);

    // the feasible nodes as the framework hands them over, knowing their rows in the columns
    CycleState rowed = new CycleState();
    List<NodeInfo> withRows = BoundFaces.withRows(filtered);
    assertThat(plugin.preScore(rowed, info, withRows)).isEqualTo(Status.success());
    NodeScores fromRows = new NodeScores(filtered);
    long[] rawFromRows = BoundFaces.assertScoreFaces(plugin, rowed, info, withRows);
    for (int i = 0; i < filtered.size(); i++) {
      fromRows.set(i, rawFromRows[i]);
    }
    assertThat(plugin.normalizeScore(rowed, info, fromRows)).isEqualTo(Status.success());
    assertThat(fromRows.toList()).as("PreScore given the rows").isEqualTo(want);
  }
}
