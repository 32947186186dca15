package io.kubesched.plugins.defaultpreemption;

import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.HIGH;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.LOW;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.MID;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.VERY_HIGH;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.node;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.pdb;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.FailingExtensions;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.FakeHandle;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.NodeStatuses;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.ResourceFit;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.ScriptedRandom;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** PostFilter of DefaultPreemption, ported from kube-scheduler's {@code TestPostFilter}. */
final class DefaultPreemptionTest {

  private static List<V1Node> onePodNodes(String... names) {
    return Stream.of(names).map(n -> node(n, 1, 0, 0)).toList();
  }

  /** kube's {@code nodeRes}: 200m CPU, 400 bytes, 32 pods. */
  private static List<V1Node> smallNodes(String... names) {
    return Stream.of(names).map(n -> node(n, 32, 200, 400)).toList();
  }

  private static NodeStatuses unschedulable(String... names) {
    return NodeStatuses.allUnschedulable(List.of(names));
  }

  static Stream<Arguments> postFilterCases() {
    return Stream.of(
        argumentSet(
            "pod with higher priority can be made schedulable",
            pod("p").priority(HIGH).obj(),
            List.of(pod("p1").node("node1").obj()),
            onePodNodes("node1"),
            List.of(),
            unschedulable("node1"),
            false,
            PostFilterResult.nominate("node1")),
        argumentSet(
            "pod with tied priority is still unschedulable",
            pod("p").obj(),
            List.of(pod("p1").node("node1").obj()),
            onePodNodes("node1"),
            List.of(),
            unschedulable("node1"),
            false,
            new PostFilterResult(
                Status.unschedulable(
                    "preemption: 0/1 nodes are available: 1 No preemption victims found for"
                        + " incoming pod."),
                NominatingInfo.override(""))),
        argumentSet(
            "preemption should respect filteredNodesStatuses",
            pod("p").priority(HIGH).obj(),
            List.of(pod("p1").node("node1").obj()),
            onePodNodes("node1"),
            List.of(),
            new NodeStatuses(Map.of("node1", Status.unresolvable()), Status.unresolvable()),
            false,
            new PostFilterResult(
                Status.unschedulable(
                    "preemption: 0/1 nodes are available: 1 Preemption is not helpful for"
                        + " scheduling."),
                NominatingInfo.override(""))),
        argumentSet(
            "preemption should respect absent NodeToStatusReader entry meaning"
                + " UnschedulableAndUnresolvable",
            pod("p").priority(HIGH).obj(),
            List.of(pod("p1").node("node1").obj()),
            onePodNodes("node1"),
            List.of(),
            new NodeStatuses(Map.of(), Status.unresolvable()),
            false,
            new PostFilterResult(
                Status.unschedulable(
                    "preemption: 0/1 nodes are available: 1 Preemption is not helpful for"
                        + " scheduling."),
                NominatingInfo.override(""))),
        argumentSet(
            "pod can be made schedulable on one node",
            pod("p").priority(MID).obj(),
            List.of(
                pod("p1").priority(HIGH).node("node1").obj(),
                pod("p2").priority(LOW).node("node2").obj()),
            onePodNodes("node1", "node2"),
            List.of(),
            unschedulable("node1", "node2"),
            false,
            PostFilterResult.nominate("node2")),
        argumentSet(
            "pod can be made schedulable on minHighestPriority node",
            pod("p").priority(VERY_HIGH).obj(),
            List.of(
                pod("p1").label("pdb", "non-violating").priority(HIGH).node("node1").obj(),
                pod("p2").label("pdb", "violating").priority(LOW).node("node1").obj(),
                pod("p3").label("pdb", "violating").priority(MID).node("node2").obj()),
            onePodNodes("node1", "node2"),
            List.of(
                pdb("violating-pdb", "pdb", "violating", 0),
                pdb("non-violating-pdb", "pdb", "non-violating", Integer.MAX_VALUE)),
            unschedulable("node1", "node2"),
            false,
            PostFilterResult.nominate("node2")),
        argumentSet(
            "no candidate nodes found, no enough resource after removing low priority pods",
            pod("p").priority(HIGH).req(300, 300).obj(),
            List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").obj()),
            smallNodes("node1", "node2"),
            List.of(),
            unschedulable("node1", "node2"),
            false,
            new PostFilterResult(
                Status.unschedulable("preemption: 0/2 nodes are available: 2 Insufficient cpu."),
                NominatingInfo.override(""))),
        argumentSet(
            "no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU"
                + " resource",
            pod("p").priority(HIGH).req(300, 300).obj(),
            List.of(
                pod("p1").node("node1").priority(HIGH).obj(),
                pod("p2").node("node2").obj(),
                pod("p3").node("node3").priority(HIGH).obj()),
            List.of(node("node1", 1, 0, 0), node("node2", 32, 200, 400), node("node3", 1, 0, 0)),
            List.of(),
            unschedulable("node1", "node2", "node3"),
            false,
            new PostFilterResult(
                Status.unschedulable(
                    "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption"
                        + " victims found for incoming pod."),
                NominatingInfo.override(""))),
        argumentSet(
            "no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and"
                + " 2 nodes don't have enough CPU resource",
            pod("p").priority(HIGH).req(300, 300).obj(),
            List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").obj()),
            smallNodes("node1", "node2", "node3", "node4"),
            List.of(),
            new NodeStatuses(
                Map.of(
                    "node1", Status.unschedulable(),
                    "node2", Status.unschedulable(),
                    "node4", Status.unresolvable()),
                Status.unresolvable()),
            false,
            new PostFilterResult(
                Status.unschedulable(
                    "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not"
                        + " helpful for scheduling."),
                NominatingInfo.override(""))),
        argumentSet(
            "only one node but failed with TestPlugin",
            pod("p").priority(HIGH).req(300, 300).obj(),
            List.of(pod("p1").node("node1").obj()),
            List.of(errorLabelled(node("node1", 32, 300, 300))),
            List.of(),
            unschedulable("node1"),
            true,
            PostFilterResult.of(
                Status.error(
                    "preemption: running RemovePod on PreFilter plugin \"test-plugin\": failed to"
                        + " remove pod: p"))),
        argumentSet(
            "one failed with TestPlugin and the other pass",
            pod("p").priority(HIGH).req(300, 300).obj(),
            List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").req(200, 200).obj()),
            List.of(errorLabelled(node("node1", 32, 300, 300)), node("node2", 32, 300, 300)),
            List.of(),
            unschedulable("node1", "node2"),
            true,
            PostFilterResult.nominate("node2")),
        argumentSet(
            "pod with preemptionPolicy Never is not eligible",
            pod("p").priority(HIGH).neverPreempt().obj(),
            List.of(pod("p1").node("node1").obj()),
            onePodNodes("node1"),
            List.of(),
            unschedulable("node1"),
            false,
            PostFilterResult.of(
                Status.unschedulable("preemption: not eligible due to preemptionPolicy=Never."))),
        argumentSet(
            "pod whose victims on its nominated node are still terminating waits",
            pod("p").priority(HIGH).nominated("node1").obj(),
            List.of(pod("p1").node("node1").terminatingByPreemption().obj()),
            onePodNodes("node1"),
            List.of(),
            unschedulable("node1"),
            false,
            PostFilterResult.of(
                Status.unschedulable(
                    "preemption: not eligible due to a terminating pod on the nominated node."))),
        argumentSet(
            "no node where preemption may help clears the nomination",
            pod("p").priority(HIGH).nominated("node1").obj(),
            List.of(pod("p1").node("node1").obj()),
            onePodNodes("node1", "node2"),
            List.of(),
            new NodeStatuses(
                Map.of("node1", Status.unresolvable("node(s) were unschedulable")),
                Status.unresolvable()),
            false,
            new PostFilterResult(
                Status.unschedulable(
                    "preemption: 0/2 nodes are available: 2 Preemption is not helpful for"
                        + " scheduling."),
                NominatingInfo.override(""))));
  }

  private static V1Node errorLabelled(V1Node n) {
    n.getMetadata().putLabelsItem("error", "true");
    return n;
  }

  @ParameterizedTest
  @MethodSource("postFilterCases")
  void postFilter(
      V1Pod preemptor,
      List<V1Pod> pods,
      List<V1Node> nodes,
      List<V1PodDisruptionBudget> pdbs,
      NodeStatuses statuses,
      boolean failingExtensions,
      PostFilterResult want) {
    FakeHandle h = new FakeHandle().with(nodes, pods).filter(new ResourceFit());
    h.client.add(preemptor);
    h.client.pdbs.addAll(pdbs);
    if (failingExtensions) {
      h.extensions.add(new FailingExtensions());
    }
    DefaultPreemption pl =
        new DefaultPreemption(DefaultPreemptionArgs.defaults(), h, new ScriptedRandom(0));

    PostFilterResult got = pl.postFilter(new CycleState(), PodInfo.of(preemptor), statuses);

    assertThat(got).isEqualTo(want);
  }
}
