package io.kubesched.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class FakePluginsTest {
  private final CycleState state = new CycleState();
  private final PodInfo pod = MakePod.pod().name("p").info();
  private final NodeInfo n1 = MakeNode.node().name("n1").info();
  private final NodeInfo n2 = MakeNode.node().name("n2").info();

  @Test
  void trueAndFalseFilters() {
    TrueFilterPlugin yes = new TrueFilterPlugin();
    FalseFilterPlugin no = new FalseFilterPlugin("Nope");

    assertThat(yes.filter(state, pod, n1)).isEqualTo(Status.success());
    assertThat(no.filter(state, pod, n1))
        .isEqualTo(Status.unschedulable("Nodes failed the fake plugin"));
    no.filter(state, pod, n2);
    assertThat(yes.name()).isEqualTo("TrueFilter");
    assertThat(no.name()).isEqualTo("Nope");
    assertThat(yes.calls()).isEqualTo(1);
    assertThat(no.calls()).isEqualTo(2);
  }

  @Test
  void fakeFilterFailsTheNamedNodes() {
    FakeFilterPlugin plugin =
        FakeFilterPlugin.failing(
            Map.of("n1", Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "n3", Status.Code.ERROR));

    assertThat(plugin.filter(state, pod, n1))
        .isEqualTo(Status.unresolvable("injecting failure for pod p"));
    assertThat(plugin.filter(state, pod, n2)).isEqualTo(Status.success());
    StatusAssert.assertThat(plugin.filter(state, pod, MakeNode.node().name("n3").info()))
        .isError()
        .hasMessage("injecting failure for pod p");
    assertThat(plugin.calls()).isEqualTo(3);
  }

  @Test
  void matchFilterAcceptsTheNodeNamedLikeThePod() {
    MatchFilterPlugin plugin = new MatchFilterPlugin();
    PodInfo named = MakePod.pod().name("n2").info();

    assertThat(plugin.filter(state, named, n2)).isEqualTo(Status.success());
    StatusAssert.assertThat(plugin.filter(state, named, n1)).isRejected();
  }

  @Test
  void permitAndPreFilterFakes() {
    FakePermitPlugin waiting = FakePermitPlugin.waiting("W", Duration.ofSeconds(10));
    FakePermitPlugin rejecting = FakePermitPlugin.rejecting("R");
    FakePreFilterPlugin narrowing = new FakePreFilterPlugin(PreFilterResult.nodes(Set.of("n1")));

    assertThat(waiting.permit(state, pod, "n1"))
        .isEqualTo(new PermitResult(Status.waiting(), Duration.ofSeconds(10)));
    assertThat(FakePermitPlugin.allowing("A").permit(state, pod, "n1"))
        .isEqualTo(PermitResult.allow());
    assertThat(rejecting.permit(state, pod, "n1").status())
        .isEqualTo(Status.unschedulable(FakePermitPlugin.REASON_REJECTED));
    assertThat(narrowing.preFilter(state, pod, List.of(n1, n2)).nodeNames())
        .isEqualTo(Set.of("n1"));
    assertThat(List.of(waiting.calls(), rejecting.calls(), narrowing.calls()))
        .isEqualTo(List.of(1, 1, 1));
  }

  @Test
  void countingPluginCountsEachPoint() {
    CountingPlugin plugin = new CountingPlugin("Counter", 7);

    plugin.preFilter(state, pod, List.of(n1, n2));
    plugin.filter(state, pod, n1);
    plugin.filter(state, pod, n2);
    assertThat(plugin.score(state, pod, n1)).isEqualTo(7);
    assertThat(plugin.bind(state, pod, "n1")).isEqualTo(Status.skip());

    assertThat(plugin.calls(CountingPlugin.Point.FILTER)).isEqualTo(2);
    assertThat(plugin.calls(CountingPlugin.Point.PRE_FILTER)).isEqualTo(1);
    assertThat(plugin.calls(CountingPlugin.Point.PERMIT)).isZero();
    assertThat(plugin.calls()).isEqualTo(5);
    plugin.reset();
    assertThat(plugin.calls()).isZero();
    assertThat(plugin.callsByPoint().values()).containsOnly(0);
  }

  @Test
  void countersBelongToTheInstance() {
    TrueFilterPlugin a = new TrueFilterPlugin();
    TrueFilterPlugin b = new TrueFilterPlugin();

    a.filter(state, pod, n1);

    assertThat(b.calls()).isZero();
  }
}
