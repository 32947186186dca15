package io.kubesched.core.queue;

import static io.kubesched.core.queue.QueueFixtures.gated;
import static io.kubesched.core.queue.QueueFixtures.nominated;
import static io.kubesched.core.queue.QueueFixtures.pod;
import static io.kubesched.core.queue.QueueFixtures.ungated;
import static io.kubesched.core.queue.QueueFixtures.withLabel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.QueueingHintFunction;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mockito.ArgumentMatchers;
import org.mockito.Mockito;

final class SchedulingQueueTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String PROFILE = "default-scheduler";
  private static final String GATES = "SchedulingGates";

  private final TestClock clock = new TestClock(T0);

  private static QueueSizes sizes(int active, int backoff, int unsched, int gated) {
    return new QueueSizes(active, backoff, unsched, gated);
  }

  /**
   * Plugin P registers Node/Add (with {@code hint}) and Pod/Delete; Q registers
   * Node/UpdateNodeLabel.
   */
  private static Map<String, List<ClusterEventWithHint>> events(QueueingHintFunction hint) {
    Map<String, List<ClusterEventWithHint>> m = new java.util.LinkedHashMap<>();
    m.put(
        "P",
        List.of(
            ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD, hint),
            ClusterEventWithHint.of(EventResource.POD, ActionType.DELETE),
            ClusterEventWithHint.of(EventResource.POD, ActionType.UPDATE_POD_LABEL)));
    m.put("Q", List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.UPDATE_NODE_LABEL)));
    m.put(
        GATES,
        List.of(
            ClusterEventWithHint.of(
                EventResource.POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED)));
    return m;
  }

  private static Status gate(PodInfo p) {
    return p.schedulingGates().isEmpty()
        ? Status.success()
        : Status.unresolvable("waiting for scheduling gates").withPlugin(GATES);
  }

  private SchedulingQueue queue(QueueingHintFunction hint) {
    return new SchedulingQueue(
        clock,
        new PrioritySort(),
        Map.of(PROFILE, new QueueProfile(SchedulingQueueTest::gate, events(hint))),
        SchedulingQueue.DEFAULT_INITIAL_BACKOFF,
        SchedulingQueue.DEFAULT_MAX_BACKOFF,
        SchedulingQueue.DEFAULT_MAX_IN_UNSCHEDULABLE);
  }

  private SchedulingQueue queue() {
    return queue(null);
  }

  /** Pops the pod and fails it, rejected by {@code unschedulable} and {@code pending} plugins. */
  private static QueuedPodInfo popAndFail(
      SchedulingQueue q, List<String> unsched, List<String> pending) throws InterruptedException {
    QueuedPodInfo p = q.pop();
    fail(q, p, unsched, pending);
    return p;
  }

  private static void fail(
      SchedulingQueue q, QueuedPodInfo p, List<String> unsched, List<String> pending) {
    EngineAccess.mutableUnschedulablePlugins(p).addAll(unsched);
    EngineAccess.mutablePendingPlugins(p).addAll(pending);
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
  }

  private static List<String> names(List<V1Pod> pods) {
    List<String> out = new ArrayList<>();
    for (V1Pod p : pods) {
      out.add(p.getMetadata().getName());
    }
    return out;
  }

  // ---- backoff ---------------------------------------------------------------------------------

  static Stream<Arguments> backoffDurations() {
    return Stream.of(
        argumentSet("no attempt, no backoff", 1_000_000_000L, 10_000_000_000L, 0, 0L),
        argumentSet(
            "first attempt gets the initial backoff",
            1_000_000_000L,
            10_000_000_000L,
            1,
            1_000_000_000L),
        argumentSet(
            "third attempt doubles twice", 1_000_000_000L, 10_000_000_000L, 3, 4_000_000_000L),
        argumentSet(
            "fifth attempt is capped at max", 1_000_000_000L, 10_000_000_000L, 5, 10_000_000_000L),
        argumentSet("normal (kube)", 1L, 32L, 16, 32L),
        argumentSet(
            "overflow 32 bit (kube)", 1L, (long) Integer.MAX_VALUE, 32, (long) Integer.MAX_VALUE),
        argumentSet("overflow 64 bit (kube)", 1L, Long.MAX_VALUE, 64, Long.MAX_VALUE),
        argumentSet(
            "overflow 64 bit with many attempts (kube)", 1L, Long.MAX_VALUE, 1000, Long.MAX_VALUE));
  }

  @ParameterizedTest
  @MethodSource("backoffDurations")
  void backoffDurationDoublesUpToTheMaximum(long initialNs, long maxNs, int attempts, long wantNs) {
    SchedulingQueue q =
        new SchedulingQueue(
            clock,
            new PrioritySort(),
            Map.of(),
            Duration.ofNanos(initialNs),
            Duration.ofNanos(maxNs),
            Duration.ofMinutes(5));
    assertThat(q.backoffDuration(attempts)).isEqualTo(Duration.ofNanos(wantNs));
  }

  static Stream<Arguments> backoffPerAttempt() {
    return Stream.of(
        argumentSet("1st failure backs off 1 s", 1, 1),
        argumentSet("2nd failure backs off 2 s", 2, 2),
        argumentSet("3rd failure backs off 4 s", 3, 4),
        argumentSet("4th failure backs off 8 s", 4, 8),
        argumentSet("5th failure backs off 10 s (max)", 5, 10),
        argumentSet("6th failure backs off 10 s (max)", 6, 10));
  }

  @ParameterizedTest
  @MethodSource("backoffPerAttempt")
  void errorPodWaitsItsBackoffThenTheFlushMovesIt(int failures, int backoffSeconds)
      throws InterruptedException {
    SchedulingQueue q = queue();
    q.add(pod("p"));
    for (int i = 1; i <= failures; i++) {
      if (i > 1) {
        clock.set(q.nextBackoffExpiry().orElseThrow());
        q.flushBackoffQCompleted();
      }
      popAndFail(q, List.of(), List.of());
    }
    Instant failedAt = clock.instant();
    Instant expiry = failedAt.plusSeconds(backoffSeconds);
    assertThat(q.get("ns", "p").orElseThrow().backoffExpiration()).isEqualTo(expiry);
    // The expiry's own second still counts as backing off; the flush moves it one second later.
    assertThat(q.nextBackoffExpiry()).contains(expiry.plusSeconds(1));
    clock.set(expiry.plusMillis(999));
    q.flushBackoffQCompleted();
    assertThat(q.sizes()).isEqualTo(sizes(0, 1, 0, 0));
    clock.set(expiry.plusSeconds(1));
    q.flushBackoffQCompleted();
    assertThat(q.sizes()).isEqualTo(sizes(1, 0, 0, 0));
    assertThat(q.pop().attempts()).isEqualTo(failures + 1);
  }

  @Test
  void backoffExpiryIsTruncatedToTheSecond() throws InterruptedException {
    SchedulingQueue q = queue();
    q.add(pod("p"));
    clock.advance(Duration.ofMillis(700));
    popAndFail(q, List.of(), List.of());
    // failed at T0+0.7s, 1 s backoff -> T0+1.7s truncated to T0+1s
    assertThat(q.get("ns", "p").orElseThrow().backoffExpiration()).isEqualTo(T0.plusSeconds(1));
  }

  /** The hint the scheduling loop spins on follows what pop would find, without the lock. */
  @Test
  void hasReadyPodsFollowsWhatPopWouldFind() throws InterruptedException {
    SchedulingQueue q = queue();
    List<Boolean> seen = new ArrayList<>();
    seen.add(q.hasReadyPods());
    q.add(pod("a"));
    q.add(pod("b"));
    seen.add(q.hasReadyPods());
    q.pop();
    seen.add(q.hasReadyPods());
    q.pop();
    seen.add(q.hasReadyPods());
    q.add(pod("c"));
    q.close();
    seen.add(q.hasReadyPods());
    q.pop();
    seen.add(q.hasReadyPods());

    // empty; two added; one popped; none left; c added, closed (pop still hands it out); popped
    assertThat(seen).containsExactly(false, true, true, false, true, false);
  }

  /**
   * The benchmark stall (issue #12): a pod added again while it is in flight is discarded by pop;
   * pop then returned null when nothing else was queued, which the scheduling loop takes for a
   * closed queue, so the loop ended and the pods created afterwards were never scheduled. As kube's
   * Pop, it now waits for the next pod.
   */
  @Test
  void popDiscardingAnInFlightDuplicateWaitsForTheNextPodInsteadOfReturningNull() throws Exception {
    SchedulingQueue q = queue();
    q.add(pod("p"));
    assertThat(q.pop().podInfo().name()).isEqualTo("p");
    q.add(pod("p")); // a duplicate of the in-flight pod

    CompletableFuture<QueuedPodInfo> next =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return q.pop();
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    // Wait until pop took the duplicate out (it is discarded, nothing else is queued).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (q.sizes().active() > 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(q.sizes().active()).isZero();
    q.add(pod("after"));

    assertThat(next.get(10, TimeUnit.SECONDS)).isNotNull();
    assertThat(next.get().podInfo().name()).isEqualTo("after");
    q.close();
  }

  // ---- PopFromBackoffQ -------------------------------------------------------------------------

  /** Fails each pod (rejected by P) and moves it to the backoff queue with a Node/Add event. */
  private void intoBackoff(SchedulingQueue q, V1Pod... pods) throws InterruptedException {
    for (V1Pod p : pods) {
      q.add(p);
    }
    for (int i = 0; i < pods.length; i++) {
      popAndFail(q, List.of("P"), List.of());
    }
    q.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, null, null);
  }

  @Test
  void popTakesTheBackoffHeadWhenTheActiveQueueIsEmpty() throws InterruptedException {
    SchedulingQueue q = queue();
    intoBackoff(q, pod("low", 1), pod("high", 5));
    assertThat(q.sizes()).isEqualTo(sizes(0, 2, 0, 0));
    // same expiry window: ordered like the active queue (priority)
    assertThat(q.pop().podInfo().name()).isEqualTo("high");
    assertThat(q.pop().podInfo().name()).isEqualTo("low");
  }

  @Test
  void popFromBackoffPrefersTheEarlierExpiryOverPriority() throws InterruptedException {
    SchedulingQueue q = queue();
    intoBackoff(q, pod("high", 5));
    // high: pop straight from backoff, fail again -> attempts 2, expiry T0+2s
    popAndFail(q, List.of("P"), List.of());
    q.add(pod("low", 1));
    popAndFail(q, List.of("P"), List.of());
    q.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, null, null);
    assertThat(q.sizes()).isEqualTo(sizes(0, 2, 0, 0));
    assertThat(q.pop().podInfo().name()).isEqualTo("low");
  }

  @Test
  void popPrefersTheActiveQueueAndNeverTakesErrorPods() throws InterruptedException {
    SchedulingQueue q = queue();
    intoBackoff(q, pod("backing-off", 5));
    q.add(pod("active", 0));
    assertThat(q.pop().podInfo().name()).isEqualTo("active");
    assertThat(q.pop().podInfo().name()).isEqualTo("backing-off");

    SchedulingQueue errors = queue();
    errors.add(pod("err"));
    popAndFail(errors, List.of(), List.of());
    assertThat(errors.sizes()).isEqualTo(sizes(0, 1, 0, 0));
    assertThat(errors.tryPop()).isEmpty();
  }

  // ---- ordering, blocking, errors --------------------------------------------------------------

  @Test
  void activeQueueOrdersByPriorityAndKeepsArrivalOrderOnTies() throws InterruptedException {
    SchedulingQueue q = queue();
    q.add(pod("a", 1));
    q.add(pod("b", 3));
    q.add(pod("c", 1));
    q.add(pod("d", 3));
    q.add(pod("e", 2));
    assertThat(names(q.podsInActiveQ())).containsExactly("b", "d", "e", "a", "c");
    List<String> popped = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      popped.add(q.pop().podInfo().name());
    }
    assertThat(popped).containsExactly("b", "d", "e", "a", "c");
    assertThat(q.schedulingCycle()).isEqualTo(5);
    assertThat(names(q.inFlightPods())).containsExactly("b", "d", "e", "a", "c");
  }

  @Test
  void popBlocksUntilAPodArrivesAndCloseUnblocksIt() throws Exception {
    SchedulingQueue q = queue();
    CompletableFuture<QueuedPodInfo> first = CompletableFuture.supplyAsync(() -> popQuietly(q));
    q.add(pod("p"));
    assertThat(first.get(10, TimeUnit.SECONDS).podInfo().name()).isEqualTo("p");
    CompletableFuture<QueuedPodInfo> second = CompletableFuture.supplyAsync(() -> popQuietly(q));
    q.close();
    assertThat(second.get(10, TimeUnit.SECONDS)).isNull();
  }

  private static QueuedPodInfo popQuietly(SchedulingQueue q) {
    try {
      return q.pop();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void addUnschedulableRejectsAPodAlreadyQueued() throws InterruptedException {
    SchedulingQueue q = queue();
    q.add(pod("p"));
    QueuedPodInfo p = q.pop();
    q.add(pod("p"));
    assertThatThrownBy(() -> q.addUnschedulableIfNotPresent(p, 1))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("Pod ns/p is already present in the active queue");
    assertThat(q.inFlightPods()).isEmpty();
  }

  // ---- events and hints ------------------------------------------------------------------------

  private static final QueueingHintFunction QUEUE = (p, o, n) -> QueueingHint.QUEUE;
  private static final QueueingHintFunction SKIP = (p, o, n) -> QueueingHint.SKIP;
  private static final QueueingHintFunction THROWS =
      (p, o, n) -> {
        throw new IllegalStateException("boom");
      };

  static Stream<Arguments> eventMoves() {
    ClusterEvent nodeAdd = ClusterEvents.NODE_ADD;
    ClusterEvent nodeLabel = ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_LABEL);
    ClusterEvent nodeTaint = ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_TAINT);
    return Stream.of(
        argumentSet(
            "Queue from the rejecting plugin, still backing off -> backoffQ",
            QUEUE,
            false,
            nodeAdd,
            0,
            "backoff"),
        argumentSet(
            "Queue from the rejecting plugin, backoff over -> activeQ",
            QUEUE,
            false,
            nodeAdd,
            2,
            "active"),
        argumentSet("Skip keeps the pod unschedulable", SKIP, false, nodeAdd, 0, "unschedulable"),
        argumentSet("a hint that throws counts as Queue", THROWS, false, nodeAdd, 0, "backoff"),
        argumentSet("no hint function means Queue", null, false, nodeAdd, 0, "backoff"),
        argumentSet(
            "Queue from a Pending plugin -> activeQ at once", QUEUE, true, nodeAdd, 0, "active"),
        argumentSet("Skip from a Pending plugin keeps it", SKIP, true, nodeAdd, 0, "unschedulable"),
        argumentSet(
            "event registered only by a non-rejecting plugin",
            QUEUE,
            false,
            nodeLabel,
            0,
            "unschedulable"),
        argumentSet(
            "Node/Add registration adds UpdateNodeTaint with the default hint",
            SKIP,
            false,
            nodeTaint,
            0,
            "backoff"),
        argumentSet(
            "event nobody registered", QUEUE, false, ClusterEvents.NODE_DELETE, 0, "unschedulable"),
        argumentSet(
            "Pod registration matches AssignedPod events",
            SKIP,
            false,
            ClusterEvents.ASSIGNED_POD_DELETE,
            0,
            "backoff"),
        argumentSet(
            "UnschedulableTimeout wildcard moves every pod",
            SKIP,
            false,
            ClusterEvent.UNSCHEDULABLE_TIMEOUT,
            0,
            "backoff"));
  }

  @ParameterizedTest
  @MethodSource("eventMoves")
  void moveAllFollowsRegisteredEventsAndHints(
      QueueingHintFunction hint, boolean pending, ClusterEvent event, int afterSeconds, String want)
      throws InterruptedException {
    SchedulingQueue q = queue(hint);
    q.add(pod("p"));
    popAndFail(q, pending ? List.of() : List.of("P"), pending ? List.of("P") : List.of());
    assertThat(q.sizes()).isEqualTo(sizes(0, 0, 1, 0));
    clock.advance(Duration.ofSeconds(afterSeconds));
    q.moveAllToActiveOrBackoffQueue(event, null, null, null);
    QueueSizes expected =
        switch (want) {
          case "active" -> sizes(1, 0, 0, 0);
          case "backoff" -> sizes(0, 1, 0, 0);
          default -> sizes(0, 0, 1, 0);
        };
    assertThat(q.sizes()).isEqualTo(expected);
  }

  @Test
  void pendingPluginQueueWinsOverUnschedulablePluginQueue() throws InterruptedException {
    Map<String, List<ClusterEventWithHint>> ev =
        Map.of(
            "U", List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD, QUEUE)),
            "W", List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD, QUEUE)));
    SchedulingQueue q =
        new SchedulingQueue(
            clock,
            new PrioritySort(),
            Map.of(PROFILE, new QueueProfile(null, ev)),
            Duration.ofSeconds(1),
            Duration.ofSeconds(10),
            Duration.ofMinutes(5));
    q.add(pod("p"));
    popAndFail(q, List.of("U"), List.of("W"));
    q.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, null, null);
    assertThat(q.sizes()).isEqualTo(sizes(1, 0, 0, 0));
  }

  @Test
  void preCheckFiltersThePodsMoved() throws InterruptedException {
    SchedulingQueue q = queue();
    q.add(pod("a"));
    q.add(pod("b"));
    popAndFail(q, List.of("P"), List.of());
    popAndFail(q, List.of("P"), List.of());
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvents.NODE_ADD, null, null, p -> p.getMetadata().getName().equals("b"));
    assertThat(names(q.podsInBackoffQ())).containsExactly("b");
    assertThat(names(q.unschedulablePods())).containsExactly("a");
  }

  @Test
  void priorityPreCheckMovesOnlyPodsOfLowerOrEqualPriority() throws InterruptedException {
    SchedulingQueue q = queue();
    q.add(pod("low", 1));
    q.add(pod("same", 5));
    q.add(pod("high", 9));
    for (int i = 0; i < 3; i++) {
      popAndFail(q, List.of("P"), List.of());
    }
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvents.ASSIGNED_POD_DELETE, null, null, ClusterEvents.priorityAtMost(5));
    assertThat(names(q.podsInBackoffQ())).containsExactly("same", "low");
    assertThat(names(q.unschedulablePods())).containsExactly("high");
  }

  @Test
  void errorPodGoesToBackoffWithoutAnyEvent() throws InterruptedException {
    SchedulingQueue q = queue();
    q.add(pod("p"));
    popAndFail(q, List.of(), List.of());
    assertThat(q.sizes()).isEqualTo(sizes(0, 1, 0, 0));
  }

  // ---- in-flight events ------------------------------------------------------------------------

  enum When {
    BEFORE_POP,
    IN_FLIGHT
  }

  static Stream<Arguments> inFlightEvents() {
    ClusterEvent nodeLabel = ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_LABEL);
    return Stream.of(
        argumentSet(
            "event of the rejecting plugin while in flight -> backoffQ",
            When.IN_FLIGHT,
            false,
            ClusterEvents.NODE_ADD,
            sizes(0, 1, 0, 0)),
        argumentSet(
            "event of the Pending plugin while in flight -> activeQ at once",
            When.IN_FLIGHT,
            true,
            ClusterEvents.NODE_ADD,
            sizes(1, 0, 0, 0)),
        argumentSet(
            "event of another plugin while in flight -> unschedulable",
            When.IN_FLIGHT,
            false,
            nodeLabel,
            sizes(0, 0, 1, 0)),
        argumentSet(
            "event before the pop is not considered",
            When.BEFORE_POP,
            false,
            ClusterEvents.NODE_ADD,
            sizes(0, 0, 1, 0)),
        argumentSet(
            "wildcard while in flight -> backoffQ",
            When.IN_FLIGHT,
            false,
            ClusterEvent.UNSCHEDULABLE_TIMEOUT,
            sizes(0, 1, 0, 0)));
  }

  @ParameterizedTest
  @MethodSource("inFlightEvents")
  void eventsReceivedWhileInFlightAreEvaluatedOnFailure(
      When when, boolean pending, ClusterEvent event, QueueSizes want) throws InterruptedException {
    SchedulingQueue q = queue(QUEUE);
    q.add(pod("p"));
    if (when == When.BEFORE_POP) {
      q.moveAllToActiveOrBackoffQueue(event, null, null, null);
    }
    QueuedPodInfo p = q.pop();
    if (when == When.IN_FLIGHT) {
      q.moveAllToActiveOrBackoffQueue(event, null, null, null);
    }
    fail(q, p, pending ? List.of() : List.of("P"), pending ? List.of("P") : List.of());
    assertThat(q.sizes()).isEqualTo(want);
    assertThat(q.inFlightPods()).isEmpty();
    assertThat(q.inFlightEventCount()).isZero();
  }

  @Test
  void updateOfAnInFlightPodIsRecordedAndRequeuesItOnFailure() throws InterruptedException {
    SchedulingQueue q = queue(QUEUE);
    V1Pod v1 = pod("p");
    q.add(v1);
    QueuedPodInfo p = q.pop();
    q.update(v1, withLabel(v1, "app", "x"));
    assertThat(q.sizes()).isEqualTo(sizes(0, 0, 0, 0));
    fail(q, p, List.of("P"), List.of());
    assertThat(q.sizes()).isEqualTo(sizes(0, 1, 0, 0));
  }

  @Test
  void doneDropsOnlyEventsNoPodInFlightNeeds() throws InterruptedException {
    SchedulingQueue q = queue();
    q.add(pod("a"));
    q.add(pod("b"));
    QueuedPodInfo a = q.pop();
    QueuedPodInfo b = q.pop();
    q.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, null, null);
    assertThat(q.inFlightEventCount()).isEqualTo(1);
    q.done(a.podInfo().uid());
    assertThat(q.inFlightEventCount()).isEqualTo(1);
    q.done(b.podInfo().uid());
    assertThat(q.inFlightEventCount()).isZero();
    q.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, null, null);
    assertThat(q.inFlightEventCount()).isZero();
  }

  // ---- flushing --------------------------------------------------------------------------------

  static Stream<Arguments> leftoverFlush() {
    return Stream.of(
        argumentSet("exactly 5 minutes is not enough", Duration.ofMinutes(5), sizes(0, 0, 1, 0)),
        argumentSet(
            "just over 5 minutes moves it (backoff long over) to activeQ",
            Duration.ofMinutes(5).plusNanos(1),
            sizes(1, 0, 0, 0)));
  }

  @ParameterizedTest
  @MethodSource("leftoverFlush")
  void unschedulablePodsLeftOverFiveMinutesAreFlushed(Duration wait, QueueSizes want)
      throws InterruptedException {
    SchedulingQueue q = queue(SKIP);
    q.add(pod("p"));
    popAndFail(q, List.of("P"), List.of());
    clock.advance(wait);
    q.flushUnschedulablePodsLeftover();
    assertThat(q.sizes()).isEqualTo(want);
  }

  // ---- gating ----------------------------------------------------------------------------------

  static Stream<Long> seeds() {
    return Stream.iterate(1L, x -> x + 1).limit(20);
  }

  /**
   * Whatever the mix of adds, gate changes, deletes, failed attempts, events and flushes, the sizes
   * count every pending pod once and the gated ones among them (the queue keeps the gated count as
   * it goes).
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void sizesCountTheGatedPodsThroughAnyMixOfChanges(long seed) throws InterruptedException {
    java.util.Random random = new java.util.Random(seed);
    SchedulingQueue q = queue(QUEUE);
    Map<String, V1Pod> current = new java.util.LinkedHashMap<>();
    for (int step = 0; step < 300; step++) {
      String name = "p" + random.nextInt(12);
      V1Pod now = current.get(name);
      switch (random.nextInt(6)) {
        case 0 -> {
          if (now == null) {
            V1Pod pod = random.nextBoolean() ? gated(pod(name), "example.com/gate") : pod(name);
            q.add(pod);
            current.put(name, pod);
          }
        }
        case 1 -> {
          if (now != null) {
            V1Pod next =
                now.getSpec().getSchedulingGates() == null
                        || now.getSpec().getSchedulingGates().isEmpty()
                    ? gated(now, "example.com/gate")
                    : ungated(now);
            next.getMetadata().setResourceVersion(String.valueOf(step));
            q.update(now, next);
            current.put(name, next);
          }
        }
        case 2 -> {
          if (now != null) {
            q.delete(now);
            current.remove(name);
          }
        }
        case 3 -> {
          if (q.sizes().active() > 0) {
            popAndFail(q, List.of("P"), List.of());
          }
        }
        case 4 -> q.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, null, null);
        default -> {
          clock.advance(Duration.ofMinutes(3));
          q.flushBackoffQCompleted();
          q.flushUnschedulablePodsLeftover();
        }
      }
      List<QueuedPodInfo> pending = q.pendingPods();
      long gated = pending.stream().filter(QueuedPodInfo::gated).count();
      QueueSizes sizes = q.sizes();
      assertThat(
              List.of(
                  sizes.gated(),
                  sizes.active() + sizes.backoff() + sizes.unschedulable() + sizes.gated()))
          .as("step %d", step)
          .containsExactly((int) gated, pending.size());
    }
  }

  @Test
  void gatedPodWaitsUntilAnUpdateRemovesItsGates() {
    SchedulingQueue q = queue(QUEUE);
    V1Pod v1 = gated(pod("p"), "example.com/gate");
    q.add(v1);
    assertThat(q.sizes()).isEqualTo(sizes(0, 0, 0, 1));
    QueuedPodInfo queued = q.get("ns", "p").orElseThrow();
    assertThat(queued.gatingPlugin()).isEqualTo(GATES);
    assertThat(queued.unschedulablePlugins()).containsExactly(GATES);

    V1Pod v2 = withLabel(v1, "app", "x");
    q.update(v1, v2);
    assertThat(q.sizes()).as("a label change keeps the pod gated").isEqualTo(sizes(0, 0, 0, 1));

    q.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, null, null);
    assertThat(q.sizes())
        .as("events the gating plugin did not register")
        .isEqualTo(sizes(0, 0, 0, 1));

    clock.advance(Duration.ofMinutes(6));
    q.flushUnschedulablePodsLeftover();
    assertThat(q.sizes()).as("the leftover flush skips gated pods").isEqualTo(sizes(0, 0, 0, 1));

    q.update(v2, ungated(v2));
    assertThat(q.sizes()).isEqualTo(sizes(1, 0, 0, 0));
    assertThat(q.get("ns", "p").orElseThrow().gated()).isFalse();
    assertThat(q.get("ns", "p").orElseThrow().initialAttemptTimestamp()).isEqualTo(clock.instant());
  }

  @Test
  void gateEventRerunsPreEnqueueAndKeepsAStillGatedPod() {
    SchedulingQueue q = queue();
    V1Pod v1 = gated(pod("p"), "g");
    q.add(v1);
    // A plain moveAll with the pod-targeted gate event re-runs PreEnqueue: still gated, stays.
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(
            EventResource.UNSCHEDULED_POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED),
        null,
        v1,
        null);
    assertThat(q.sizes()).isEqualTo(sizes(0, 0, 0, 1));
  }

  @Test
  void updateOfUnknownPodAddsIt() {
    SchedulingQueue q = queue();
    V1Pod v1 = pod("p");
    q.update(v1, withLabel(v1, "a", "b"));
    assertThat(q.sizes()).isEqualTo(sizes(1, 0, 0, 0));
    assertThat(q.podsInActiveQ().get(0).getMetadata().getLabels()).containsEntry("a", "b");
  }

  @Test
  void updateRequeuesAnUnschedulablePodByItsHint() throws InterruptedException {
    SchedulingQueue q = queue(QUEUE);
    V1Pod v1 = pod("p");
    q.add(v1);
    popAndFail(q, List.of("P"), List.of());
    clock.advance(Duration.ofSeconds(3));
    q.update(v1, withLabel(v1, "app", "x"));
    assertThat(q.sizes()).isEqualTo(sizes(1, 0, 0, 0));
  }

  @Test
  void deleteRemovesThePodFromEveryQueueAndTheNominator() throws InterruptedException {
    SchedulingQueue q = queue();
    V1Pod a = nominated(pod("a"), "node1");
    q.add(a);
    q.add(pod("b"));
    q.add(pod("c"));
    popAndFail(q, List.of("P"), List.of());
    assertThat(q.nominatedPodsForNode("node1")).extracting(PodInfo::name).containsExactly("a");
    q.delete(a);
    q.delete(pod("b"));
    q.delete(pod("c"));
    assertThat(q.sizes()).isEqualTo(sizes(0, 0, 0, 0));
    assertThat(q.nominatedPodsForNode("node1")).isEmpty();
  }

  // ---- activate --------------------------------------------------------------------------------

  @Test
  void activateMovesUnschedulableAndBackoffPodsAndIgnoresUnknownOnes() throws InterruptedException {
    SchedulingQueue q = queue(SKIP);
    q.add(pod("u"));
    popAndFail(q, List.of("P"), List.of());
    q.add(pod("b"));
    popAndFail(q, List.of(), List.of());
    assertThat(q.sizes()).isEqualTo(sizes(0, 1, 1, 0));
    q.activate(List.of(pod("u"), pod("b"), pod("unknown")));
    assertThat(q.sizes()).isEqualTo(sizes(2, 0, 0, 0));
  }

  @Test
  void activateOfAnInFlightPodRequeuesItWhenItFails() throws InterruptedException {
    SchedulingQueue q = queue(SKIP);
    q.add(pod("p"));
    q.add(pod("other"));
    QueuedPodInfo p = q.pop();
    QueuedPodInfo other = q.pop();
    q.activate(List.of(p.podInfo().pod()));
    fail(q, other, List.of("P"), List.of());
    assertThat(names(q.unschedulablePods()))
        .as("the ForceActivate event targets one pod only")
        .containsExactly(other.podInfo().name());
    fail(q, p, List.of("P"), List.of());
    assertThat(names(q.podsInBackoffQ())).containsExactly(p.podInfo().name());
  }

  // ---- nominator -------------------------------------------------------------------------------

  @Test
  void nominatorFollowsOverrideAndNoopSemantics() {
    SchedulingQueue q = queue();
    V1Pod a = nominated(pod("a"), "node1");
    V1Pod b = pod("b");
    q.add(a);
    q.add(b);
    assertThat(q.nominatedPodsForNode("node1")).extracting(PodInfo::name).containsExactly("a");

    q.addNominatedPod(PodInfo.of(b), NominatingInfo.override("node1"));
    q.addNominatedPod(PodInfo.of(a), NominatingInfo.override("node2"));
    assertThat(q.nominatedPodsForNode("node1")).extracting(PodInfo::name).containsExactly("b");
    assertThat(q.nominatedPodsForNode("node2")).extracting(PodInfo::name).containsExactly("a");

    q.addNominatedPod(PodInfo.of(b), NominatingInfo.noop());
    assertThat(q.nominatedNodeOf("uid-b")).as("noop without status nomination drops it").isNull();

    // An update without nominatedNodeName on either side keeps the in-memory nomination.
    q.update(a, withLabel(a, "x", "y"));
    assertThat(q.nominatedNodeOf("uid-a")).isEqualTo("node1");
    V1Pod c = pod("c");
    q.add(c);
    q.addNominatedPod(PodInfo.of(c), NominatingInfo.override("node3"));
    q.update(c, withLabel(c, "x", "y"));
    assertThat(q.nominatedNodeOf("uid-c")).isEqualTo("node3");
    assertThat(q.nominatedPodsForNode("node3").get(0).labels()).containsEntry("x", "y");

    q.deleteNominatedPodIfExists(c);
    assertThat(q.nominatedPodsForNode("node3")).isEmpty();
  }

  @Test
  void nominatedPodsByNodeGivesWhatEachNodeWouldGive() throws InterruptedException {
    SchedulingQueue q = queue();
    assertThat(q.nominatedPodsByNode()).isEmpty();
    V1Pod a = nominated(pod("a"), "node1");
    V1Pod b = nominated(pod("b"), "node1");
    V1Pod c = nominated(pod("c"), "node2");
    q.add(a);
    q.add(b);
    q.add(c);
    q.pop(); // a is in flight: a bare pod stands for it, as node by node
    q.update(c, withLabel(c, "x", "y"));
    // a cleared nomination (kube's override to "") is filed under a name no node has
    V1Pod d = pod("d");
    q.add(d);
    q.addNominatedPod(PodInfo.of(d), NominatingInfo.override(""));
    assertThat(q.nominatedPodsForNode("")).extracting(PodInfo::name).containsExactly("d");
    Map<String, List<PodInfo>> all = q.nominatedPodsByNode();
    assertThat(all.keySet()).containsExactlyInAnyOrder("node1", "node2");
    for (String node : List.of("node1", "node2", "node3")) {
      List<PodInfo> one = q.nominatedPodsForNode(node);
      List<PodInfo> fromAll = all.getOrDefault(node, List.of());
      assertThat(fromAll)
          .extracting(PodInfo::key)
          .as(node)
          .isEqualTo(one.stream().map(PodInfo::key).toList());
      assertThat(fromAll)
          .extracting(PodInfo::labels)
          .as(node)
          .isEqualTo(one.stream().map(PodInfo::labels).toList());
    }
    assertThat(all.get("node2").get(0).labels()).containsEntry("x", "y");
  }

  /** A change made to the queue after its nominated pods by node were read once. */
  @FunctionalInterface
  interface QueueChange {
    void apply(SchedulingQueue q) throws InterruptedException;
  }

  static Stream<Arguments> nominatedPodsByNodeFollowsEveryChange() {
    V1Pod a = withLabel(nominated(pod("a"), "node1"), "k", "v");
    V1Pod b = withLabel(nominated(pod("b"), "node1"), "k", "v");
    V1Pod c = withLabel(nominated(pod("c"), "node2"), "k", "v");
    return Stream.of(
        argumentSet(
            "nothing changes",
            (QueueChange) q -> {},
            Map.of("node1", List.of("a{k=v}", "b{k=v}"), "node2", List.of("c{k=v}"))),
        argumentSet(
            "the popped pod is in flight: bare",
            (QueueChange) SchedulingQueue::pop,
            Map.of("node1", List.of("a{}", "b{k=v}"), "node2", List.of("c{k=v}"))),
        argumentSet(
            "an update relabels the queued pod",
            (QueueChange) q -> q.update(c, withLabel(c, "x", "y")),
            Map.of("node1", List.of("a{k=v}", "b{k=v}"), "node2", List.of("c{x=y}"))),
        argumentSet(
            "a deleted pod leaves its node",
            (QueueChange) q -> q.delete(b),
            Map.of("node1", List.of("a{k=v}"), "node2", List.of("c{k=v}"))),
        argumentSet(
            "a new nomination of a pod in no queue",
            (QueueChange)
                q -> q.addNominatedPod(PodInfo.of(pod("e")), NominatingInfo.override("node2")),
            Map.of("node1", List.of("a{k=v}", "b{k=v}"), "node2", List.of("c{k=v}", "e{}"))),
        argumentSet(
            "a cleared nomination",
            (QueueChange) q -> q.deleteNominatedPodIfExists(c),
            Map.of("node1", List.of("a{k=v}", "b{k=v}"))));
  }

  /**
   * The nominated pods by node are kept between reads while the queue does not change; after any
   * change both reads give the new answer.
   */
  @ParameterizedTest
  @MethodSource
  void nominatedPodsByNodeFollowsEveryChange(QueueChange change, Map<String, List<String>> want)
      throws InterruptedException {
    SchedulingQueue q = queue();
    q.add(withLabel(nominated(pod("a"), "node1"), "k", "v"));
    q.add(withLabel(nominated(pod("b"), "node1"), "k", "v"));
    q.add(withLabel(nominated(pod("c"), "node2"), "k", "v"));
    assertThat(q.nominatedPodsByNode()).containsOnlyKeys("node1", "node2");
    change.apply(q);
    Map<String, List<PodInfo>> all = q.nominatedPodsByNode();
    Map<String, List<String>> got = new java.util.TreeMap<>();
    all.forEach(
        (node, pods) -> got.put(node, pods.stream().map(p -> p.name() + p.labels()).toList()));
    assertThat(got).isEqualTo(want);
    for (String node : List.of("node1", "node2", "node3")) {
      assertThat(q.nominatedPodsForNode(node))
          .as(node)
          .extracting(p -> p.name() + p.labels())
          .isEqualTo(want.getOrDefault(node, List.of()));
    }
  }

  @Test
  void nominatedPodOutsideTheQueuesIsReturnedBare() {
    SchedulingQueue q = queue();
    V1Pod p = withLabel(pod("p", 7), "a", "b");
    q.addNominatedPod(PodInfo.of(p), NominatingInfo.override("n"));
    PodInfo got = q.nominatedPodsForNode("n").get(0);
    assertThat(got.key()).isEqualTo("ns/p");
    assertThat(got.uid()).isEqualTo("uid-p");
    assertThat(got.labels()).isEmpty();
    assertThat(got.priority()).isZero();
  }

  @Test
  void pendingPodsListsEveryQueue() throws InterruptedException {
    SchedulingQueue q = queue(SKIP);
    q.add(pod("u"));
    popAndFail(q, List.of("P"), List.of());
    q.add(pod("e"));
    popAndFail(q, List.of(), List.of());
    q.add(gated(pod("g"), "x"));
    q.add(pod("a"));
    List<String> pending = new ArrayList<>();
    for (QueuedPodInfo p : q.pendingPods()) {
      pending.add(p.podInfo().name());
    }
    assertThat(pending).containsExactly("a", "e", "u", "g");
    assertThat(q.sizes()).isEqualTo(sizes(1, 1, 1, 1));
    assertThat(q.tryPop().map(p -> p.podInfo().name())).isEqualTo(Optional.of("a"));
  }

  // ---- PreEnqueue on backoff entry, timers
  // --------------------------------------------------------

  @Test
  void preEnqueueRunsWhenAPodEntersTheBackoffQueueButNotWhenItLeavesIt()
      throws InterruptedException {
    AtomicBoolean closedGate = new AtomicBoolean();
    Map<String, List<ClusterEventWithHint>> ev =
        Map.of(
            "P", List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD)),
            "Gate", List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.DELETE)));
    SchedulingQueue q =
        new SchedulingQueue(
            clock,
            new PrioritySort(),
            Map.of(
                PROFILE,
                new QueueProfile(
                    p ->
                        closedGate.get()
                            ? Status.unresolvable("closed").withPlugin("Gate")
                            : Status.success(),
                    ev)),
            Duration.ofSeconds(1),
            Duration.ofSeconds(10),
            Duration.ofMinutes(5));
    q.add(pod("a"));
    q.add(pod("b"));
    popAndFail(q, List.of("P"), List.of());
    popAndFail(q, List.of("P"), List.of());
    closedGate.set(true);
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvents.NODE_ADD, null, null, p -> p.getMetadata().getName().equals("a"));
    assertThat(q.sizes()).as("a is gated on its way to backoffQ").isEqualTo(sizes(0, 0, 1, 1));
    assertThat(q.get("ns", "a").orElseThrow().gatingPlugin()).isEqualTo("Gate");

    closedGate.set(false);
    q.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_ADD, null, null, null);
    assertThat(q.sizes())
        .as("a stays gated: Node/Add is not Gate's event")
        .isEqualTo(sizes(0, 1, 0, 1));
    closedGate.set(true);
    clock.advance(Duration.ofSeconds(2));
    q.flushBackoffQCompleted();
    assertThat(names(q.podsInActiveQ()))
        .as("no PreEnqueue when leaving backoffQ")
        .containsExactly("b");

    closedGate.set(false);
    q.moveAllToActiveOrBackoffQueue(ClusterEvents.NODE_DELETE, null, null, null);
    assertThat(names(q.podsInActiveQ())).containsExactly("b", "a");
  }

  @Test
  void runSchedulesAlignedFlushesAndCloseCancelsThem() {
    clock.advance(Duration.ofMillis(300));
    ScheduledExecutorService timers = Mockito.mock(ScheduledExecutorService.class);
    ScheduledFuture<?> backoff = Mockito.mock(ScheduledFuture.class);
    ScheduledFuture<?> leftover = Mockito.mock(ScheduledFuture.class);
    Mockito.doReturn(backoff)
        .when(timers)
        .scheduleAtFixedRate(
            ArgumentMatchers.any(Runnable.class),
            ArgumentMatchers.eq(700_000_000L),
            ArgumentMatchers.eq(1_000_000_000L),
            ArgumentMatchers.eq(TimeUnit.NANOSECONDS));
    Mockito.doReturn(leftover)
        .when(timers)
        .scheduleWithFixedDelay(
            ArgumentMatchers.any(Runnable.class),
            ArgumentMatchers.eq(0L),
            ArgumentMatchers.eq(30_000_000_000L),
            ArgumentMatchers.eq(TimeUnit.NANOSECONDS));
    SchedulingQueue q = queue();
    q.run(timers);
    q.close();
    Mockito.verify(backoff).cancel(false);
    Mockito.verify(leftover).cancel(false);
    assertThat(q.nextBackoffExpiry()).isEmpty();
  }

  @Test
  void nominatorSkipsPodsDeletedOrBoundAccordingToThePodLister() {
    SchedulingQueue q = queue();
    V1Pod bound = pod("bound");
    bound.getSpec().setNodeName("n9");
    Map<String, V1Pod> informer = Map.of("ns/live", pod("live"), "ns/bound", bound);
    q.setPodLister((ns, name) -> Optional.ofNullable(informer.get(ns + "/" + name)));
    q.addNominatedPod(PodInfo.of(pod("live")), NominatingInfo.override("n1"));
    q.addNominatedPod(PodInfo.of(pod("gone")), NominatingInfo.override("n1"));
    q.addNominatedPod(PodInfo.of(pod("bound")), NominatingInfo.override("n1"));
    assertThat(q.nominatedPodsForNode("n1")).extracting(PodInfo::name).containsExactly("live");
  }

  @Test
  void newerPodIsNotBlockedByAPodThatFailedSeveralTimes() throws InterruptedException {
    // kube TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod
    SchedulingQueue q = queue();
    q.add(pod("test-pod-unscheduled"));
    QueuedPodInfo p = q.pop();
    fail(q, p, List.of("P"), List.of());
    clock.advance(Duration.ofSeconds(2));
    q.moveAllToActiveOrBackoffQueue(ClusterEvent.UNSCHEDULABLE_TIMEOUT, null, null, null);
    assertThat(q.pop()).isSameAs(p);
    q.add(pod("test-newer-pod"));
    fail(q, p, List.of("P"), List.of());
    clock.advance(Duration.ofSeconds(2));
    q.moveAllToActiveOrBackoffQueue(ClusterEvent.UNSCHEDULABLE_TIMEOUT, null, null, null);
    assertThat(q.pop().podInfo().name()).isEqualTo("test-newer-pod");
  }

  @Test
  void leftoverFlushKeepsPriorityOrder() throws InterruptedException {
    // kube TestHighPriorityFlushUnschedulablePodsLeftover
    SchedulingQueue q = queue(SKIP);
    q.add(nominated(pod("mid", 100), "node1"));
    q.add(nominated(pod("high", 1000), "node1"));
    QueuedPodInfo high = q.pop();
    QueuedPodInfo mid = q.pop();
    assertThat(List.of(high.podInfo().name(), mid.podInfo().name())).containsExactly("high", "mid");
    fail(q, mid, List.of("P"), List.of());
    fail(q, high, List.of("P"), List.of());
    clock.advance(SchedulingQueue.DEFAULT_MAX_IN_UNSCHEDULABLE.plusSeconds(1));
    q.flushUnschedulablePodsLeftover();
    assertThat(q.pop()).isSameAs(high);
    assertThat(q.pop()).isSameAs(mid);
  }
}
