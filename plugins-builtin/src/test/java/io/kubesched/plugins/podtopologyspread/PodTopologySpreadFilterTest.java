package io.kubesched.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Filter of PodTopologySpread, ported from kube's TestSingleConstraint/TestMultipleConstraints. */
final class PodTopologySpreadFilterTest {
  static final Status OK = Status.success();
  static final Status SKEW = Status.unschedulable(PodTopologySpread.REASON_CONSTRAINTS_NOT_MATCH);
  static final Status LABEL = Status.unresolvable(PodTopologySpread.REASON_NODE_LABEL_NOT_MATCH);

  static V1Node node(String name, String... labels) {
    MakeNode n = MakeNode.node().name(name);
    for (int i = 0; i < labels.length; i += 2) {
      n.label(labels[i], labels[i + 1]);
    }
    return n.obj();
  }

  static V1Pod foo(String name, String node) {
    return MakePod.pod().name(name).node(node).label("foo", "").obj();
  }

  static Consumer<MakePod.Spread> hard(int maxSkew, String key, String selectorExists) {
    return s -> s.maxSkew(maxSkew).topologyKey(key).selectorExists(selectorExists);
  }

  static List<V1Node> fourNodes() {
    return List.of(
        node("node-a", "zone", "zone1", "node", "node-a"),
        node("node-b", "zone", "zone1", "node", "node-b"),
        node("node-x", "zone", "zone2", "node", "node-x"),
        node("node-y", "zone", "zone2", "node", "node-y"));
  }

  static Map<String, Status> want(Object... pairs) {
    Map<String, Status> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], (Status) pairs[i + 1]);
    }
    return m;
  }

  static Stream<Arguments> cases() {
    MakePod p = MakePod.pod().name("p").label("foo", "");
    List<V1Pod> twoOneZeroThree =
        List.of(
            foo("p-a1", "node-a"),
            foo("p-a2", "node-a"),
            foo("p-b1", "node-b"),
            foo("p-y1", "node-y"),
            foo("p-y2", "node-y"),
            foo("p-y3", "node-y"));
    return Stream.of(
        Arguments.argumentSet(
            "no existing pods: every node fits",
            MakePod.pod().name("p").label("foo", "").spreadConstraint(hard(1, "zone", "foo")).obj(),
            fourNodes(),
            List.of(),
            want("node-a", OK, "node-b", OK, "node-x", OK, "node-y", OK)),
        Arguments.argumentSet(
            "no existing pods, incoming pod doesn't match itself: every node fits",
            MakePod.pod().name("p").label("bar", "").spreadConstraint(hard(1, "zone", "foo")).obj(),
            fourNodes(),
            List.of(),
            want("node-a", OK, "node-b", OK, "node-x", OK, "node-y", OK)),
        Arguments.argumentSet(
            "existing pods in a different namespace do not count: zones as 1/0",
            MakePod.pod().name("p").label("foo", "").spreadConstraint(hard(1, "zone", "foo")).obj(),
            fourNodes(),
            List.of(
                MakePod.pod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
                foo("p-b1", "node-b")),
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", OK)),
        Arguments.argumentSet(
            "pods spread across zones as 3/3: every node fits",
            MakePod.pod().name("p").label("foo", "").spreadConstraint(hard(1, "zone", "foo")).obj(),
            fourNodes(),
            List.of(
                foo("p-a1", "node-a"),
                foo("p-a2", "node-a"),
                foo("p-b1", "node-b"),
                foo("p-y1", "node-y"),
                foo("p-y2", "node-y"),
                foo("p-y3", "node-y")),
            want("node-a", OK, "node-b", OK, "node-x", OK, "node-y", OK)),
        Arguments.argumentSet(
            "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
            MakePod.pod().name("p").label("foo", "").spreadConstraint(hard(1, "zone", "foo")).obj(),
            List.of(
                node("node-a", "zone", "zone1", "node", "node-a"),
                node("node-b", "zon", "zone1", "node", "node-b"),
                node("node-x", "zone", "zone2", "node", "node-x"),
                node("node-y", "zone", "zone2", "node", "node-y")),
            List.of(
                foo("p-a1", "node-a"),
                foo("p-b1", "node-b"),
                foo("p-x1", "node-x"),
                foo("p-y1", "node-y")),
            want("node-a", OK, "node-b", LABEL, "node-x", SKEW, "node-y", SKEW)),
        Arguments.argumentSet(
            "pod cannot be scheduled as all nodes don't have label 'rack'",
            MakePod.pod().name("p").label("foo", "").spreadConstraint(hard(1, "rack", "foo")).obj(),
            List.of(
                node("node-a", "zone", "zone1", "node", "node-a"),
                node("node-x", "zone", "zone2", "node", "node-x")),
            List.of(),
            want("node-a", LABEL, "node-x", LABEL)),
        Arguments.argumentSet(
            "pods spread across nodes as 2/1/0/3, only node-x fits",
            MakePod.pod().name("p").label("foo", "").spreadConstraint(hard(1, "node", "foo")).obj(),
            fourNodes(),
            twoOneZeroThree,
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", SKEW)),
        Arguments.argumentSet(
            "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
            MakePod.pod().name("p").label("foo", "").spreadConstraint(hard(2, "node", "foo")).obj(),
            fourNodes(),
            twoOneZeroThree,
            want("node-a", SKEW, "node-b", OK, "node-x", OK, "node-y", SKEW)),
        Arguments.argumentSet(
            "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
            MakePod.pod().name("p").label("bar", "").spreadConstraint(hard(1, "node", "foo")).obj(),
            fourNodes(),
            twoOneZeroThree,
            want("node-a", SKEW, "node-b", OK, "node-x", OK, "node-y", SKEW)),
        Arguments.argumentSet(
            "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .nodeAffinityIn("node", "node-a", "node-y")
                .spreadConstraint(hard(1, "node", "foo"))
                .obj(),
            fourNodes(),
            twoOneZeroThree,
            want("node-a", OK, "node-b", OK, "node-x", OK, "node-y", SKEW)),
        Arguments.argumentSet(
            "terminating pods are excluded",
            MakePod.pod().name("p").label("foo", "").spreadConstraint(hard(1, "node", "foo")).obj(),
            List.of(node("node-a", "node", "node-a"), node("node-b", "node", "node-b")),
            List.of(
                MakePod.pod().name("p-a").node("node-a").label("foo", "").terminating().obj(),
                foo("p-b", "node-b")),
            want("node-a", OK, "node-b", SKEW)),
        Arguments.argumentSet(
            "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .nodeAffinityNotIn("node", "node-b")
                .spreadConstraint(hard(1, "zone", "foo"))
                .obj(),
            fourNodes(),
            List.of(foo("p-b1", "node-b"), foo("p-b2", "node-b"), foo("p-y1", "node-y")),
            want("node-a", OK, "node-b", OK, "node-x", SKEW, "node-y", SKEW)),
        Arguments.argumentSet(
            "nodes as 2/2/1, maxSkew 2, domains < minDomains: only the third node fits",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .spreadConstraint(
                    s -> s.maxSkew(2).topologyKey("node").selectorExists("foo").minDomains(4))
                .obj(),
            List.of(
                node("node-a", "node", "node-a"),
                node("node-b", "node", "node-b"),
                node("node-c", "node", "node-c")),
            List.of(
                foo("p-a1", "node-a"),
                foo("p-a2", "node-a"),
                foo("p-b1", "node-b"),
                foo("p-b2", "node-b"),
                foo("p-c1", "node-c")),
            want("node-a", SKEW, "node-b", SKEW, "node-c", OK)),
        Arguments.argumentSet(
            "nodes as 2/2/1, maxSkew 2, domains > minDomains: all nodes fit",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .spreadConstraint(
                    s -> s.maxSkew(2).topologyKey("node").selectorExists("foo").minDomains(2))
                .obj(),
            List.of(
                node("node-a", "node", "node-a"),
                node("node-b", "node", "node-b"),
                node("node-c", "node", "node-c")),
            List.of(
                foo("p-a1", "node-a"),
                foo("p-a2", "node-a"),
                foo("p-b1", "node-b"),
                foo("p-b2", "node-b"),
                foo("p-c1", "node-c")),
            want("node-a", OK, "node-b", OK, "node-c", OK)),
        Arguments.argumentSet(
            "zones as 2/1, maxSkew 2, domains < minDomains: the third and fourth nodes fit",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .spreadConstraint(
                    s -> s.maxSkew(2).topologyKey("zone").selectorExists("foo").minDomains(3))
                .obj(),
            fourNodes(),
            List.of(foo("p-b1", "node-a"), foo("p-b2", "node-b"), foo("p-y1", "node-y")),
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", OK)),
        Arguments.argumentSet(
            "zones as 2/1, maxSkew 2, domains > minDomains: all nodes fit",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .spreadConstraint(
                    s -> s.maxSkew(2).topologyKey("zone").selectorExists("foo").minDomains(1))
                .obj(),
            fourNodes(),
            List.of(foo("p-b1", "node-a"), foo("p-b2", "node-b"), foo("p-y1", "node-y")),
            want("node-a", OK, "node-b", OK, "node-x", OK, "node-y", OK)),
        Arguments.argumentSet(
            "NodeAffinityPolicy honored with nodeSelector",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(hard(1, "node", "foo"))
                .obj(),
            inclusionNodes(false),
            List.of(foo("p-b1", "node-a"), foo("p-b2", "node-b"), foo("p-y1", "node-y")),
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", OK)),
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
                            .selectorExists("foo")
                            .nodeAffinityPolicy("Ignore"))
                .obj(),
            inclusionNodes(false),
            List.of(foo("p-b1", "node-a"), foo("p-b2", "node-b"), foo("p-y1", "node-y")),
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", SKEW)),
        Arguments.argumentSet(
            "NodeAffinityPolicy honored with nodeAffinity",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .nodeAffinityIn("foo", "")
                .spreadConstraint(hard(1, "node", "foo"))
                .obj(),
            inclusionNodes(false),
            List.of(foo("p-b1", "node-a"), foo("p-b2", "node-b"), foo("p-y1", "node-y")),
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", OK)),
        Arguments.argumentSet(
            "NodeTaintsPolicy honored",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .spreadConstraint(
                    s ->
                        s.maxSkew(1)
                            .topologyKey("node")
                            .selectorExists("foo")
                            .nodeTaintsPolicy("Honor"))
                .obj(),
            inclusionNodes(true),
            List.of(foo("p-b1", "node-a"), foo("p-b2", "node-b"), foo("p-y1", "node-y")),
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", OK)),
        Arguments.argumentSet(
            "NodeTaintsPolicy ignored",
            MakePod.pod().name("p").label("foo", "").spreadConstraint(hard(1, "node", "foo")).obj(),
            inclusionNodes(true),
            List.of(foo("p-b1", "node-a"), foo("p-b2", "node-b"), foo("p-y1", "node-y")),
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", SKEW)),
        // TestMultipleConstraints
        Arguments.argumentSet(
            "two constraints on zone and node, spreads = [3/3, 2/1/0/3]",
            p.spreadConstraint(hard(1, "zone", "foo"))
                .spreadConstraint(hard(1, "node", "foo"))
                .obj(),
            fourNodes(),
            twoOneZeroThree,
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", SKEW)),
        Arguments.argumentSet(
            "two constraints on zone and node, spreads = [3/4, 2/1/0/4]",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .spreadConstraint(hard(1, "zone", "foo"))
                .spreadConstraint(hard(1, "node", "foo"))
                .obj(),
            fourNodes(),
            List.of(
                foo("p-a1", "node-a"),
                foo("p-a2", "node-a"),
                foo("p-b1", "node-b"),
                foo("p-y1", "node-y"),
                foo("p-y2", "node-y"),
                foo("p-y3", "node-y"),
                foo("p-y4", "node-y")),
            want("node-a", SKEW, "node-b", SKEW, "node-x", SKEW, "node-y", SKEW)),
        Arguments.argumentSet(
            "constraints hold different selectors, spreads = [1/0, 1/0/0/1]",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .label("bar", "")
                .spreadConstraint(hard(1, "zone", "foo"))
                .spreadConstraint(hard(1, "node", "bar"))
                .obj(),
            fourNodes(),
            List.of(
                foo("p-a1", "node-a"),
                MakePod.pod().name("p-y1").node("node-y").label("bar", "").obj()),
            want("node-a", SKEW, "node-b", SKEW, "node-x", OK, "node-y", SKEW)),
        Arguments.argumentSet(
            "constraints hold different selectors, spreads = [2/3, 1/0/0/1]",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .label("bar", "")
                .spreadConstraint(hard(1, "zone", "foo"))
                .spreadConstraint(hard(1, "node", "bar"))
                .obj(),
            fourNodes(),
            List.of(
                foo("p-a1", "node-a"),
                MakePod.pod().name("p-a2").node("node-a").label("foo", "").label("bar", "").obj(),
                foo("p-y1", "node-y"),
                MakePod.pod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
                foo("p-y3", "node-y")),
            want("node-a", SKEW, "node-b", OK, "node-x", SKEW, "node-y", SKEW)),
        Arguments.argumentSet(
            "constraints hold different selectors but pod doesn't match itself on 'zone'",
            MakePod.pod()
                .name("p")
                .label("bar", "")
                .spreadConstraint(hard(1, "zone", "foo"))
                .spreadConstraint(hard(1, "node", "bar"))
                .obj(),
            fourNodes(),
            List.of(
                foo("p-a1", "node-a"),
                MakePod.pod().name("p-x1").node("node-x").label("bar", "").obj(),
                MakePod.pod().name("p-y1").node("node-y").label("bar", "").obj()),
            want("node-a", OK, "node-b", OK, "node-x", SKEW, "node-y", SKEW)),
        Arguments.argumentSet(
            "matchLabelKeys narrows the selector to pods with the same label value",
            MakePod.pod()
                .name("p")
                .label("foo", "")
                .label("version", "v2")
                .spreadConstraint(
                    s ->
                        s.maxSkew(1)
                            .topologyKey("node")
                            .selectorExists("foo")
                            .matchLabelKeys("version"))
                .obj(),
            List.of(node("node-a", "node", "node-a"), node("node-b", "node", "node-b")),
            List.of(
                MakePod.pod()
                    .name("p-a1")
                    .node("node-a")
                    .label("foo", "")
                    .label("version", "v1")
                    .obj(),
                MakePod.pod()
                    .name("p-b1")
                    .node("node-b")
                    .label("foo", "")
                    .label("version", "v2")
                    .obj()),
            want("node-a", OK, "node-b", SKEW)),
        Arguments.argumentSet(
            "matchLabelKeys with a null selector selects by the pod's label values only",
            MakePod.pod()
                .name("p")
                .label("version", "v2")
                .spreadConstraint(s -> s.maxSkew(1).topologyKey("node").matchLabelKeys("version"))
                .obj(),
            List.of(node("node-a", "node", "node-a"), node("node-b", "node", "node-b")),
            List.of(
                MakePod.pod().name("p-a1").node("node-a").label("version", "v1").obj(),
                MakePod.pod().name("p-b1").node("node-b").label("version", "v2").obj()),
            want("node-a", OK, "node-b", SKEW)));
  }

  static List<V1Node> inclusionNodes(boolean taintNodeY) {
    MakeNode y = MakeNode.node().name("node-y").label("node", "node-y");
    if (taintNodeY) {
      y.taint("node.kubernetes.io/unschedulable", "", "NoSchedule");
    }
    return List.of(
        node("node-a", "node", "node-a", "foo", ""),
        node("node-b", "node", "node-b", "foo", ""),
        node("node-x", "node", "node-x", "foo", ""),
        y.obj());
  }

  @ParameterizedTest
  @MethodSource("cases")
  void filter(V1Pod pod, List<V1Node> nodes, List<V1Pod> existing, Map<String, Status> want) {
    FakeHandle handle = FakeHandle.of(nodes, existing);
    PodTopologySpread plugin =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod);
    PreFilterResult pre = plugin.preFilter(state, info, handle.nodes());
    assertThat(pre).isEqualTo(PreFilterResult.success());

    Map<String, Status> got = new LinkedHashMap<>();
    // plain, bound and bulk Filter alike
    List<Status> statuses = BoundFaces.assertFilterFaces(plugin, state, info, handle.nodes());
    for (int i = 0; i < statuses.size(); i++) {
      got.put(handle.nodes().get(i).name(), statuses.get(i));
    }
    assertThat(got).isEqualTo(want);
  }

  @Test
  void withTheMatchLabelKeysGateOffMatchLabelKeysAreIgnored() {
    V1Pod pod =
        MakePod.pod()
            .name("p")
            .label("foo", "")
            .label("version", "v2")
            .spreadConstraint(
                s ->
                    s.maxSkew(1)
                        .topologyKey("node")
                        .selectorExists("foo")
                        .matchLabelKeys("version"))
            .obj();
    FakeHandle handle =
        FakeHandle.of(
                List.of(node("node-a", "node", "node-a"), node("node-b", "node", "node-b")),
                List.of(
                    MakePod.pod()
                        .name("p-b1")
                        .node("node-b")
                        .label("foo", "")
                        .label("version", "v1")
                        .obj()))
            .withFeatureGates(FeatureGates.parse("MatchLabelKeysInPodTopologySpread=false"));
    PodTopologySpread plugin =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);
    CycleState state = new CycleState();
    PodInfo info = PodInfo.of(pod);
    plugin.preFilter(state, info, handle.nodes());

    // p-b1 (version v1) counts: without the gate the selector is only "foo exists"
    assertThat(plugin.filter(state, info, handle.nodes().get(0)).isSuccess()).isTrue();
    assertThat(plugin.filter(state, info, handle.nodes().get(1)).isSuccess()).isFalse();
  }
}
