package io.kubesched.plugins.defaultpreemption;

import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.HIGH;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.LOW;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.MID;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.VERY_HIGH;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.epoch;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.node;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.pdb;
import static io.kubesched.plugins.defaultpreemption.PreemptionFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubesched.core.runtime.ExecutorParallelizer;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.ConstantFilter;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.FakeHandle;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.ResourceFit;
import io.kubesched.plugins.defaultpreemption.PreemptionFixtures.ScriptedRandom;
import io.kubesched.preemption.Candidate;
import io.kubesched.preemption.DisruptionBudget;
import io.kubesched.preemption.PreemptionInterface;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dry run and the candidate choice of DefaultPreemption, ported from kube-scheduler's {@code
 * TestDryRunPreemption} and {@code TestSelectBestCandidate}. Nodes have 500m CPU, 500 bytes of
 * memory and 32 pods ({@code veryLargeRes}); pods request small (100), medium (200), large (300) or
 * very large (500) amounts of both.
 */
final class DefaultPreemptionDryRunTest {

  /** A candidate by node name, its victims' names (most important first) and violations. */
  record Cand(String node, List<String> victims, int violations) {
    static Cand of(String node, int violations, String... victims) {
      return new Cand(node, List.of(victims), violations);
    }
  }

  private static V1Pod small(String name, int priority, String node) {
    return pod(name).priority(priority).node(node).req(100, 100).obj();
  }

  private static V1Pod medium(String name, int priority, String node) {
    return pod(name).priority(priority).node(node).req(200, 200).obj();
  }

  private static V1Pod large(String name, int priority, String node) {
    return pod(name).priority(priority).node(node).req(300, 300).obj();
  }

  private static V1Pod preemptor(String name, long size) {
    return pod(name).priority(HIGH).req(size, size).obj();
  }

  private static List<V1Node> nodes(int count) {
    List<V1Node> out = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      out.add(node("node" + i, 32, 500, 500));
    }
    return out;
  }

  static Stream<Arguments> dryRunCases() {
    DefaultPreemptionArgs defaults = DefaultPreemptionArgs.defaults();
    DefaultPreemptionArgs limited = new DefaultPreemptionArgs(40, 1);
    return Stream.of(
        argumentSet(
            "a pod that does not fit on any node",
            defaults,
            nodes(2),
            List.of(pod("p").priority(HIGH).obj()),
            List.of(
                pod("p1").node("node1").priority(MID).obj(),
                pod("p2").node("node2").priority(MID).obj()),
            List.of(),
            new int[] {0},
            List.of(List.of()),
            List.of(2),
            true),
        argumentSet(
            "a pod that fits on both nodes when lower priority pods are preempted",
            defaults,
            nodes(2),
            List.of(preemptor("p", 300)),
            List.of(large("p1", MID, "node1"), large("p2", MID, "node2")),
            List.of(),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 0, "p1"), Cand.of("node2", 0, "p2"))),
            List.of(4),
            false),
        argumentSet(
            "a pod that would fit on the nodes, but other pods running are higher priority, no"
                + " preemption would happen",
            defaults,
            nodes(2),
            List.of(pod("p").priority(LOW).req(300, 300).obj()),
            List.of(large("p1", MID, "node1"), large("p2", MID, "node2")),
            List.of(),
            new int[] {0},
            List.of(List.of()),
            List.of(0),
            false),
        argumentSet(
            "medium priority pod is preempted, but lower priority one stays as it is small",
            defaults,
            nodes(2),
            List.of(preemptor("p", 300)),
            List.of(
                small("p1.1", LOW, "node1"),
                large("p1.2", MID, "node1"),
                large("p2", MID, "node2")),
            List.of(),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 0, "p1.2"), Cand.of("node2", 0, "p2"))),
            List.of(5),
            false),
        argumentSet(
            "mixed priority pods are preempted",
            defaults,
            nodes(2),
            List.of(preemptor("p", 300)),
            List.of(
                small("p1.1", MID, "node1"),
                small("p1.2", LOW, "node1"),
                medium("p1.3", MID, "node1"),
                small("p1.4", HIGH, "node1"),
                large("p2", HIGH, "node2")),
            List.of(),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 0, "p1.3", "p1.2"))),
            List.of(4),
            false),
        argumentSet(
            "mixed priority pods are preempted, pick later StartTime one when priorities are equal",
            defaults,
            nodes(2),
            List.of(preemptor("p", 300)),
            List.of(
                pod("p1.1").node("node1").priority(LOW).req(100, 100).startTime(epoch(5)).obj(),
                pod("p1.2").node("node1").priority(LOW).req(100, 100).startTime(epoch(4)).obj(),
                pod("p1.3").node("node1").priority(MID).req(200, 200).startTime(epoch(3)).obj(),
                pod("p1.4").node("node1").priority(HIGH).req(100, 100).startTime(epoch(2)).obj(),
                pod("p2").node("node2").priority(HIGH).req(300, 300).startTime(epoch(1)).obj()),
            List.of(),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 0, "p1.3", "p1.1"))),
            List.of(4),
            false),
        argumentSet(
            "preemption with violation of same pdb",
            defaults,
            nodes(1),
            List.of(preemptor("p", 500)),
            List.of(
                pod("p1.1").node("node1").label("app", "foo").priority(MID).req(200, 200).obj(),
                pod("p1.2").node("node1").label("app", "foo").priority(MID).req(200, 200).obj()),
            List.of(pdb("pdb", "app", "foo", 1)),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 1, "p1.2", "p1.1"))),
            List.of(3),
            false),
        argumentSet(
            "preemption with violation of the pdb with pod whose eviction was processed, the"
                + " victim doesn't belong to DisruptedPods",
            defaults,
            nodes(1),
            List.of(preemptor("p", 500)),
            List.of(
                pod("p1.1").node("node1").label("app", "foo").priority(MID).req(200, 200).obj(),
                pod("p1.2").node("node1").label("app", "foo").priority(MID).req(200, 200).obj()),
            List.of(pdb("pdb", "app", "foo", 1, "p2")),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 1, "p1.2", "p1.1"))),
            List.of(3),
            false),
        argumentSet(
            "preemption with violation of the pdb with pod whose eviction was processed, the"
                + " victim belongs to DisruptedPods",
            defaults,
            nodes(1),
            List.of(preemptor("p", 500)),
            List.of(
                pod("p1.1").node("node1").label("app", "foo").priority(MID).req(200, 200).obj(),
                pod("p1.2").node("node1").label("app", "foo").priority(MID).req(200, 200).obj()),
            List.of(pdb("pdb", "app", "foo", 1, "p1.2")),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 0, "p1.2", "p1.1"))),
            List.of(3),
            false),
        argumentSet(
            "preemption with violation of the pdb with pod whose eviction was processed, the"
                + " victim which belongs to DisruptedPods is treated as 'nonViolating'",
            defaults,
            nodes(1),
            List.of(preemptor("p", 500)),
            List.of(
                pod("p1.1").node("node1").label("app", "foo").priority(MID).req(200, 200).obj(),
                pod("p1.2").node("node1").label("app", "foo").priority(MID).req(200, 200).obj(),
                pod("p1.3").node("node1").label("app", "foo").priority(MID).req(200, 200).obj()),
            List.of(pdb("pdb", "app", "foo", 1, "p1.3")),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 1, "p1.2", "p1.3", "p1.1"))),
            List.of(4),
            false),
        argumentSet(
            "equal pods that have not started: as in kube, the last one on the node is reprieved"
                + " first",
            defaults,
            nodes(1),
            List.of(preemptor("p", 300)),
            List.of(
                medium("a", LOW, "node1"), medium("b", LOW, "node1"), medium("c", LOW, "node1")),
            List.of(),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 0, "b", "a"))),
            List.of(4),
            false),
        argumentSet(
            "equal pods that started at the same time keep the node's order",
            defaults,
            nodes(1),
            List.of(preemptor("p", 300)),
            List.of(
                start(medium("a", LOW, "node1"), 7),
                start(medium("b", LOW, "node1"), 7),
                start(medium("c", LOW, "node1"), 7)),
            List.of(),
            new int[] {0},
            List.of(List.of(Cand.of("node1", 0, "b", "c"))),
            List.of(4),
            false),
        argumentSet(
            "all nodes are possible candidates, but DefaultPreemptionArgs limits to 2",
            limited,
            nodes(5),
            List.of(preemptor("p", 300)),
            List.of(
                large("p1", MID, "node1"),
                large("p2", MID, "node2"),
                large("p3", MID, "node3"),
                large("p4", MID, "node4"),
                large("p5", MID, "node5")),
            List.of(),
            new int[] {4},
            List.of(List.of(Cand.of("node1", 0, "p1"), Cand.of("node5", 0, "p5"))),
            List.of(4),
            false),
        argumentSet(
            "some nodes are not possible candidates, DefaultPreemptionArgs limits to 2",
            limited,
            nodes(5),
            List.of(preemptor("p", 300)),
            List.of(
                large("p1", MID, "node1"),
                large("p2", VERY_HIGH, "node2"),
                large("p3", MID, "node3"),
                large("p4", MID, "node4"),
                large("p5", VERY_HIGH, "node5")),
            List.of(),
            new int[] {4},
            List.of(List.of(Cand.of("node1", 0, "p1"), Cand.of("node3", 0, "p3"))),
            List.of(4),
            false),
        argumentSet(
            "preemption offset across multiple scheduling cycles and wrap around",
            limited,
            nodes(5),
            List.of(preemptor("tp1", 300), preemptor("tp2", 300), preemptor("tp3", 300)),
            List.of(
                large("p1", MID, "node1"),
                large("p2", MID, "node2"),
                large("p3", MID, "node3"),
                large("p4", MID, "node4"),
                large("p5", MID, "node5")),
            List.of(),
            new int[] {4, 1, 3},
            List.of(
                List.of(Cand.of("node1", 0, "p1"), Cand.of("node5", 0, "p5")),
                List.of(Cand.of("node2", 0, "p2"), Cand.of("node3", 0, "p3")),
                List.of(Cand.of("node4", 0, "p4"), Cand.of("node5", 0, "p5"))),
            List.of(4, 4, 4),
            false),
        argumentSet(
            "preemption looks past numCandidates until a non-PDB violating node is found",
            new DefaultPreemptionArgs(40, 2),
            nodes(5),
            List.of(preemptor("p", 300)),
            List.of(
                pod("p1").node("node1").label("app", "foo").priority(MID).req(300, 300).obj(),
                pod("p2").node("node2").label("app", "foo").priority(MID).req(300, 300).obj(),
                large("p3", MID, "node3"),
                large("p4", MID, "node4"),
                pod("p5").node("node5").label("app", "foo").priority(MID).req(300, 300).obj()),
            List.of(pdb("pdb", "app", "foo", 0)),
            new int[] {4},
            List.of(
                List.of(
                    Cand.of("node1", 1, "p1"),
                    Cand.of("node3", 0, "p3"),
                    Cand.of("node5", 1, "p5"))),
            List.of(8),
            false));
  }

  @ParameterizedTest
  @MethodSource("dryRunCases")
  void dryRun(
      DefaultPreemptionArgs args,
      List<V1Node> nodes,
      List<V1Pod> preemptors,
      List<V1Pod> pods,
      List<V1PodDisruptionBudget> pdbs,
      int[] offsets,
      List<List<Cand>> want,
      List<Integer> wantFilterCalls,
      boolean rejectEverything) {
    ResourceFit fit = new ResourceFit();
    ConstantFilter reject = new ConstantFilter("FalseFilter", Status.unschedulable());
    FilterPlugin filter = rejectEverything ? reject : fit;
    AtomicInteger calls = rejectEverything ? reject.calls : fit.calls;
    FakeHandle h = new FakeHandle().with(nodes, pods).filter(filter);
    DefaultPreemption pl = new DefaultPreemption(args, h, new ScriptedRandom(offsets));

    List<List<Cand>> got = new ArrayList<>();
    List<Integer> gotCalls = new ArrayList<>();
    for (V1Pod p : preemptors) {
      int before = calls.get();
      PreemptionInterface.Window w = pl.offsetAndNumCandidates(h.nodes.size());
      List<Candidate> candidates =
          pl.evaluator()
              .dryRunPreemption(
                  new CycleState(),
                  PodInfo.of(p),
                  h.nodes,
                  DisruptionBudget.ofAll(pdbs),
                  w.offset(),
                  w.numCandidates())
              .candidates();
      got.add(
          candidates.stream()
              .map(
                  c ->
                      new Cand(
                          c.name(),
                          c.victims().stream().map(PodInfo::name).toList(),
                          c.numPdbViolations()))
              .sorted(Comparator.comparing(Cand::node))
              .toList());
      gotCalls.add(calls.get() - before);
    }

    assertThat(got).isEqualTo(want);
    assertThat(gotCalls).isEqualTo(wantFilterCalls);
  }

  @Test
  void withParallelismEveryNodeOfAWaveIsTriedAndTheResultIsRepeatable() {
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      for (int run = 0; run < 20; run++) {
        ResourceFit fit = new ResourceFit();
        FakeHandle h =
            new FakeHandle()
                .with(
                    nodes(5),
                    List.of(
                        large("p1", MID, "node1"),
                        large("p2", MID, "node2"),
                        large("p3", MID, "node3"),
                        large("p4", MID, "node4"),
                        large("p5", MID, "node5")))
                .filter(fit);
        h.parallelizer = new ExecutorParallelizer(pool, 3);
        DefaultPreemption pl =
            new DefaultPreemption(new DefaultPreemptionArgs(40, 1), h, new ScriptedRandom(4));
        PreemptionInterface.Window w = pl.offsetAndNumCandidates(5);

        List<String> got =
            pl
                .evaluator()
                .dryRunPreemption(
                    new CycleState(),
                    PodInfo.of(preemptor("p", 300)),
                    h.nodes,
                    List.of(),
                    w.offset(),
                    w.numCandidates())
                .candidates()
                .stream()
                .map(Candidate::name)
                .toList();

        // the first wave (node5, node1, node2) is tried whole; two candidates are kept, in order
        assertThat(got).containsExactly("node5", "node1");
        assertThat(fit.calls.get()).isEqualTo(6);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  static Stream<Arguments> selectCases() {
    V1Pod veryLarge = pod("p").priority(HIGH).req(500, 500).obj();
    return Stream.of(
        argumentSet(
            "a pod that fits on both nodes when lower priority pods are preempted",
            nodes(2),
            preemptor("p", 300),
            List.of(start(large("p1", MID, "node1"), 0), start(large("p2", MID, "node2"), 0)),
            List.of("node1", "node2")),
        argumentSet(
            "node with min highest priority pod is picked",
            nodes(3),
            veryLarge,
            List.of(
                start(medium("p1.1", MID, "node1"), 0),
                start(large("p1.2", MID, "node1"), 0),
                start(medium("p2.1", MID, "node2"), 0),
                start(medium("p2.2", LOW, "node2"), 0),
                start(medium("p3.1", LOW, "node3"), 0),
                start(medium("p3.2", LOW, "node3"), 0)),
            List.of("node3")),
        argumentSet(
            "when highest priorities are the same, minimum sum of priorities is picked",
            nodes(3),
            veryLarge,
            List.of(
                start(medium("p1.1", MID, "node1"), 0),
                start(large("p1.2", MID, "node1"), 0),
                start(large("p2.1", MID, "node2"), 0),
                start(medium("p2.2", LOW, "node2"), 0),
                start(medium("p3.1", MID, "node3"), 0),
                start(medium("p3.2", MID, "node3"), 0)),
            List.of("node2")),
        argumentSet(
            "when highest priority and sum are the same, minimum number of pods is picked",
            nodes(3),
            veryLarge,
            List.of(
                start(small("p1.1", MID, "node1"), 0),
                start(small("p1.2", PreemptionFixtures.NEG, "node1"), 0),
                start(small("p1.3", MID, "node1"), 0),
                start(small("p1.4", PreemptionFixtures.NEG, "node1"), 0),
                start(large("p2.1", MID, "node2"), 0),
                start(medium("p2.2", PreemptionFixtures.NEG, "node2"), 0),
                start(medium("p3.1", MID, "node3"), 0),
                start(small("p3.2", PreemptionFixtures.NEG, "node3"), 0),
                start(small("p3.3", LOW, "node3"), 0)),
            List.of("node2")),
        argumentSet(
            "sum of adjusted priorities is considered",
            nodes(3),
            veryLarge,
            List.of(
                start(small("p1.1", MID, "node1"), 0),
                start(small("p1.2", PreemptionFixtures.NEG, "node1"), 0),
                start(small("p1.3", PreemptionFixtures.NEG, "node1"), 0),
                start(large("p2.1", MID, "node2"), 0),
                start(medium("p2.2", PreemptionFixtures.NEG, "node2"), 0),
                start(medium("p3.1", MID, "node3"), 0),
                start(small("p3.2", PreemptionFixtures.NEG, "node3"), 0),
                start(small("p3.3", LOW, "node3"), 0)),
            List.of("node2")),
        argumentSet(
            "non-overlapping lowest high priority, sum priorities, and number of pods",
            nodes(4),
            pod("p").priority(VERY_HIGH).req(500, 500).obj(),
            List.of(
                start(small("p1.1", MID, "node1"), 0),
                start(small("p1.2", LOW, "node1"), 0),
                start(small("p1.3", LOW, "node1"), 0),
                start(large("p2.1", HIGH, "node2"), 0),
                start(medium("p3.1", MID, "node3"), 0),
                start(small("p3.2", LOW, "node3"), 0),
                start(small("p3.3", LOW, "node3"), 0),
                start(medium("p3.4", LOW, "node3"), 0),
                start(medium("p4.1", MID, "node4"), 0),
                start(small("p4.2", MID, "node4"), 0),
                start(small("p4.3", MID, "node4"), 0),
                start(small("p4.4", PreemptionFixtures.NEG, "node4"), 0)),
            List.of("node1")),
        argumentSet(
            "same priority, same number of victims, different start time for each node's pod",
            nodes(3),
            veryLarge,
            List.of(
                start(medium("p1.1", MID, "node1"), 2),
                start(medium("p1.2", MID, "node1"), 2),
                start(medium("p2.1", MID, "node2"), 3),
                start(medium("p2.2", MID, "node2"), 3),
                start(medium("p3.1", MID, "node3"), 1),
                start(medium("p3.2", MID, "node3"), 1)),
            List.of("node2")),
        argumentSet(
            "same priority, same number of victims, different start time for all pods",
            nodes(3),
            veryLarge,
            List.of(
                start(medium("p1.1", MID, "node1"), 4),
                start(medium("p1.2", MID, "node1"), 2),
                start(medium("p2.1", MID, "node2"), 5),
                start(medium("p2.2", MID, "node2"), 1),
                start(medium("p3.1", MID, "node3"), 3),
                start(medium("p3.2", MID, "node3"), 6)),
            List.of("node3")),
        argumentSet(
            "different priority, same number of victims, different start time for all pods",
            nodes(3),
            veryLarge,
            List.of(
                start(medium("p1.1", LOW, "node1"), 4),
                start(medium("p1.2", MID, "node1"), 2),
                start(medium("p2.1", MID, "node2"), 6),
                start(medium("p2.2", LOW, "node2"), 1),
                start(medium("p3.1", LOW, "node3"), 3),
                start(medium("p3.2", MID, "node3"), 5)),
            List.of("node2")));
  }

  private static V1Pod start(V1Pod p, int epochNanos) {
    p.getStatus().setStartTime(epoch(epochNanos));
    return p;
  }

  @ParameterizedTest
  @MethodSource("selectCases")
  void selectBestCandidate(
      List<V1Node> nodes, V1Pod preemptor, List<V1Pod> pods, List<String> anyOf) {
    FakeHandle h = new FakeHandle().with(nodes, pods).filter(new ResourceFit());
    DefaultPreemption pl =
        new DefaultPreemption(DefaultPreemptionArgs.defaults(), h, new ScriptedRandom(0));
    PreemptionInterface.Window w = pl.offsetAndNumCandidates(h.nodes.size());
    List<Candidate> candidates =
        pl.evaluator()
            .dryRunPreemption(
                new CycleState(),
                PodInfo.of(preemptor),
                h.nodes,
                List.of(),
                w.offset(),
                w.numCandidates())
            .candidates();

    Candidate best = pl.evaluator().selectCandidate(candidates);

    assertThat(best).isNotNull();
    assertThat(best.name()).isIn(anyOf);
  }

  static Stream<Arguments> withoutCopyCases() {
    return Stream.of(
        argumentSet("no pods: known, no victims", List.of(), true),
        argumentSet(
            "only pods of the same or a higher priority: known, no victims",
            List.of(small("p1", HIGH, "node1"), medium("p2", VERY_HIGH, "node1")),
            true),
        argumentSet(
            "one lower-priority pod: needs the dry run",
            List.of(small("p1", VERY_HIGH, "node1"), medium("p2", LOW, "node1")),
            false),
        argumentSet(
            "only lower-priority pods: needs the dry run",
            List.of(small("p1", MID, "node1"), small("p2", LOW, "node1")),
            false));
  }

  /**
   * The shortcut the dry run asks before copying a node answers only when there can be no victim,
   * and then exactly what {@code selectVictimsOnNode} on a copy returns.
   */
  @ParameterizedTest
  @MethodSource("withoutCopyCases")
  void selectVictimsWithoutCopy(List<V1Pod> pods, boolean known) {
    FakeHandle h = new FakeHandle().with(nodes(1), pods).filter(new ResourceFit());
    DefaultPreemption pl =
        new DefaultPreemption(DefaultPreemptionArgs.defaults(), h, new ScriptedRandom(0));
    PodInfo preemptor = PodInfo.of(preemptor("p", 300));

    var shortcut = pl.selectVictimsWithoutCopy(preemptor, h.nodes.get(0));

    if (!known) {
      assertThat(shortcut).isEmpty();
      return;
    }
    var full =
        pl.selectVictimsOnNode(new CycleState(), preemptor, h.nodes.get(0).snapshot(), List.of());
    assertThat(shortcut).contains(full);
    assertThat(full.status()).isEqualTo(Status.unresolvable(DefaultPreemption.REASON_NO_VICTIMS));
  }
}
