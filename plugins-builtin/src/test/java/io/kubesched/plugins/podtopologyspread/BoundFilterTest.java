package io.kubesched.plugins.podtopologyspread;

import static io.kubesched.plugins.podtopologyspread.PodTopologySpreadStateTest.hard;
import static io.kubesched.plugins.podtopologyspread.PodTopologySpreadStateTest.node;
import static io.kubesched.plugins.podtopologyspread.PodTopologySpreadStateTest.pod;
import static io.kubesched.plugins.podtopologyspread.PodTopologySpreadStateTest.preemptor;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Filter bound before AddPod or RemovePod change the PreFilter state in place (as preemption's
 * dry runs do) answers as the plain Filter does afterwards, one node at a time and in bulk.
 */
final class BoundFilterTest {
  static final Status OK = Status.success();
  static final Status SKEW = Status.unschedulable(PodTopologySpread.REASON_CONSTRAINTS_NOT_MATCH);

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "two pods added to zone2 move the minimum: zone2 full, zone1 free",
            List.of(pod("p-a1", "node-a", "foo")),
            List.of(pod("p-b1", "node-b", "foo"), pod("p-b2", "node-b", "foo")),
            List.of(),
            List.of(OK, SKEW)),
        Arguments.argumentSet(
            "one pod removed from zone1 frees zone1",
            List.of(pod("p-a1", "node-a", "foo")),
            List.of(),
            List.of(pod("p-a1", "node-a", "foo")),
            List.of(OK, OK)),
        Arguments.argumentSet(
            "no change: zone1 exceeds the skew",
            List.of(pod("p-a1", "node-a", "foo")),
            List.of(),
            List.of(),
            List.of(SKEW, OK)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void boundCheckFollowsAddPodAndRemovePod(
      List<V1Pod> pods, List<V1Pod> added, List<V1Pod> removed, List<Status> want) {
    FakeHandle handle =
        FakeHandle.of(List.of(node("node-a", "zone1"), node("node-b", "zone2")), pods);
    PodTopologySpread plugin =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);
    PodInfo p = PodInfo.of(preemptor(List.of("foo"), List.of(hard("zone", "foo"))));
    CycleState state = new CycleState();
    assertThat(plugin.preFilter(state, p, handle.nodes())).isEqualTo(PreFilterResult.success());
    CycleBoundFilter.NodeCheck check = plugin.bindFilter(state, p);
    NodeInfo[] nodes = handle.nodes().toArray(new NodeInfo[0]);
    check.filterAll(nodes, nodes.length, null, null, new Status[nodes.length]);

    for (V1Pod a : added) {
      plugin.addPod(state, p, PodInfo.of(a), handle.node(a.getSpec().getNodeName()));
    }
    for (V1Pod r : removed) {
      plugin.removePod(state, p, PodInfo.of(r), handle.node(r.getSpec().getNodeName()));
    }

    Status[] bulk = new Status[nodes.length];
    check.filterAll(nodes, nodes.length, null, null, bulk);
    List<Status> plain = new ArrayList<>();
    List<Status> one = new ArrayList<>();
    for (NodeInfo n : nodes) {
      plain.add(plugin.filter(state, p, n));
      one.add(check.filter(n));
    }
    assertThat(plain).isEqualTo(want);
    assertThat(one).isEqualTo(want);
    assertThat(List.of(bulk)).isEqualTo(want);
  }
}
