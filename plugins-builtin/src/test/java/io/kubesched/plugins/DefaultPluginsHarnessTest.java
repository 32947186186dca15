package io.kubesched.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.Status;
import io.kubesched.plugins.imagelocality.ImageLocalityProvider;
import io.kubesched.plugins.nodeaffinity.NodeAffinityProvider;
import io.kubesched.plugins.nodename.NodeNameProvider;
import io.kubesched.plugins.nodeports.NodePortsProvider;
import io.kubesched.plugins.noderesources.BalancedAllocationProvider;
import io.kubesched.plugins.noderesources.FitProvider;
import io.kubesched.plugins.nodeunschedulable.NodeUnschedulableProvider;
import io.kubesched.plugins.tainttoleration.TaintTolerationProvider;
import io.kubesched.testing.FrameworkHarness;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the default Filter and Score plugins together through the real framework, with kube's
 * default weights (TaintToleration 3, NodeAffinity 2, the others 1).
 */
final class DefaultPluginsHarnessTest {

  private static FrameworkHarness harness(List<V1Node> nodes) {
    NodeUnschedulableProvider unschedulable = new NodeUnschedulableProvider();
    NodeNameProvider nodeName = new NodeNameProvider();
    TaintTolerationProvider taints = new TaintTolerationProvider();
    NodeAffinityProvider affinity = new NodeAffinityProvider();
    NodePortsProvider ports = new NodePortsProvider();
    FitProvider fit = new FitProvider();
    BalancedAllocationProvider balanced = new BalancedAllocationProvider();
    ImageLocalityProvider images = new ImageLocalityProvider();
    return FrameworkHarness.builder()
        .provider(unschedulable, unschedulable.defaultArgs(), 1)
        .provider(nodeName, nodeName.defaultArgs(), 1)
        .provider(taints, taints.defaultArgs(), 3)
        .provider(affinity, affinity.defaultArgs(), 2)
        .provider(ports, ports.defaultArgs(), 1)
        .provider(fit, fit.defaultArgs(), 1)
        .provider(balanced, balanced.defaultArgs(), 1)
        .provider(images, images.defaultArgs(), 1)
        .nodes(nodes)
        .pods(
            MakePod.pod().name("running").node("node-b").req("cpu", "1", "memory", "1Gi").obj(),
            MakePod.pod().name("web").node("node-d").req("cpu", "100m").hostPort(80).obj())
        .build();
  }

  @Test
  void filtersAndScoresWithTheDefaultWeights() {
    FrameworkHarness h =
        harness(
            List.of(
                MakeNode.node()
                    .name("node-a")
                    .capacity("cpu", "4", "memory", "8Gi")
                    .taint("dedicated", "gpu", "NoSchedule")
                    .obj(),
                MakeNode.node()
                    .name("node-b")
                    .label("zone", "z1")
                    .capacity("cpu", "2", "memory", "4Gi")
                    .obj(),
                MakeNode.node()
                    .name("node-c")
                    .label("zone", "z2")
                    .capacity("cpu", "4", "memory", "8Gi")
                    .taint("spot", "true", "PreferNoSchedule")
                    .obj(),
                MakeNode.node().name("node-d").capacity("cpu", "4", "memory", "8Gi").obj(),
                MakeNode.node().name("node-e").capacity("cpu", "500m", "memory", "8Gi").obj(),
                MakeNode.node()
                    .name("node-f")
                    .capacity("cpu", "4", "memory", "8Gi")
                    .unschedulable(true)
                    .obj()));
    FrameworkHarness.Result r =
        h.run(
            MakePod.pod()
                .name("p")
                .req("cpu", "1", "memory", "1Gi")
                .hostPort(80)
                .preferredNodeAffinity(5, "zone", "z2")
                .info());

    assertThat(r.filterStatus("node-a"))
        .isEqualTo(
            Status.unresolvable("node(s) had untolerated taint {dedicated: gpu}")
                .withPlugin(PluginNames.TAINT_TOLERATION));
    assertThat(r.filterStatus("node-d"))
        .isEqualTo(
            Status.unschedulable("node(s) didn't have free ports for the requested pod ports")
                .withPlugin(PluginNames.NODE_PORTS));
    assertThat(r.filterStatus("node-e"))
        .isEqualTo(
            Status.unschedulable("Insufficient cpu").withPlugin(PluginNames.NODE_RESOURCES_FIT));
    assertThat(r.filterStatus("node-f"))
        .isEqualTo(
            Status.unresolvable("node(s) were unschedulable")
                .withPlugin(PluginNames.NODE_UNSCHEDULABLE));
    assertThat(r.feasibleNodes()).containsExactly("node-b", "node-c");

    // node-b: cpu 2000/2000 -> 0, memory 2Gi/4Gi -> 50, least allocated (0+50)/2 = 25;
    //         balanced 1 - |1 - 0.5|/2 = 0.75 -> 75; no PreferNoSchedule taint -> 100.
    // node-c: cpu 1000/4000 -> 75, memory 1Gi/8Gi -> 87, (75+87)/2 = 81;
    //         balanced 1 - |0.25 - 0.125|/2 -> 93; one untolerated PreferNoSchedule -> 0;
    //         the preferred zone term -> 100.
    assertThat(r.scores(PluginNames.NODE_RESOURCES_FIT))
        .containsExactly(new NodeScore("node-b", 25), new NodeScore("node-c", 81));
    assertThat(r.scores(PluginNames.NODE_RESOURCES_BALANCED_ALLOCATION))
        .containsExactly(new NodeScore("node-b", 75), new NodeScore("node-c", 93));
    assertThat(r.scores(PluginNames.TAINT_TOLERATION))
        .containsExactly(new NodeScore("node-b", 100), new NodeScore("node-c", 0));
    assertThat(r.scores(PluginNames.NODE_AFFINITY))
        .containsExactly(new NodeScore("node-b", 0), new NodeScore("node-c", 100));
    assertThat(r.scores(PluginNames.IMAGE_LOCALITY))
        .containsExactly(new NodeScore("node-b", 0), new NodeScore("node-c", 0));
    assertThat(r.totalScores())
        .containsExactly(new NodeScore("node-b", 400), new NodeScore("node-c", 374));
  }
}
