package io.kubesched.plugins.interpodaffinity;

import static io.kubesched.plugins.interpodaffinity.InterPodAffinityFilterTest.AFFINITY;
import static io.kubesched.plugins.interpodaffinity.InterPodAffinityFilterTest.ANTI;
import static io.kubesched.plugins.interpodaffinity.InterPodAffinityFilterTest.EXISTING_ANTI;
import static io.kubesched.plugins.interpodaffinity.InterPodAffinityFilterTest.abNodes;
import static io.kubesched.plugins.interpodaffinity.InterPodAffinityFilterTest.existing;
import static io.kubesched.plugins.interpodaffinity.InterPodAffinityFilterTest.pod;
import static io.kubesched.plugins.interpodaffinity.InterPodAffinityFilterTest.req;
import static io.kubesched.plugins.interpodaffinity.InterPodAffinityFilterTest.term;
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
import java.util.Map;
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
  static final Map<String, String> BLUE = Map.of("color", "blue");

  static Stream<Arguments> cases() {
    V1Pod antiBlueByZone =
        pod("p", null, Map.of(), List.of(), List.of(term("zone", req("color", "In", "blue"))));
    V1Pod blueAntiNothing =
        pod("p", null, BLUE, List.of(), List.of(term("zone", req("color", "In", "none"))));
    V1Pod blueWithAffinityToBlue =
        pod("p", null, BLUE, List.of(term("zone", req("color", "In", "blue"))), List.of());
    return Stream.of(
        Arguments.argumentSet(
            "anti-affinity: a matching pod added to nodeB rejects nodeB",
            antiBlueByZone,
            List.of(),
            true,
            existing("added", "nodeB", BLUE),
            List.of(OK, ANTI)),
        Arguments.argumentSet(
            "existing anti-affinity: a pod added with a key never counted rejects its zone",
            blueAntiNothing,
            List.of(),
            true,
            pod(
                "added",
                "nodeB",
                Map.of(),
                List.of(),
                List.of(term("zone", req("color", "In", "blue")))),
            List.of(OK, EXISTING_ANTI)),
        Arguments.argumentSet(
            "affinity: removing the only matching pod lets the first of its group go anywhere",
            blueWithAffinityToBlue,
            List.of(existing("blue-a", "nodeA", BLUE)),
            false,
            existing("blue-a", "nodeA", BLUE),
            List.of(OK, OK)),
        Arguments.argumentSet(
            "affinity: a matching pod added to nodeB admits nodeB besides nodeA",
            blueWithAffinityToBlue,
            List.of(existing("blue-a", "nodeA", BLUE)),
            true,
            existing("blue-b", "nodeB", BLUE),
            List.of(OK, OK)),
        Arguments.argumentSet(
            "affinity: without a change nodeB stays rejected",
            blueWithAffinityToBlue,
            List.of(existing("blue-a", "nodeA", BLUE)),
            true,
            existing("red-b", "nodeB", Map.of("color", "red")),
            List.of(OK, AFFINITY)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void boundCheckFollowsAddPodAndRemovePod(
      V1Pod incoming, List<V1Pod> pods, boolean add, V1Pod changed, List<Status> want) {
    FakeHandle handle = FakeHandle.of(abNodes(), pods);
    InterPodAffinity plugin = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
    PodInfo pod = PodInfo.of(incoming);
    CycleState state = new CycleState();
    assertThat(plugin.preFilter(state, pod, handle.nodes())).isEqualTo(PreFilterResult.success());
    CycleBoundFilter.NodeCheck check = plugin.bindFilter(state, pod);
    NodeInfo[] nodes = handle.nodes().toArray(new NodeInfo[0]);
    check.filterAll(nodes, nodes.length, null, null, new Status[nodes.length]);

    PodInfo changedInfo = PodInfo.of(changed);
    NodeInfo on = handle.node(changed.getSpec().getNodeName());
    Status s =
        add
            ? plugin.addPod(state, pod, changedInfo, on)
            : plugin.removePod(state, pod, changedInfo, on);
    assertThat(s).isEqualTo(Status.success());

    Status[] bulk = new Status[nodes.length];
    check.filterAll(nodes, nodes.length, null, null, bulk);
    List<Status> plain = new ArrayList<>();
    List<Status> one = new ArrayList<>();
    for (NodeInfo n : nodes) {
      plain.add(plugin.filter(state, pod, n));
      one.add(check.filter(n));
    }
    assertThat(plain).isEqualTo(want);
    assertThat(one).isEqualTo(want);
    assertThat(List.of(bulk)).isEqualTo(want);
  }
}
