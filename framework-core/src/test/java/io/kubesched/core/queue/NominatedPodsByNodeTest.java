package io.kubesched.core.queue;

import static io.kubesched.core.queue.QueueFixtures.gated;
import static io.kubesched.core.queue.QueueFixtures.nominated;
import static io.kubesched.core.queue.QueueFixtures.pod;
import static io.kubesched.core.queue.QueueFixtures.ungated;
import static io.kubesched.core.queue.QueueFixtures.withLabel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.queue.QueueFixtures.PrioritySort;
import io.kubesched.core.queue.QueueFixtures.TestClock;
import io.kubesched.core.runtime.EngineAccess;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queue keeps its nominated pods by node between calls and resolves again only the nodes that
 * changed: after every step of each case, the kept answer holds the very {@link PodInfo}s that
 * resolving every nomination anew gives (kube's {@code nominatedPodToInfo}: the active queue's, the
 * unschedulable pods', the backoff queue's, else a bare pod), node by node as for the whole map,
 * and a map handed out earlier has not changed.
 */
final class NominatedPodsByNodeTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String PROFILE = "default-scheduler";
  private static final String GATES = "SchedulingGates";

  /** The queue under test and its pods: a, b nominated to node1, c to node2, d to none. */
  private static final class Fixture {
    final TestClock clock = new TestClock(T0);
    final SchedulingQueue q;
    final V1Pod a = nominated(pod("a", 3), "node1");
    final V1Pod b = nominated(pod("b", 2), "node1");
    final V1Pod c = nominated(pod("c", 1), "node2");
    final V1Pod d = pod("d", 0);
    final List<QueuedPodInfo> popped = new ArrayList<>();

    Fixture() {
      Map<String, List<ClusterEventWithHint>> events = new LinkedHashMap<>();
      events.put("P", List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD)));
      events.put(
          GATES,
          List.of(
              ClusterEventWithHint.of(
                  EventResource.POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED)));
      q =
          new SchedulingQueue(
              clock,
              new PrioritySort(),
              Map.of(PROFILE, new QueueProfile(Fixture::gate, events)),
              SchedulingQueue.DEFAULT_INITIAL_BACKOFF,
              SchedulingQueue.DEFAULT_MAX_BACKOFF,
              SchedulingQueue.DEFAULT_MAX_IN_UNSCHEDULABLE);
      for (V1Pod p : List.of(a, b, c, d)) {
        q.add(p);
      }
    }

    private static Status gate(PodInfo p) {
      return p.schedulingGates().isEmpty()
          ? Status.success()
          : Status.unresolvable("waiting for scheduling gates").withPlugin(GATES);
    }

    void pop() {
      popped.add(q.tryPop().orElseThrow());
    }

    /** Fails the oldest popped pod: rejected by plugin P, or (no plugin) with an error. */
    void fail(boolean rejected) {
      QueuedPodInfo p = popped.remove(0);
      if (rejected) {
        EngineAccess.mutableUnschedulablePlugins(p).add("P");
      }
      q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
    }
  }

  /** One step of a case. */
  @FunctionalInterface
  private interface Step {
    void apply(Fixture f) throws Exception;
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet("pop: a bare pod stands for the pod in flight", steps(Fixture::pop)),
        argumentSet(
            "pop and fail: back among the unschedulable pods",
            steps(Fixture::pop, f -> f.fail(true))),
        argumentSet(
            "pop and fail with an error: to the backoff queue",
            steps(Fixture::pop, f -> f.fail(false))),
        argumentSet(
            "update in the active queue replaces the pod's PodInfo",
            steps(f -> f.q.update(f.a, withLabel(f.a, "x", "1")))),
        argumentSet(
            "update in the backoff queue",
            steps(
                Fixture::pop, f -> f.fail(false), f -> f.q.update(f.a, withLabel(f.a, "x", "1")))),
        argumentSet(
            "update among the unschedulable pods",
            steps(Fixture::pop, f -> f.fail(true), f -> f.q.update(f.a, withLabel(f.a, "x", "1")))),
        argumentSet(
            "update of the pod in flight, then its failure",
            steps(Fixture::pop, f -> f.q.update(f.a, withLabel(f.a, "x", "1")), f -> f.fail(true))),
        argumentSet("delete", steps(f -> f.q.delete(f.b))),
        argumentSet(
            "a cluster event moves the unschedulable pods",
            steps(
                Fixture::pop,
                Fixture::pop,
                f -> f.fail(true),
                f -> f.fail(true),
                f ->
                    f.q.moveAllToActiveOrBackoffQueue(
                        ClusterEvent.of(EventResource.NODE, ActionType.ADD), null, null, null))),
        argumentSet(
            "the backoff flush moves the completed pods",
            steps(
                Fixture::pop,
                f -> f.fail(false),
                f -> f.clock.advance(Duration.ofSeconds(20)),
                f -> f.q.flushBackoffQCompleted())),
        argumentSet(
            "pop from the backoff queue once the active queue is empty",
            steps(
                Fixture::pop,
                f -> f.fail(true),
                f ->
                    f.q.moveAllToActiveOrBackoffQueue(
                        ClusterEvent.of(EventResource.NODE, ActionType.ADD), null, null, null),
                Fixture::pop,
                Fixture::pop,
                Fixture::pop,
                Fixture::pop)),
        argumentSet(
            "the unschedulable pods' leftover flush",
            steps(
                Fixture::pop,
                f -> f.fail(true),
                f -> f.clock.advance(Duration.ofMinutes(6)),
                f -> f.q.flushUnschedulablePodsLeftover())),
        argumentSet(
            "activate", steps(Fixture::pop, f -> f.fail(true), f -> f.q.activate(List.of(f.a)))),
        argumentSet(
            "a nomination moves to another node",
            steps(f -> f.q.addNominatedPod(PodInfo.of(f.a), NominatingInfo.override("node3")))),
        argumentSet("a nomination is dropped", steps(f -> f.q.deleteNominatedPodIfExists(f.b))),
        argumentSet(
            "a nomination is cleared to the empty node name",
            steps(f -> f.q.addNominatedPod(PodInfo.of(f.c), NominatingInfo.override("")))),
        argumentSet(
            "the pod without nomination is nominated",
            steps(f -> f.q.addNominatedPod(PodInfo.of(f.d), NominatingInfo.override("node2")))),
        argumentSet(
            "a pod in no queue is nominated, then added",
            steps(
                f ->
                    f.q.addNominatedPod(
                        PodInfo.of(nominated(pod("z", 5), "node2")), NominatingInfo.noop()),
                f -> f.q.add(nominated(pod("z", 5), "node2")))),
        argumentSet(
            "the nominator updates a pod",
            steps(f -> f.q.updateNominatedPod(f.a, PodInfo.of(withLabel(f.a, "x", "2"))))),
        argumentSet(
            "a gated pod, then its gate removed",
            steps(
                f -> f.q.add(gated(nominated(pod("g", 4), "node2"), "gate")),
                f ->
                    f.q.update(
                        gated(nominated(pod("g", 4), "node2"), "gate"),
                        ungated(nominated(pod("g", 4), "node2"))))),
        argumentSet(
            "a pod of the same name and another UID replaces one",
            steps(f -> f.q.add(again(f)), f -> f.q.deleteNominatedPodIfExists(f.a), Fixture::pop)),
        argumentSet(
            "the queued pod of a name goes with the deletion of another UID of that name",
            steps(f -> f.q.add(again(f)), f -> f.q.delete(f.a))),
        argumentSet(
            "the same among the unschedulable pods",
            steps(f -> f.q.add(again(f)), Fixture::pop, f -> f.fail(true), f -> f.q.delete(f.a))));
  }

  /** Pod a again (another UID), nominated to node2. */
  private static V1Pod again(Fixture f) {
    V1Pod again = nominated(pod("a", 3), "node2");
    again.getMetadata().setUid("uid-a-again");
    return again;
  }

  private static List<Step> steps(Step... steps) {
    return List.of(steps);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void keptAnswerEqualsResolvingAnew(List<Step> steps) throws Exception {
    Fixture f = new Fixture();
    check(f, "after the set-up");
    for (int i = 0; i < steps.size(); i++) {
      Map<String, List<PodInfo>> before = f.q.nominatedPodsByNode();
      Map<String, List<PodInfo>> beforeCopy = copy(before);
      steps.get(i).apply(f);
      check(f, "after step " + (i + 1));
      assertThat(copy(before)).as("a map handed out before step %d", i + 1).isEqualTo(beforeCopy);
    }
  }

  private static void check(Fixture f, String when) {
    Map<String, List<PodInfo>> want = f.q.nominatedPodsByNodeResolvedAnew();
    Map<String, List<PodInfo>> got = f.q.nominatedPodsByNode();
    assertThat(got.keySet()).as(when).isEqualTo(want.keySet());
    Set<String> nodes = new HashSet<>(want.keySet());
    nodes.add("node3");
    for (String node : nodes) {
      List<PodInfo> expected = want.getOrDefault(node, List.of());
      assertSame(got.getOrDefault(node, List.of()), expected, when + ", the map, " + node);
      assertSame(f.q.nominatedPodsForNode(node), expected, when + ", node by node, " + node);
    }
  }

  /** The same PodInfo objects in the same order. */
  private static void assertSame(List<PodInfo> got, List<PodInfo> want, String what) {
    assertThat(got)
        .as(what)
        .usingElementComparator((x, y) -> x == y ? 0 : 1)
        .containsExactlyElementsOf(want);
  }

  private static Map<String, List<PodInfo>> copy(Map<String, List<PodInfo>> m) {
    Map<String, List<PodInfo>> out = new HashMap<>();
    m.forEach((k, v) -> out.put(k, new ArrayList<>(v)));
    return out;
  }
}
