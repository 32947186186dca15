package io.kubesched.plugins.interpodaffinity;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PreFilter counters, AddPod/RemovePod on cloned states and the PreFilter error paths of
 * InterPodAffinity (kube's TestPreFilterStateAddRemovePod and TestPreFilterDisabled).
 */
final class InterPodAffinityStateTest {
  static final Status OK = Status.success();
  static final Status AFFINITY =
      Status.unresolvable(InterPodAffinity.REASON_AFFINITY_RULES_NOT_MATCH);
  static final Status ANTI =
      Status.unschedulable(InterPodAffinity.REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
  static final Status EXISTING_ANTI =
      Status.unschedulable(InterPodAffinity.REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);

  static final List<V1Node> NODES =
      List.of(
          MakeNode.node().name("nodeA").label("region", "r1").label("zone", "z11").obj(),
          MakeNode.node().name("nodeB").label("region", "r1").label("zone", "z12").obj(),
          MakeNode.node().name("nodeC").label("region", "r2").label("zone", "z21").obj());

  /** The three counters, rendered as sorted {@code key=value -> count} maps. */
  record Counters(Map<String, Long> existingAnti, Map<String, Long> affinity,
      Map<String, Long> anti) {
    static Counters of(PreFilterState s) {
      return new Counters(
          s.existingAntiAffinity.asMap(), s.affinity.asMap(), s.antiAffinity.asMap());
    }
  }

  static Stream<Arguments> cases() {
    V1Pod affinityAndAnti =
        MakePod.pod().name("p").label("foo", "")
            .podAffinityExists("region", "foo")
            .podAntiAffinityExists("zone", "bar")
            .obj();
    return Stream.of(
        Arguments.argumentSet(
            "add a pod matching the affinity term of the incoming pod",
            affinityAndAnti,
            List.of(MakePod.pod().name("e1").node("nodeA").label("foo", "").obj()),
            MakePod.pod().name("added").node("nodeC").label("foo", "").obj(),
            true,
            new Counters(Map.of(), Map.of("region=r1", 1L), Map.of()),
            new Counters(Map.of(), Map.of("region=r1", 1L, "region=r2", 1L), Map.of()),
            List.of(OK, OK, OK)),
        Arguments.argumentSet(
            "add a pod matching the anti-affinity term of the incoming pod",
            affinityAndAnti,
            List.of(MakePod.pod().name("e1").node("nodeA").label("foo", "").obj()),
            MakePod.pod().name("added").node("nodeB").label("bar", "").obj(),
            true,
            new Counters(Map.of(), Map.of("region=r1", 1L), Map.of()),
            new Counters(Map.of(), Map.of("region=r1", 1L), Map.of("zone=z12", 1L)),
            List.of(OK, ANTI, AFFINITY)),
        Arguments.argumentSet(
            "add a pod whose anti-affinity selects the incoming pod",
            affinityAndAnti,
            List.of(MakePod.pod().name("e1").node("nodeA").label("foo", "").obj()),
            MakePod.pod().name("added").node("nodeB").podAntiAffinityExists("region", "foo")
                .obj(),
            true,
            new Counters(Map.of(), Map.of("region=r1", 1L), Map.of()),
            new Counters(Map.of("region=r1", 1L), Map.of("region=r1", 1L), Map.of()),
            List.of(EXISTING_ANTI, EXISTING_ANTI, AFFINITY)),
        Arguments.argumentSet(
            "remove the only pod matching the affinity term: self-affinity applies again",
            affinityAndAnti,
            List.of(MakePod.pod().name("e1").node("nodeA").label("foo", "").obj()),
            MakePod.pod().name("e1").node("nodeA").label("foo", "").obj(),
            false,
            new Counters(Map.of(), Map.of("region=r1", 1L), Map.of()),
            new Counters(Map.of(), Map.of(), Map.of()),
            List.of(OK, OK, OK)),
        Arguments.argumentSet(
            "remove a pod whose anti-affinity selected the incoming pod",
            MakePod.pod().name("p").label("foo", "").obj(),
            List.of(
                MakePod.pod().name("e1").node("nodeA").podAntiAffinityExists("zone", "foo")
                    .obj(),
                MakePod.pod().name("e2").node("nodeC").podAntiAffinityExists("region", "foo")
                    .obj()),
            MakePod.pod().name("e2").node("nodeC").podAntiAffinityExists("region", "foo").obj(),
            false,
            new Counters(Map.of("region=r2", 1L, "zone=z11", 1L), Map.of(), Map.of()),
            new Counters(Map.of("zone=z11", 1L), Map.of(), Map.of()),
            List.of(EXISTING_ANTI, OK, OK)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void addOrRemovePodOnClone(
      V1Pod pod,
      List<V1Pod> existing,
      V1Pod changed,
      boolean add,
      Counters before,
      Counters after,
      List<Status> filterAfter) {
    FakeHandle handle = FakeHandle.of(NODES, existing);
    InterPodAffinity plugin = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
    PodInfo info = PodInfo.of(pod);
    CycleState state = new CycleState();
    assertThat(plugin.preFilter(state, info, handle.nodes())).isEqualTo(PreFilterResult.success());
    assertThat(Counters.of(state.get(InterPodAffinity.PRE_FILTER_KEY))).isEqualTo(before);

    CycleState clone = state.clone();
    PodInfo changedInfo = PodInfo.of(changed);
    Status s =
        add
            ? plugin.addPod(clone, info, changedInfo, handle.node(changed.getSpec().getNodeName()))
            : plugin.removePod(
                clone, info, changedInfo, handle.node(changed.getSpec().getNodeName()));

    assertThat(s).isEqualTo(OK);
    assertThat(Counters.of(clone.get(InterPodAffinity.PRE_FILTER_KEY))).isEqualTo(after);
    assertThat(Counters.of(state.get(InterPodAffinity.PRE_FILTER_KEY))).isEqualTo(before);
    assertThat(
            List.of(
                plugin.filter(clone, info, handle.node("nodeA")),
                plugin.filter(clone, info, handle.node("nodeB")),
                plugin.filter(clone, info, handle.node("nodeC"))))
        .isEqualTo(filterAfter);
  }

  @Test
  void preFilterRejectsAPodWhoseAffinityDoesNotParse() {
    V1Pod pod =
        MakePod.pod()
            .name("p")
            .affinity(
                new V1Affinity()
                    .podAffinity(
                        new V1PodAffinity()
                            .addRequiredDuringSchedulingIgnoredDuringExecutionItem(
                                new V1PodAffinityTerm()
                                    .topologyKey("zone")
                                    .labelSelector(
                                        new V1LabelSelector()
                                            .addMatchExpressionsItem(
                                                new V1LabelSelectorRequirement()
                                                    .key("foo")
                                                    .operator("Foo"))))))
            .obj();
    FakeHandle handle = FakeHandle.of(NODES, List.of());
    InterPodAffinity plugin = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);

    PreFilterResult r = plugin.preFilter(new CycleState(), PodInfo.of(pod), handle.nodes());

    assertThat(r)
        .isEqualTo(
            PreFilterResult.of(
                Status.unresolvable(
                    "parsing pod: \"Foo\" is not a valid label selector operator")));
  }

  @Test
  void preFilterSkipsWhenNoRequiredTermsApply() {
    FakeHandle handle =
        FakeHandle.of(
            NODES,
            List.of(
                MakePod.pod().name("e1").node("nodeA").podAntiAffinityExists("zone", "other")
                    .obj()));
    InterPodAffinity plugin = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
    CycleState state = new CycleState();

    assertThat(plugin.preFilter(state, MakePod.pod().name("p").label("foo", "").info(),
            handle.nodes()))
        .isEqualTo(PreFilterResult.skip());
    assertThat(state.read(InterPodAffinity.PRE_FILTER_KEY)).isEmpty();
  }
}
