package io.kubesched.plugins.sample.tracer;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.PodInfo;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class ExtensionPointTracerTest {
  @Test
  void tracesEveryCallWithoutChangingDecisions() {
    List<TraceEvent> events = new ArrayList<>();
    AtomicLong now = new AtomicLong();
    ExtensionPointTracer t = new ExtensionPointTracer(events::add, () -> now.addAndGet(1000));
    PodInfo pod = MakePod.pod().name("p").info();
    NodeInfo n = MakeNode.node().name("n1").info();
    CycleState s = new CycleState();
    assertThat(t.preEnqueue(pod).isSuccess()).isTrue();
    assertThat(t.preFilter(s, pod, List.of(n)).status().isSuccess()).isTrue();
    assertThat(t.filter(s, pod, n).isSuccess()).isTrue();
    assertThat(t.preScore(s, pod, List.of(n)).isSuccess()).isTrue();
    assertThat(t.score(s, pod, n)).isZero();
    assertThat(t.normalizeScore(s, pod, new NodeScores(List.of(n))).isSuccess()).isTrue();
    assertThat(t.reserve(s, pod, "n1").isSuccess()).isTrue();
    assertThat(t.permit(s, pod, "n1").status().isSuccess()).isTrue();
    assertThat(t.preBind(s, pod, "n1").isSuccess()).isTrue();
    assertThat(t.bind(s, pod, "n1").isSkip()).isTrue();
    t.postBind(s, pod, "n1");
    assertThat(events)
        .extracting(TraceEvent::extensionPoint)
        .containsExactly(
            "PreEnqueue",
            "PreFilter",
            "Filter",
            "PreScore",
            "Score",
            "NormalizeScore",
            "Reserve",
            "Permit",
            "PreBind",
            "Bind",
            "PostBind");
    assertThat(events.get(2).node()).isEqualTo("n1");
    assertThat(events.get(2).pod()).isEqualTo("default/p");
    assertThat(events.get(2).sinceCycleStart().toNanos()).isPositive();
  }

  @Test
  void postFilterDefersToTheNextPlugin() {
    ExtensionPointTracer t = new ExtensionPointTracer(e -> {}, System::nanoTime);
    var r = t.postFilter(new CycleState(), MakePod.pod().name("p").info(), null);
    assertThat(r.status().code().toString()).isEqualTo("Unschedulable");
    assertThat(r.status().reasons()).isEmpty();
  }
}
