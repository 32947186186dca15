package io.kubesched.core;

import static io.kubesched.core.TestObjects.node;
import static io.kubesched.core.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.core.cluster.CoreEvent;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.metrics.InMemoryMetrics;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.WaitingPod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class SchedulerTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String PROFILE = "default-scheduler";

  private final SimulatedTime time = new SimulatedTime(T0);
  private final InMemoryCluster cluster = new InMemoryCluster(time.clock());
  private final InMemoryMetrics metrics = new InMemoryMetrics();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closeables) {
      c.close();
    }
  }

  private Scheduler scheduler(Plugin... plugins) {
    Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(TestPlugins.configuration(PROFILE, plugins))
            .registry(TestPlugins.registry(plugins))
            .simulatedTime(time)
            .metrics(metrics)
            .random(new Random(42))
            .build();
    closeables.add(s);
    return s;
  }

  private Scheduler defaultScheduler() {
    return scheduler(
        new TestPlugins.Sort(),
        new TestPlugins.Zone(),
        new TestPlugins.Fit(),
        new TestPlugins.MostFreeCpu());
  }

  private static V1Node zoneNode(String name, String cpu, String zone) {
    V1Node n = node(name, cpu, "8Gi");
    n.getMetadata().putLabelsItem("zone", zone);
    return n;
  }

  private static V1Pod pod(String name, String cpu, int priority) {
    V1Pod p = TestObjects.pod(name, cpu, null);
    p.getSpec().setPriority(priority);
    return p;
  }

  private V1Pod stored(String name) {
    return cluster.getPod("default", name).orElseThrow();
  }

  private String nodeOf(String name) {
    return stored(name).getSpec().getNodeName();
  }

  private List<CoreEvent> eventsOf(String pod) {
    return cluster.eventsFor("Pod", "default", pod);
  }

  private static CoreEvent scheduled(String pod, String node, Instant at) {
    return new CoreEvent(
        "Normal",
        "Scheduled",
        "Binding",
        "Successfully assigned default/" + pod + " to " + node,
        "Pod",
        "default",
        pod,
        at);
  }

  private static CoreEvent failed(String pod, String message, Instant at) {
    return new CoreEvent(
        "Warning", "FailedScheduling", "Scheduling", message, "Pod", "default", pod, at);
  }

  private V1PodCondition podScheduled(String name) {
    return stored(name).getStatus().getConditions().stream()
        .filter(c -> c.getType().equals("PodScheduled"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void podsAreBoundToTheBestScoredNodeInPriorityOrder() {
    cluster.addNode(node("n1", "6", "8Gi"));
    cluster.addNode(node("n2", "4", "8Gi"));
    cluster.addNode(node("n3", "1", "8Gi"));
    cluster.addPod(pod("p3", "2", 10));
    cluster.addPod(pod("p1", "2", 30));
    cluster.addPod(pod("p2", "2", 20));
    Scheduler s = defaultScheduler();

    s.runUntilIdle();

    assertThat(Map.of("p1", nodeOf("p1"), "p2", nodeOf("p2"), "p3", nodeOf("p3")))
        .isEqualTo(Map.of("p1", "n1", "p2", "n2", "p3", "n1"));
    assertThat(cluster.events())
        .containsExactly(
            scheduled("p1", "n1", T0), scheduled("p2", "n2", T0), scheduled("p3", "n1", T0));
    assertThat(podScheduled("p2").getStatus()).isEqualTo("True");
    assertThat(metrics.count(InMemoryMetrics.SCHEDULE_ATTEMPTS, "scheduled", PROFILE)).isEqualTo(3);
    assertThat(s.bindingsInFlight()).isZero();
  }

  static Stream<Arguments> unschedulable() {
    return Stream.of(
        argumentSet(
            "nodes rejected by two filters are counted per reason, sorted as strings",
            List.of(zoneNode("n1", "1", "a"), zoneNode("n2", "1", "b"), zoneNode("n3", "4", "c")),
            "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node"
                + " affinity/selector."),
        argumentSet(
            "a node can contribute several reasons",
            List.of(zoneNode("n1", "1", "a"), zoneNode("n2", "1", "a")),
            "0/2 nodes are available: 2 Insufficient cpu."),
        argumentSet(
            "an empty cluster reports that no nodes are available",
            List.of(),
            "no nodes available to schedule pods"));
  }

  @ParameterizedTest
  @MethodSource("unschedulable")
  void anUnschedulablePodGetsFailedSchedulingAndPodScheduledFalse(
      List<V1Node> nodes, String message) {
    nodes.forEach(cluster::addNode);
    V1Pod p = pod("p", "2", 0);
    p.getMetadata().putLabelsItem("zone", "a");
    cluster.addPod(p);
    Scheduler s = defaultScheduler();

    s.runUntilIdle();

    V1PodCondition c = podScheduled("p");
    assertThat(List.of(c.getStatus(), c.getReason(), c.getMessage()))
        .containsExactly("False", "Unschedulable", message);
    assertThat(stored("p").getSpec().getNodeName()).isNull();
    List<CoreEvent> events = eventsOf("p");
    assertThat(events).isNotEmpty();
    assertThat(events)
        .allSatisfy(e -> assertThat(e).isEqualTo(failed("p", message, e.timestamp())));
    assertThat(events.get(0).timestamp()).isEqualTo(T0);
    assertThat(metrics.count(InMemoryMetrics.SCHEDULE_ATTEMPTS, "unschedulable", PROFILE))
        .isEqualTo(events.size());
  }

  @Test
  void unschedulablePodsAreRetriedOnceByTheFiveMinuteFlushThenTheRunStops() {
    cluster.addNode(zoneNode("n1", "1", "a"));
    cluster.addPod(pod("p", "2", 0));
    Scheduler s = defaultScheduler();

    s.runUntilIdle();

    List<CoreEvent> events = eventsOf("p");
    assertThat(events).hasSize(2);
    assertThat(Duration.between(events.get(0).timestamp(), events.get(1).timestamp()))
        .isGreaterThanOrEqualTo(Duration.ofMinutes(5))
        .isLessThanOrEqualTo(Duration.ofMinutes(5).plusSeconds(31));
  }

  @Test
  void aPodBecomesSchedulableWhenABigEnoughNodeIsAdded() {
    cluster.addNode(node("small", "1", "8Gi"));
    cluster.addPod(pod("big", "3", 0));
    Scheduler s = defaultScheduler();
    s.runUntilIdle();
    assertThat(nodeOf("big")).isNull();
    Instant added = time.now();

    cluster.addNode(node("large", "4", "8Gi"));
    s.runUntilIdle();

    assertThat(nodeOf("big")).isEqualTo("large");
    assertThat(eventsOf("big").get(eventsOf("big").size() - 1))
        .isEqualTo(
            scheduled("big", "large", eventsOf("big").get(eventsOf("big").size() - 1).timestamp()));
    // The Node/Add event moved the pod at once (at most after its backoff), not after a flush.
    assertThat(Duration.between(added, time.now())).isLessThanOrEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aPodFailingWithAnErrorIsRetriedAfterBackoffOnTheSimulatedClock() {
    cluster.addNode(node("n1", "4", "8Gi"));
    V1Pod p = pod("p", "1", 0);
    p.getMetadata().putLabelsItem("flaky", "");
    cluster.addPod(p);
    TestPlugins.FlakyReserve flaky = new TestPlugins.FlakyReserve();
    Scheduler s = scheduler(new TestPlugins.Sort(), new TestPlugins.Fit(), flaky);

    s.runUntilIdle();

    assertThat(nodeOf("p")).isEqualTo("n1");
    List<CoreEvent> events = eventsOf("p");
    assertThat(events).hasSize(2);
    assertThat(events.get(0))
        .isEqualTo(
            failed(
                "p",
                "running Reserve plugin \""
                    + TestPlugins.FlakyReserve.NAME
                    + "\": transient failure",
                T0));
    assertThat(events.get(1).reason()).isEqualTo("Scheduled");
    // 1 s initial backoff; the backoff flush runs every second.
    assertThat(Duration.between(T0, events.get(1).timestamp()))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(1))
        .isLessThanOrEqualTo(Duration.ofSeconds(2));
    assertThat(podScheduled("p").getStatus()).isEqualTo("True");
    assertThat(flaky.calls).hasValue(2);
    assertThat(metrics.count(InMemoryMetrics.SCHEDULE_ATTEMPTS, "error", PROFILE)).isEqualTo(1);
  }

  @Test
  void aSchedulingErrorClearsAnExistingNomination() {
    cluster.addNode(node("n1", "4", "8Gi"));
    V1Pod p = pod("p", "1", 0);
    p.getMetadata().putLabelsItem("flaky", "");
    p.setStatus(new io.kubernetes.client.openapi.models.V1PodStatus().nominatedNodeName("gone"));
    cluster.addPod(p);
    Scheduler s =
        scheduler(new TestPlugins.Sort(), new TestPlugins.Fit(), new TestPlugins.FlakyReserve());
    s.start();

    s.scheduleOne();
    time.runDueTasks();

    assertThat(stored("p").getStatus().getNominatedNodeName()).isNull();
    assertThat(podScheduled("p").getReason()).isEqualTo("SchedulerError");
    s.runUntilIdle();
    assertThat(nodeOf("p")).isEqualTo("n1");
  }

  @Test
  void aPodWaitingAtPermitIsBoundOnceAllowed() {
    cluster.addNode(node("n1", "4", "8Gi"));
    V1Pod p = pod("p", "1", 0);
    p.getMetadata().putLabelsItem("wait", "");
    cluster.addPod(p);
    TestPlugins.WaitPermit permit = new TestPlugins.WaitPermit();
    Scheduler s = scheduler(new TestPlugins.Sort(), new TestPlugins.Fit(), permit);
    s.start();

    assertThat(s.scheduleOne()).isTrue();
    time.runDueTasks();
    WaitingPod waiting = s.waitingPods().get("default/p");
    assertThat(waiting).isNotNull();
    assertThat(waiting.nodeName()).isEqualTo("n1");
    assertThat(nodeOf("p")).isNull();
    assertThat(s.bindingsInFlight()).isEqualTo(1);

    time.advance(Duration.ofSeconds(5));
    waiting.allow(TestPlugins.WaitPermit.NAME);
    time.runDueTasks();

    assertThat(nodeOf("p")).isEqualTo("n1");
    assertThat(eventsOf("p")).containsExactly(scheduled("p", "n1", T0.plusSeconds(5)));
    assertThat(permit.unreserved).isEmpty();
    assertThat(s.bindingsInFlight()).isZero();
  }

  @Test
  void aPodWaitingAtPermitTooLongIsRejectedUnreservedAndReported() {
    cluster.addNode(node("n1", "4", "8Gi"));
    V1Pod p = pod("p", "1", 0);
    p.getMetadata().putLabelsItem("wait", "");
    cluster.addPod(p);
    cluster.addPod(pod("other", "1", 0));
    TestPlugins.WaitPermit permit = new TestPlugins.WaitPermit();
    Scheduler s = scheduler(new TestPlugins.Sort(), new TestPlugins.Fit(), permit);

    s.runUntilIdle();

    String message =
        "0/1 nodes are available: 1 rejected due to timeout after waiting 10s at plugin "
            + TestPlugins.WaitPermit.NAME
            + ".";
    assertThat(nodeOf("p")).isNull();
    assertThat(nodeOf("other")).isEqualTo("n1");
    assertThat(eventsOf("p").get(0)).isEqualTo(failed("p", message, T0.plusSeconds(10)));
    assertThat(permit.unreserved.get(0)).isEqualTo("default/p@n1");
    V1PodCondition c = podScheduled("p");
    assertThat(List.of(c.getStatus(), c.getReason(), c.getMessage()))
        .containsExactly("False", "Unschedulable", message);
    assertThat(s.waitingPods().size()).isZero();
    assertThat(s.bindingsInFlight()).isZero();
  }

  @Test
  void deletingAPodWaitingAtPermitRejectsIt() {
    cluster.addNode(node("n1", "4", "8Gi"));
    V1Pod p = pod("p", "1", 0);
    p.getMetadata().putLabelsItem("wait", "");
    cluster.addPod(p);
    TestPlugins.WaitPermit permit = new TestPlugins.WaitPermit();
    Scheduler s = scheduler(new TestPlugins.Sort(), new TestPlugins.Fit(), permit);
    s.start();
    s.scheduleOne();
    time.runDueTasks();

    cluster.deletePod(stored("p"));
    time.runDueTasks();

    assertThat(s.waitingPods().size()).isZero();
    assertThat(permit.unreserved).containsExactly("default/p@n1");
    assertThat(s.bindingsInFlight()).isZero();
    assertThat(cluster.listPods()).isEmpty();
  }

  @Test
  void aThrowingPluginFailsOnlyItsPodWithASchedulerError() {
    cluster.addNode(node("n1", "4", "8Gi"));
    V1Pod bad = pod("bad", "1", 10);
    bad.getMetadata().putLabelsItem("boom", "");
    cluster.addPod(bad);
    cluster.addPod(pod("good", "1", 0));
    Scheduler s =
        scheduler(new TestPlugins.Sort(), new TestPlugins.Throwing(), new TestPlugins.Fit());

    s.runUntilIdle();

    assertThat(nodeOf("good")).isEqualTo("n1");
    assertThat(nodeOf("bad")).isNull();
    V1PodCondition c = podScheduled("bad");
    assertThat(c.getReason()).isEqualTo("SchedulerError");
    assertThat(c.getMessage()).contains("boom");
    assertThat(eventsOf("bad"))
        .isNotEmpty()
        .allSatisfy(e -> assertThat(e.reason()).isEqualTo("FailedScheduling"));
    assertThat(metrics.count(InMemoryMetrics.SCHEDULE_ATTEMPTS, "error", PROFILE)).isPositive();
  }

  @Test
  void podsOfOtherSchedulersAreIgnored() {
    cluster.addNode(node("n1", "4", "8Gi"));
    V1Pod other = pod("other", "1", 0);
    other.getSpec().setSchedulerName("someone-else");
    cluster.addPod(other);
    Scheduler s = defaultScheduler();

    s.runUntilIdle();

    assertThat(nodeOf("other")).isNull();
    assertThat(cluster.events()).isEmpty();
  }

  @Test
  void deletingAnAssignedPodMakesRoomForAnUnschedulablePod() {
    cluster.addNode(node("n1", "2", "8Gi"));
    V1Pod running = pod("running", "2", 0);
    running.getSpec().setNodeName("n1");
    cluster.addPod(running);
    cluster.addPod(pod("waiting", "2", 0));
    Scheduler s = defaultScheduler();
    s.runUntilIdle();
    assertThat(nodeOf("waiting")).isNull();

    cluster.deletePod(stored("running"));
    s.runUntilIdle();

    assertThat(nodeOf("waiting")).isEqualTo("n1");
  }

  @Test
  void aNodeLabelUpdateMakesAPodSchedulable() {
    cluster.addNode(zoneNode("n1", "4", "b"));
    V1Pod p = pod("p", "1", 0);
    p.getMetadata().putLabelsItem("zone", "a");
    cluster.addPod(p);
    Scheduler s = defaultScheduler();
    s.runUntilIdle();
    assertThat(nodeOf("p")).isNull();

    V1Node relabelled = cluster.getNode("n1").orElseThrow();
    relabelled = io.kubesched.core.cluster.ObjectCopier.deepCopy(relabelled);
    relabelled.getMetadata().putLabelsItem("zone", "a");
    cluster.updateNode(relabelled);
    s.runUntilIdle();

    assertThat(nodeOf("p")).isEqualTo("n1");
  }

  @Test
  void aPostFilterNominationIsPatchedAndThePodLandsThereOnceVictimsAreGone() {
    cluster.addNode(node("n1", "2", "8Gi"));
    V1Pod victim = pod("victim", "2", 0);
    victim.getSpec().setNodeName("n1");
    cluster.addPod(victim);
    cluster.addPod(pod("important", "2", 100));
    Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(
                TestPlugins.configuration(
                    List.of(PROFILE),
                    List.of(TestPlugins.Evict.NAME),
                    new TestPlugins.Sort(),
                    new TestPlugins.Fit()))
            .registry(TestPlugins.registry(new TestPlugins.Sort(), new TestPlugins.Fit()))
            .simulatedTime(time)
            .build();
    closeables.add(s);

    s.runUntilIdle();

    assertThat(cluster.getPod("default", "victim")).isEmpty();
    assertThat(nodeOf("important")).isEqualTo("n1");
    assertThat(stored("important").getStatus().getNominatedNodeName()).isEqualTo("n1");
    assertThat(eventsOf("important"))
        .containsExactly(
            failed("important", "0/1 nodes are available: 1 Insufficient cpu.", T0),
            scheduled("important", "n1", T0));
  }

  @Test
  void aFailedPostFilterMessageIsAppendedToTheFitError() {
    cluster.addNode(node("n1", "2", "8Gi"));
    cluster.addPod(pod("big", "3", 0));
    Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(
                TestPlugins.configuration(
                    List.of(PROFILE),
                    List.of(TestPlugins.Evict.NAME),
                    new TestPlugins.Sort(),
                    new TestPlugins.Fit()))
            .registry(TestPlugins.registry(new TestPlugins.Sort(), new TestPlugins.Fit()))
            .simulatedTime(time)
            .build();
    closeables.add(s);

    s.runUntilIdle();

    assertThat(podScheduled("big").getMessage())
        .isEqualTo(
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available:"
                + " 1 No preemption victims found for incoming pod.");
    assertThat(stored("big").getStatus().getNominatedNodeName()).isNull();
  }

  @Test
  void eachProfileSchedulesItsOwnPods() {
    cluster.addNode(node("n1", "4", "8Gi"));
    cluster.addPod(pod("a", "1", 0));
    V1Pod b = pod("b", "1", 0);
    b.getSpec().setSchedulerName("second");
    cluster.addPod(b);
    Plugin[] plugins = {new TestPlugins.Sort(), new TestPlugins.Fit()};
    Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(
                TestPlugins.configuration(List.of(PROFILE, "second"), List.of(), plugins))
            .registry(TestPlugins.registry(plugins))
            .simulatedTime(time)
            .metrics(metrics)
            .build();
    closeables.add(s);

    s.runUntilIdle();

    assertThat(s.profiles().keySet()).containsExactly(PROFILE, "second");
    assertThat(List.of(nodeOf("a"), nodeOf("b"))).containsExactly("n1", "n1");
    assertThat(metrics.count(InMemoryMetrics.SCHEDULE_ATTEMPTS, "scheduled", PROFILE)).isOne();
    assertThat(metrics.count(InMemoryMetrics.SCHEDULE_ATTEMPTS, "scheduled", "second")).isOne();
  }

  @Test
  void theSchedulingLoopBindsPodsOnRealThreads() throws Exception {
    InMemoryCluster real = new InMemoryCluster();
    real.addNode(node("n1", "4", "8Gi"));
    CompletableFuture<String> bound = new CompletableFuture<>();
    real.addListener(
        new ClusterListener() {
          @Override
          public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
            if (pod.getSpec().getNodeName() != null) {
              bound.complete(pod.getMetadata().getName() + "@" + pod.getSpec().getNodeName());
            }
          }
        });
    Plugin[] plugins = {new TestPlugins.Sort(), new TestPlugins.Fit()};
    Scheduler s =
        Scheduler.builder()
            .cluster(real)
            .configuration(TestPlugins.configuration(PROFILE, plugins))
            .registry(TestPlugins.registry(plugins))
            .build();
    closeables.add(s);
    s.startSchedulingLoop();

    real.addPod(pod("p", "1", 0));

    assertThat(bound.get(30, TimeUnit.SECONDS)).isEqualTo("p@n1");
  }

  /**
   * The loop holds the binding cycles of a burst back and hands them over in groups; every pod of a
   * burst larger than a group, and the last group's, which the loop releases when it runs out of
   * pods, gets bound; each cycle is handed over by the loop's own thread.
   */
  @Test
  void theSchedulingLoopBindsEveryPodOfABurstHandedOverInGroups() throws Exception {
    InMemoryCluster real = new InMemoryCluster();
    real.addNode(node("n1", "1000", "1000Gi"));
    int burst = 3 * HeldHandOffs.MAX_HELD + 5;
    java.util.concurrent.CountDownLatch allBound = new java.util.concurrent.CountDownLatch(burst);
    real.addListener(
        new ClusterListener() {
          @Override
          public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
            if (oldPod.getSpec().getNodeName() == null && pod.getSpec().getNodeName() != null) {
              allBound.countDown();
            }
          }
        });
    java.util.Set<String> handingThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    java.util.concurrent.ExecutorService binder =
        java.util.concurrent.Executors.newSingleThreadExecutor(r -> new Thread(r, "binder"));
    closeables.add(binder::shutdownNow);
    java.util.concurrent.Executor recording =
        r -> {
          handingThreads.add(Thread.currentThread().getName());
          binder.execute(r);
        };
    Plugin[] plugins = {new TestPlugins.Sort(), new TestPlugins.Fit()};
    Scheduler s =
        Scheduler.builder()
            .cluster(real)
            .configuration(TestPlugins.configuration(PROFILE, plugins))
            .registry(TestPlugins.registry(plugins))
            .bindingExecutor(recording)
            .build();
    closeables.add(s);
    for (int i = 0; i < burst; i++) {
      real.addPod(pod("p" + i, "1", 0));
    }
    s.startSchedulingLoop();

    assertThat(allBound.await(30, TimeUnit.SECONDS)).isTrue();
    // the loop hands groups over; the binding thread itself keeps one more drainer queued
    assertThat(handingThreads)
        .allSatisfy(t -> assertThat(t).matches("kubesched-scheduler.*|binder"))
        .anySatisfy(t -> assertThat(t).startsWith("kubesched-scheduler"));
  }

  /** Orders the active queue by pod name, whatever the priority. */
  private static final class NameSort implements io.kubesched.framework.QueueSortPlugin {
    @Override
    public String name() {
      return "TestNameSort";
    }

    @Override
    public boolean less(
        io.kubesched.framework.QueuedPodInfo a, io.kubesched.framework.QueuedPodInfo b) {
      return a.podInfo().name().compareTo(b.podInfo().name()) < 0;
    }
  }

  static Stream<Arguments> nominations() {
    return Stream.of(
        Arguments.of("one node", 1, 0),
        // the Filter walk of eight or more nodes looks the nominated pods up by snapshot row: it
        // must find b-nominee on its own node, not on a neighbour
        Arguments.of("ten nodes, the other nine full", 10, 5));
  }

  /**
   * a-low first fails because b-nominee (higher priority, nominated to the only node with room) is
   * counted there; b-nominee's own failure clears its nomination, which moves a-low back at once.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("nominations")
  void clearingANominationMovesTheLowerPriorityPodsItBlocked(String name, int nodes, int free) {
    for (int i = 0; i < nodes; i++) {
      cluster.addNode(node("n" + i, "2", "8Gi"));
      if (i != free) {
        V1Pod fill = pod("fill-" + i, "2", 0);
        fill.getSpec().setNodeName("n" + i);
        cluster.addPod(fill);
      }
    }
    cluster.addPod(pod("a-low", "1", 0));
    V1Pod nominee = pod("b-nominee", "3", 100);
    nominee.setStatus(
        new io.kubernetes.client.openapi.models.V1PodStatus().nominatedNodeName("n" + free));
    cluster.addPod(nominee);
    Scheduler s = scheduler(new NameSort(), new TestPlugins.Fit());

    s.runUntilIdle();

    List<CoreEvent> low = eventsOf("a-low");
    String message = "0/" + nodes + " nodes are available: " + nodes + " Insufficient cpu.";
    assertThat(low.get(0)).isEqualTo(failed("a-low", message, T0));
    assertThat(nodeOf("a-low")).isEqualTo("n" + free);
    assertThat(low.get(low.size() - 1).reason()).isEqualTo("Scheduled");
    assertThat(Duration.between(T0, low.get(low.size() - 1).timestamp()))
        .isLessThan(Duration.ofMinutes(1));
    assertThat(stored("b-nominee").getStatus().getNominatedNodeName()).isNull();
  }

  @Test
  void profilesMustShareTheirQueueSortPlugin() {
    Plugin[] plugins = {new TestPlugins.Sort(), new NameSort(), new TestPlugins.Fit()};
    KubeSchedulerConfiguration a =
        TestPlugins.configuration("a", new TestPlugins.Sort(), new TestPlugins.Fit());
    KubeSchedulerConfiguration b = TestPlugins.configuration("b", new NameSort());
    KubeSchedulerConfiguration both =
        new KubeSchedulerConfiguration(
            16,
            0,
            Duration.ofSeconds(1),
            Duration.ofSeconds(10),
            List.of(a.profiles().get(0), b.profiles().get(0)),
            List.of(),
            null,
            null,
            false,
            false,
            false);

    assertThatThrownBy(
            () ->
                Scheduler.builder()
                    .cluster(cluster)
                    .configuration(both)
                    .registry(TestPlugins.registry(plugins))
                    .simulatedTime(time)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "different queue sort plugins for profile \"b\": \"TestNameSort\", first:"
                + " \"TestSort\"");
  }

  /** An extender that rejects the nodes named in {@code rejected}. */
  private record RejectingExtender(java.util.Set<String> rejected)
      implements io.kubesched.core.runtime.SchedulerExtender {
    @Override
    public String name() {
      return "fake-extender";
    }

    @Override
    public boolean isFilter() {
      return true;
    }

    @Override
    public boolean isPrioritizer() {
      return false;
    }

    @Override
    public boolean isIgnorable() {
      return false;
    }

    @Override
    public boolean isInterested(PodInfo pod) {
      return true;
    }

    @Override
    public long weight() {
      return 1;
    }

    @Override
    public FilterResult filter(PodInfo pod, List<io.kubesched.framework.NodeInfo> nodes) {
      List<io.kubesched.framework.NodeInfo> feasible = new ArrayList<>();
      Map<String, String> failed = new HashMap<>();
      for (io.kubesched.framework.NodeInfo n : nodes) {
        if (rejected.contains(n.name())) {
          failed.put(n.name(), "node(s) reserved by the extender");
        } else {
          feasible.add(n);
        }
      }
      return new FilterResult(feasible, failed, Map.of());
    }

    @Override
    public Map<String, Long> prioritize(PodInfo pod, List<io.kubesched.framework.NodeInfo> nodes) {
      return Map.of();
    }
  }

  private Scheduler schedulerWithExtender(java.util.Set<String> rejected) {
    Plugin[] plugins = {new TestPlugins.Sort(), new TestPlugins.Fit()};
    Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(TestPlugins.configuration(PROFILE, plugins))
            .registry(TestPlugins.registry(plugins))
            .extenders(List.of(new RejectingExtender(rejected)))
            .simulatedTime(time)
            .build();
    closeables.add(s);
    return s;
  }

  @Test
  void extendersFilterAfterThePlugins() {
    cluster.addNode(node("n1", "4", "8Gi"));
    cluster.addNode(node("n2", "4", "8Gi"));
    cluster.addPod(pod("p", "1", 0));

    schedulerWithExtender(java.util.Set.of("n1")).runUntilIdle();

    assertThat(nodeOf("p")).isEqualTo("n2");
  }

  @Test
  void nodesRejectedByAnExtenderAppearInTheFailureMessage() {
    cluster.addNode(node("n1", "4", "8Gi"));
    cluster.addNode(node("n2", "1", "8Gi"));
    cluster.addPod(pod("p", "2", 0));

    schedulerWithExtender(java.util.Set.of("n1")).runUntilIdle();

    assertThat(podScheduled("p").getMessage())
        .isEqualTo(
            "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) reserved by the extender.");
  }

  /** Keeps pods with scheduling gates out of the active queue, like SchedulingGates. */
  private static final class Gate
      implements io.kubesched.framework.PreEnqueuePlugin, io.kubesched.framework.EnqueueExtensions {
    @Override
    public String name() {
      return "TestGate";
    }

    @Override
    public io.kubesched.framework.Status preEnqueue(PodInfo pod) {
      return pod.schedulingGates().isEmpty()
          ? io.kubesched.framework.Status.success()
          : io.kubesched.framework.Status.unresolvable(
              "waiting for scheduling gates: " + pod.schedulingGates());
    }

    @Override
    public List<io.kubesched.framework.ClusterEventWithHint> eventsToRegister() {
      return List.of(
          io.kubesched.framework.ClusterEventWithHint.of(
              io.kubesched.framework.EventResource.POD,
              io.kubesched.framework.ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED));
    }
  }

  @Test
  void gatedPodsWaitWithoutAttemptsAndGoOnceTheirGatesAreRemoved() {
    cluster.addNode(node("n1", "4", "8Gi"));
    V1Pod gated = pod("gated", "1", 0);
    gated
        .getSpec()
        .addSchedulingGatesItem(
            new io.kubernetes.client.openapi.models.V1PodSchedulingGate().name("example.com/wait"));
    cluster.addPod(gated);
    Scheduler s = scheduler(new TestPlugins.Sort(), new Gate(), new TestPlugins.Fit());

    s.runUntilIdle();

    assertThat(nodeOf("gated")).isNull();
    assertThat(eventsOf("gated")).isEmpty();
    assertThat(s.queue().sizes().gated()).isEqualTo(1);
    assertThat(time.now()).isEqualTo(T0);

    V1Pod ungated = io.kubesched.core.cluster.ObjectCopier.deepCopy(stored("gated"));
    ungated.getSpec().setSchedulingGates(new ArrayList<>());
    cluster.updatePod(ungated);
    s.runUntilIdle();

    assertThat(nodeOf("gated")).isEqualTo("n1");
  }

  @Test
  void pluginsThatKeepReactivatingFailingPodsDoNotHangTheRun() {
    cluster.addNode(node("n1", "1", "8Gi"));
    for (int i = 0; i < 3; i++) {
      cluster.addPod(pod("big-" + i, "2", 0));
    }
    PluginRegistry registry = TestPlugins.registry(new TestPlugins.Sort(), new TestPlugins.Fit());
    registry.register(
        TestPlugins.provider(
            "TestActivateAll",
            io.kubesched.framework.PostFilterPlugin.class,
            h ->
                new io.kubesched.framework.PostFilterPlugin() {
                  @Override
                  public String name() {
                    return "TestActivateAll";
                  }

                  @Override
                  public io.kubesched.framework.PostFilterResult postFilter(
                      io.kubesched.framework.CycleState state,
                      PodInfo pod,
                      io.kubesched.framework.NodeToStatusReader statuses) {
                    h.activate(h.client().listPods());
                    return io.kubesched.framework.PostFilterResult.of(
                        io.kubesched.framework.Status.unschedulable("activated everyone"));
                  }
                }));
    Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(
                TestPlugins.configuration(
                    List.of(PROFILE),
                    List.of("TestActivateAll"),
                    new TestPlugins.Sort(),
                    new TestPlugins.Fit()))
            .registry(registry)
            .simulatedTime(time)
            .metrics(metrics)
            .build();
    closeables.add(s);

    s.runUntilIdle();

    long attempts = metrics.count(InMemoryMetrics.SCHEDULE_ATTEMPTS, "unschedulable", PROFILE);
    assertThat(attempts).isBetween(100L, 200L);
    assertThat(java.util.Arrays.asList(nodeOf("big-0"), nodeOf("big-1"), nodeOf("big-2")))
        .containsOnlyNulls();
  }

  @Test
  void longFailureMessagesAreTruncatedInEventsLikeKube() {
    String longMessage = "x".repeat(2000);

    String truncated = SchedulingFailureHandler.truncateMessage(longMessage);

    assertThat(truncated).hasSize(1024).endsWith("x ...");
    assertThat(SchedulingFailureHandler.truncateMessage("short")).isEqualTo("short");
    assertThat(SchedulingFailureHandler.truncateMessage("y".repeat(1024)))
        .isEqualTo("y".repeat(1024));
  }

  @Test
  void profilesMustUseTheSameSchedulerNameOnlyOnce() {
    KubeSchedulerConfiguration one = TestPlugins.configuration(PROFILE, new TestPlugins.Sort());
    KubeSchedulerConfiguration twice =
        new KubeSchedulerConfiguration(
            16,
            0,
            Duration.ofSeconds(1),
            Duration.ofSeconds(10),
            List.of(one.profiles().get(0), one.profiles().get(0)),
            List.of(),
            null,
            null,
            false,
            false,
            false);

    assertThatThrownBy(
            () ->
                Scheduler.builder()
                    .cluster(cluster)
                    .configuration(twice)
                    .registry(TestPlugins.registry(new TestPlugins.Sort()))
                    .simulatedTime(time)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("profiles[1].schedulerName: Duplicate value: \"default-scheduler\"");
  }

  /** Runs a tie-heavy workload on simulated time and returns the placements and the end time. */
  private static Map<String, String> simulate(long seed) {
    SimulatedTime t = new SimulatedTime(T0);
    InMemoryCluster c = new InMemoryCluster(t.clock());
    for (int i = 0; i < 20; i++) {
      c.addNode(node("node-" + i, "4", "8Gi"));
    }
    for (int i = 0; i < 150; i++) {
      c.addPod(pod("pod-" + i, "500m", i % 3));
    }
    Plugin[] plugins = {
      new TestPlugins.Sort(), new TestPlugins.Fit(), new TestPlugins.MostFreeCpu()
    };
    try (Scheduler s =
        Scheduler.builder()
            .cluster(c)
            .configuration(TestPlugins.configuration(PROFILE, plugins))
            .registry(TestPlugins.registry(plugins))
            .simulatedTime(t)
            .random(new Random(seed))
            .build()) {
      s.runUntilIdle();
    }
    Map<String, String> out = new java.util.TreeMap<>();
    for (V1Pod p : c.listPods()) {
      out.put(p.getMetadata().getName(), String.valueOf(p.getSpec().getNodeName()));
    }
    out.put("clock", t.now().toString());
    return out;
  }

  @Test
  void simulationsAreReproducibleForAGivenSeed() {
    Map<String, String> first = simulate(7);

    assertThat(simulate(7)).isEqualTo(first);
    assertThat(first.values()).doesNotContain("null");
    assertThat(simulate(8)).isNotEqualTo(first);
  }

  @Test
  void twoThousandPodsOnAHundredNodesWithConcurrentBindingNeverOvercommit() {
    int nodes = 100;
    int pods = 2000;
    for (int i = 0; i < nodes; i++) {
      cluster.addNode(node(String.format("node-%03d", i), "2", "4Gi"));
    }
    for (int i = 0; i < pods; i++) {
      cluster.addPod(pod(String.format("pod-%04d", i), "150m", i % 7));
    }
    ExecutorService binders = Executors.newFixedThreadPool(4);
    ExecutorService workers = Executors.newFixedThreadPool(4);
    closeables.add(binders::shutdownNow);
    closeables.add(workers::shutdownNow);
    Plugin[] plugins = {
      new TestPlugins.Sort(), new TestPlugins.Fit(), new TestPlugins.MostFreeCpu()
    };
    Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(TestPlugins.configuration(PROFILE, plugins))
            .registry(TestPlugins.registry(plugins))
            .simulatedTime(time)
            .bindingExecutor(binders)
            .workers(workers)
            .metrics(metrics)
            .build();
    closeables.add(s);

    s.runUntilIdle();

    Map<String, Long> used = new HashMap<>();
    int bound = 0;
    for (V1Pod p : cluster.listPods()) {
      String node = p.getSpec().getNodeName();
      if (node != null) {
        bound++;
        used.merge(node, PodInfo.of(p).requests().milliCpu(), Long::sum);
        assertThat(p.getStatus().getConditions())
            .anySatisfy(
                c ->
                    assertThat(List.of(c.getType(), c.getStatus()))
                        .containsExactly("PodScheduled", "True"));
      } else {
        assertThat(p.getStatus().getConditions())
            .anySatisfy(
                c ->
                    assertThat(List.of(c.getType(), c.getStatus(), c.getReason(), c.getMessage()))
                        .containsExactly(
                            "PodScheduled",
                            "False",
                            "Unschedulable",
                            "0/100 nodes are available: 100 Insufficient cpu."));
      }
    }
    assertThat(used.values()).allSatisfy(v -> assertThat(v).isLessThanOrEqualTo(2000));
    // 13 pods of 150m fit in 2 CPUs: every node is full and nothing more fits anywhere.
    assertThat(bound).isEqualTo(nodes * 13);
    assertThat(used.values()).containsOnly(13 * 150L);
    assertThat(s.bindingsInFlight()).isZero();
  }
}
