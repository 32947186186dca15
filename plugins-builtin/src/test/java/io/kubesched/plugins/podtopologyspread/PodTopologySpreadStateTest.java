package io.kubesched.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PreFilter state and AddPod/RemovePod of PodTopologySpread, ported from kube's
 * TestPreFilterState, TestPreFilterStateAddPod and TestPreFilterStateRemovePod.
 */
final class PodTopologySpreadStateTest {

  /** A comparable rendering of the state: counts and critical paths per constraint. */
  record Rendered(List<Map<String, Integer>> counts, List<String> paths) {}

  static Rendered render(PreFilterState s) {
    List<Map<String, Integer>> counts = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < s.constraints.length; i++) {
      Map<String, Integer> m = new TreeMap<>();
      ValueCounts c = s.counts[i];
      for (int slot = 0; slot < c.capacity(); slot++) {
        if (c.keyAt(slot) != null) {
          m.put(c.keyAt(slot), c.valueAt(slot));
        }
      }
      counts.add(m);
      paths.add(sortedPaths(s.paths[i].toString()));
    }
    return new Rendered(counts, paths);
  }

  /** Sorts the two paths by value when their counts tie, as kube's test comparer does. */
  static String sortedPaths(String p) {
    // format: [{v0 n0} {v1 n1}]
    String[] parts = p.substring(2, p.length() - 2).split("\\} \\{");
    String[] a = parts[0].split(" ");
    String[] b = parts[1].split(" ");
    if (a[1].equals(b[1]) && a[0].compareTo(b[0]) > 0) {
      return "[{" + b[0] + " " + a[1] + "} {" + a[0] + " " + b[1] + "}]";
    }
    return p;
  }

  static Rendered want(List<Map<String, Integer>> counts, String... paths) {
    List<String> ps = new ArrayList<>();
    for (String p : paths) {
      ps.add(sortedPaths(p));
    }
    return new Rendered(counts, ps);
  }

  static V1Node node(String name, String zone) {
    return MakeNode.node().name(name).label("zone", zone).label("node", name).obj();
  }

  static V1Pod pod(String name, String node, String... labels) {
    MakePod p = MakePod.pod().name(name).node(node);
    for (String l : labels) {
      p.label(l, "");
    }
    return p.obj();
  }

  static Consumer<MakePod.Spread> hard(String key, String selectorExists) {
    return s -> s.maxSkew(1).topologyKey(key).selectorExists(selectorExists);
  }

  static V1Pod preemptor(List<String> labels, List<Consumer<MakePod.Spread>> constraints) {
    MakePod p = MakePod.pod().name("p");
    labels.forEach(l -> p.label(l, ""));
    constraints.forEach(p::spreadConstraint);
    return p.obj();
  }

  static Stream<Arguments> preFilterCases() {
    return Stream.of(
        Arguments.argumentSet(
            "clean cluster with one spreadConstraint",
            MakePod.pod().name("p").label("foo", "")
                .spreadConstraint(s -> s.maxSkew(5).topologyKey("zone")
                    .selector(new io.kubernetes.client.openapi.models.V1LabelSelector()
                        .putMatchLabelsItem("foo", "bar")))
                .obj(),
            List.of(node("node-a", "zone1"), node("node-b", "zone1"), node("node-x", "zone2"),
                node("node-y", "zone2")),
            List.of(),
            want(List.of(Map.of("zone1", 0, "zone2", 0)), "[{zone1 0} {zone2 0}]")),
        Arguments.argumentSet(
            "normal case with one spreadConstraint",
            preemptor(List.of("foo"), List.of(hard("zone", "foo"))),
            List.of(node("node-a", "zone1"), node("node-b", "zone1"), node("node-x", "zone2"),
                node("node-y", "zone2")),
            List.of(pod("p-a1", "node-a", "foo"), pod("p-a2", "node-a", "foo"),
                pod("p-b1", "node-b", "foo"), pod("p-y1", "node-y", "foo"),
                pod("p-y2", "node-y", "foo")),
            want(List.of(Map.of("zone1", 3, "zone2", 2)), "[{zone2 2} {zone1 3}]")),
        Arguments.argumentSet(
            "normal case with one spreadConstraint, on a 3-zone cluster",
            preemptor(List.of("foo"), List.of(hard("zone", "foo"))),
            List.of(node("node-a", "zone1"), node("node-b", "zone1"), node("node-x", "zone2"),
                node("node-y", "zone2"), node("node-o", "zone3"), node("node-p", "zone3")),
            List.of(pod("p-a1", "node-a", "foo"), pod("p-a2", "node-a", "foo"),
                pod("p-b1", "node-b", "foo"), pod("p-y1", "node-y", "foo"),
                pod("p-y2", "node-y", "foo")),
            want(List.of(Map.of("zone1", 3, "zone2", 2, "zone3", 0)), "[{zone3 0} {zone2 2}]")),
        Arguments.argumentSet(
            "normal case with two spreadConstraints",
            preemptor(List.of("foo"), List.of(hard("zone", "foo"), hard("node", "foo"))),
            List.of(node("node-a", "zone1"), node("node-b", "zone1"), node("node-x", "zone2"),
                node("node-y", "zone2")),
            List.of(pod("p-a1", "node-a", "foo"), pod("p-a2", "node-a", "foo"),
                pod("p-b1", "node-b", "foo"), pod("p-y1", "node-y", "foo"),
                pod("p-y2", "node-y", "foo"), pod("p-y3", "node-y", "foo"),
                pod("p-y4", "node-y", "foo")),
            want(
                List.of(Map.of("zone1", 3, "zone2", 4),
                    Map.of("node-a", 2, "node-b", 1, "node-x", 0, "node-y", 4)),
                "[{zone1 3} {zone2 4}]",
                "[{node-x 0} {node-b 1}]")),
        Arguments.argumentSet(
            "two spreadConstraints with the same topologyKey",
            preemptor(List.of("foo", "bar"), List.of(hard("zone", "foo"), hard("zone", "bar"))),
            List.of(node("node-a", "zone1"), node("node-b", "zone1"), node("node-x", "zone2"),
                node("node-y", "zone2")),
            List.of(pod("p-a1", "node-a", "foo", "bar"), pod("p-b1", "node-b", "foo"),
                pod("p-x1", "node-x", "bar"), pod("p-y1", "node-y", "foo", "bar"),
                pod("p-y2", "node-y", "bar")),
            want(
                List.of(Map.of("zone1", 2, "zone2", 1), Map.of("zone1", 1, "zone2", 3)),
                "[{zone2 1} {zone1 2}]",
                "[{zone1 1} {zone2 3}]")));
  }

  @ParameterizedTest
  @MethodSource("preFilterCases")
  void preFilterState(V1Pod pod, List<V1Node> nodes, List<V1Pod> existing, Rendered want) {
    FakeHandle handle = FakeHandle.of(nodes, existing);
    PodTopologySpread plugin =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);
    CycleState state = new CycleState();
    assertThat(plugin.preFilter(state, PodInfo.of(pod), handle.nodes()))
        .isEqualTo(PreFilterResult.success());
    assertThat(render(state.get(PodTopologySpread.PRE_FILTER_KEY))).isEqualTo(want);
  }

  static Stream<Arguments> addPodCases() {
    List<V1Node> ab = List.of(node("node-a", "zone1"), node("node-b", "zone1"));
    List<V1Node> ax = List.of(node("node-a", "zone1"), node("node-x", "zone2"));
    List<V1Node> abx =
        List.of(node("node-a", "zone1"), node("node-b", "zone1"), node("node-x", "zone2"));
    V1Pod nodePreemptor = preemptor(List.of("foo"), List.of(hard("node", "foo")));
    V1Pod zoneNodePreemptor =
        preemptor(List.of("foo"), List.of(hard("zone", "foo"), hard("node", "foo")));
    V1Pod fooBarPreemptor =
        preemptor(List.of("foo", "bar"), List.of(hard("zone", "foo"), hard("node", "bar")));
    return Stream.of(
        Arguments.argumentSet(
            "node a and b both impact current min match",
            nodePreemptor, pod("p-a1", "node-a", "foo"), List.of(), ab,
            want(List.of(Map.of("node-a", 1, "node-b", 0)), "[{node-b 0} {node-a 1}]")),
        Arguments.argumentSet(
            "only node a impacts current min match",
            nodePreemptor, pod("p-a1", "node-a", "foo"), List.of(pod("p-b1", "node-b", "foo")),
            ab,
            want(List.of(Map.of("node-a", 1, "node-b", 1)), "[{node-a 1} {node-b 1}]")),
        Arguments.argumentSet(
            "add a pod in a different namespace doesn't change the state",
            nodePreemptor,
            MakePod.pod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
            List.of(pod("p-b1", "node-b", "foo")),
            ab,
            want(List.of(Map.of("node-a", 0, "node-b", 1)), "[{node-a 0} {node-b 1}]")),
        Arguments.argumentSet(
            "add pod on non-critical node won't trigger re-calculation",
            nodePreemptor, pod("p-b2", "node-b", "foo"), List.of(pod("p-b1", "node-b", "foo")),
            ab,
            want(List.of(Map.of("node-a", 0, "node-b", 2)), "[{node-a 0} {node-b 2}]")),
        Arguments.argumentSet(
            "node a and x both impact the min on zone and node",
            zoneNodePreemptor, pod("p-a1", "node-a", "foo"), List.of(), ax,
            want(
                List.of(Map.of("zone1", 1, "zone2", 0), Map.of("node-a", 1, "node-x", 0)),
                "[{zone2 0} {zone1 1}]",
                "[{node-x 0} {node-a 1}]")),
        Arguments.argumentSet(
            "only node a impacts the min on zone and node",
            zoneNodePreemptor, pod("p-a1", "node-a", "foo"), List.of(pod("p-x1", "node-x", "foo")),
            ax,
            want(
                List.of(Map.of("zone1", 1, "zone2", 1), Map.of("node-a", 1, "node-x", 1)),
                "[{zone1 1} {zone2 1}]",
                "[{node-a 1} {node-x 1}]")),
        Arguments.argumentSet(
            "node a impacts the min on node, node x the min on zone",
            zoneNodePreemptor,
            pod("p-a1", "node-a", "foo"),
            List.of(pod("p-b1", "node-b", "foo"), pod("p-b2", "node-b", "foo"),
                pod("p-x1", "node-x", "foo")),
            abx,
            want(
                List.of(Map.of("zone1", 3, "zone2", 1),
                    Map.of("node-a", 1, "node-b", 2, "node-x", 1)),
                "[{zone2 1} {zone1 3}]",
                "[{node-a 1} {node-x 1}]")),
        Arguments.argumentSet(
            "different selectors, node a impacts the min on zone",
            fooBarPreemptor,
            pod("p-a1", "node-a", "foo"),
            List.of(pod("p-b1", "node-b", "foo", "bar"), pod("p-x1", "node-x", "foo", "bar"),
                pod("p-x2", "node-x", "bar")),
            abx,
            want(
                List.of(Map.of("zone1", 2, "zone2", 1),
                    Map.of("node-a", 0, "node-b", 1, "node-x", 2)),
                "[{zone2 1} {zone1 2}]",
                "[{node-a 0} {node-b 1}]")),
        Arguments.argumentSet(
            "different selectors, node a impacts the min on both zone and node",
            fooBarPreemptor,
            pod("p-a1", "node-a", "foo", "bar"),
            List.of(pod("p-b1", "node-b", "bar"), pod("p-x1", "node-x", "foo", "bar"),
                pod("p-x2", "node-x", "bar")),
            abx,
            want(
                List.of(Map.of("zone1", 1, "zone2", 1),
                    Map.of("node-a", 1, "node-b", 1, "node-x", 2)),
                "[{zone1 1} {zone2 1}]",
                "[{node-a 1} {node-b 1}]")));
  }

  @ParameterizedTest
  @MethodSource("addPodCases")
  void addPodOnClone(
      V1Pod preemptor, V1Pod added, List<V1Pod> existing, List<V1Node> nodes, Rendered want) {
    FakeHandle handle = FakeHandle.of(nodes, existing);
    PodTopologySpread plugin =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);
    CycleState state = new CycleState();
    PodInfo p = PodInfo.of(preemptor);
    plugin.preFilter(state, p, handle.nodes());
    Rendered before = render(state.get(PodTopologySpread.PRE_FILTER_KEY));

    CycleState clone = state.clone();
    Status s =
        plugin.addPod(clone, p, PodInfo.of(added), handle.node(added.getSpec().getNodeName()));

    assertThat(s).isEqualTo(Status.success());
    assertThat(render(clone.get(PodTopologySpread.PRE_FILTER_KEY))).isEqualTo(want);
    assertThat(render(state.get(PodTopologySpread.PRE_FILTER_KEY))).isEqualTo(before);
  }

  static Stream<Arguments> removePodCases() {
    List<V1Node> abxy =
        List.of(node("node-a", "zone1"), node("node-b", "zone1"), node("node-x", "zone2"),
            node("node-y", "zone2"));
    return Stream.of(
        Arguments.argumentSet(
            "remove a pod from zone1 makes zone1 the critical path",
            preemptor(List.of("foo"), List.of(hard("zone", "foo"))),
            List.of(pod("p-a1", "node-a", "foo"), pod("p-a2", "node-a", "foo"),
                pod("p-x1", "node-x", "foo")),
            "p-a1",
            abxy,
            want(List.of(Map.of("zone1", 1, "zone2", 1)), "[{zone1 1} {zone2 1}]")),
        Arguments.argumentSet(
            "remove a pod from the critical zone lowers the minimum",
            preemptor(List.of("foo"), List.of(hard("zone", "foo"))),
            List.of(pod("p-a1", "node-a", "foo"), pod("p-a2", "node-a", "foo"),
                pod("p-x1", "node-x", "foo")),
            "p-x1",
            abxy,
            want(List.of(Map.of("zone1", 2, "zone2", 0)), "[{zone2 0} {zone1 2}]")),
        Arguments.argumentSet(
            "remove a pod that doesn't match the selector changes nothing",
            preemptor(List.of("foo"), List.of(hard("zone", "foo"))),
            List.of(pod("p-a1", "node-a", "foo"), pod("p-a2", "node-a", "bar"),
                pod("p-x1", "node-x", "foo")),
            "p-a2",
            abxy,
            want(List.of(Map.of("zone1", 1, "zone2", 1)), "[{zone1 1} {zone2 1}]")),
        Arguments.argumentSet(
            "remove a pod on the node constraint and the zone constraint",
            preemptor(List.of("foo"), List.of(hard("zone", "foo"), hard("node", "foo"))),
            List.of(pod("p-a1", "node-a", "foo"), pod("p-b1", "node-b", "foo"),
                pod("p-x1", "node-x", "foo"), pod("p-y1", "node-y", "foo")),
            "p-b1",
            abxy,
            want(
                List.of(Map.of("zone1", 1, "zone2", 2),
                    Map.of("node-a", 1, "node-b", 0, "node-x", 1, "node-y", 1)),
                "[{zone1 1} {zone2 2}]",
                "[{node-b 0} {node-a 1}]")));
  }

  @ParameterizedTest
  @MethodSource("removePodCases")
  void removePodOnClone(
      V1Pod preemptor, List<V1Pod> existing, String removed, List<V1Node> nodes, Rendered want) {
    FakeHandle handle = FakeHandle.of(nodes, existing);
    PodTopologySpread plugin =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);
    CycleState state = new CycleState();
    PodInfo p = PodInfo.of(preemptor);
    plugin.preFilter(state, p, handle.nodes());
    V1Pod victim =
        existing.stream().filter(e -> e.getMetadata().getName().equals(removed)).findFirst()
            .orElseThrow();

    CycleState clone = state.clone();
    plugin.removePod(clone, p, PodInfo.of(victim), handle.node(victim.getSpec().getNodeName()));

    assertThat(render(clone.get(PodTopologySpread.PRE_FILTER_KEY))).isEqualTo(want);
  }

  @Test
  void preFilterSkipsAPodWithoutConstraintsWhenNotDefaulted() {
    FakeHandle handle = FakeHandle.of(List.of(node("node-a", "zone1")), List.of());
    PodTopologySpread plugin =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);
    CycleState state = new CycleState();

    PreFilterResult r =
        plugin.preFilter(state, MakePod.pod().name("p").label("foo", "").info(), handle.nodes());

    assertThat(r).isEqualTo(PreFilterResult.skip());
    assertThat(state.read(PodTopologySpread.PRE_FILTER_KEY)).isEmpty();
  }

  @Test
  void addPodMakesAFullNodeFailFilterAndRemovePodReversesIt() {
    FakeHandle handle =
        FakeHandle.of(
            List.of(node("node-a", "zone1"), node("node-b", "zone1")),
            List.of(pod("p-a1", "node-a", "foo")));
    PodTopologySpread plugin =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);
    PodInfo p = PodInfo.of(preemptor(List.of("foo"), List.of(hard("node", "foo"))));
    CycleState state = new CycleState();
    plugin.preFilter(state, p, handle.nodes());
    assertThat(plugin.filter(state, p, handle.node("node-b"))).isEqualTo(Status.success());

    CycleState clone = state.clone();
    PodInfo nominated = PodInfo.of(pod("p-b1", "node-b", "foo"));
    plugin.addPod(clone, p, nominated, handle.node("node-b"));
    PodInfo second = PodInfo.of(pod("p-b2", "node-b", "foo"));
    plugin.addPod(clone, p, second, handle.node("node-b"));
    assertThat(plugin.filter(clone, p, handle.node("node-b")))
        .isEqualTo(Status.unschedulable(PodTopologySpread.REASON_CONSTRAINTS_NOT_MATCH));

    plugin.removePod(clone, p, second, handle.node("node-b"));
    assertThat(plugin.filter(clone, p, handle.node("node-b"))).isEqualTo(Status.success());
    assertThat(plugin.filter(state, p, handle.node("node-b"))).isEqualTo(Status.success());
  }
}
