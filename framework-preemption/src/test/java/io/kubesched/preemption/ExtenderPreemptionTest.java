package io.kubesched.preemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.runtime.SchedulerExtender;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The extenders' say on preemption candidates (kube's {@code callExtenders}). */
final class ExtenderPreemptionTest {
  private static final PodInfo PREEMPTOR = pod("preemptor", null);
  private static final PodInfo V1 = pod("v1", "n1");
  private static final PodInfo V2 = pod("v2", "n2");
  private static final PodInfo V3 = pod("v3", "n2");

  private static PodInfo pod(String name, String node) {
    return PodInfo.of(
        new V1Pod()
            .metadata(new V1ObjectMeta().name(name).namespace("default").uid("uid-" + name))
            .spec(new V1PodSpec().nodeName(node)));
  }

  /** A scripted preemption extender. */
  private record Scripted(
      String name,
      boolean supportsPreemption,
      boolean interested,
      boolean isIgnorable,
      Function<Map<String, Victims>, Map<String, Victims>> answer)
      implements SchedulerExtender {
    @Override
    public boolean isFilter() {
      return false;
    }

    @Override
    public boolean isPrioritizer() {
      return false;
    }

    @Override
    public boolean isInterested(PodInfo pod) {
      return interested;
    }

    @Override
    public long weight() {
      return 1;
    }

    @Override
    public FilterResult filter(PodInfo pod, List<NodeInfo> nodes) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, Long> prioritize(PodInfo pod, List<NodeInfo> nodes) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, Victims> processPreemption(
        PodInfo pod, Map<String, Victims> nodeNameToVictims, NodeInfoLister nodeInfos) {
      return answer.apply(nodeNameToVictims);
    }
  }

  private static SchedulerExtender ext(
      boolean ignorable,
      Function<Map<String, SchedulerExtender.Victims>, Map<String, SchedulerExtender.Victims>>
          answer) {
    return new Scripted("ext", true, true, ignorable, answer);
  }

  private static Map<String, SchedulerExtender.Victims> only(
      String node, long violations, PodInfo... pods) {
    Map<String, SchedulerExtender.Victims> m = new LinkedHashMap<>();
    m.put(node, new SchedulerExtender.Victims(List.of(pods), violations));
    return m;
  }

  private static final List<Candidate> CANDIDATES =
      List.of(new Candidate("n1", List.of(V1), 0), new Candidate("n2", List.of(V2, V3), 1));

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet("no extender keeps the candidates", List.of(), CANDIDATES, Status.success()),
        argumentSet(
            "an extender without preempt verb is not asked",
            List.of(new Scripted("x", false, true, false, m -> Map.of())),
            CANDIDATES,
            Status.success()),
        argumentSet(
            "an uninterested extender is not asked",
            List.of(new Scripted("x", true, false, false, m -> Map.of())),
            CANDIDATES,
            Status.success()),
        argumentSet(
            "the extender narrows the candidates and the victims",
            List.of(ext(false, m -> only("n2", 0, V3))),
            List.of(new Candidate("n2", List.of(V3), 0)),
            Status.success()),
        argumentSet(
            "each extender gets what the previous one returned",
            List.of(
                ext(false, m -> only("n2", 1, V2, V3)),
                ext(false, m -> m.containsKey("n1") ? Map.of() : only("n2", 1, V2))),
            List.of(new Candidate("n2", List.of(V2), 1)),
            Status.success()),
        argumentSet(
            "an empty answer leaves no candidate",
            List.of(ext(false, m -> Map.of()), ext(false, m -> only("n1", 0, V1))),
            List.of(),
            Status.success()),
        argumentSet(
            "an error fails preemption",
            List.of(
                ext(
                    false,
                    m -> {
                      throw new SchedulingException("extender down");
                    })),
            List.of(),
            Status.error("extender down")),
        argumentSet(
            "an ignorable extender's error is skipped",
            List.of(
                ext(
                    true,
                    m -> {
                      throw new SchedulingException("extender down");
                    })),
            CANDIDATES,
            Status.success()),
        argumentSet(
            "a node without victims fails preemption",
            List.of(ext(false, m -> only("n1", 0))),
            List.of(),
            Status.error("expected at least one victim pod on node \"n1\"")),
        argumentSet(
            "a node without victims from an ignorable extender is dropped",
            List.of(
                ext(
                    true,
                    m -> {
                      Map<String, SchedulerExtender.Victims> r = new LinkedHashMap<>(only("n1", 0));
                      r.putAll(only("n2", 0, V2));
                      return r;
                    })),
            List.of(new Candidate("n2", List.of(V2), 0)),
            Status.success()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void extendersNarrowTheCandidates(
      List<SchedulerExtender> extenders, List<Candidate> want, Status wantStatus) {
    Snapshot snapshot = Snapshot.empty();

    ExtenderPreemption.Outcome out =
        ExtenderPreemption.call(extenders, PREEMPTOR, CANDIDATES, snapshot);

    assertThat(out.status()).isEqualTo(wantStatus);
    if (wantStatus.isSuccess()) {
      assertThat(out.candidates()).isEqualTo(want);
    }
  }
}
