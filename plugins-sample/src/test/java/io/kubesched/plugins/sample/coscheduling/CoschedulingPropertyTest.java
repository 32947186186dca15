package io.kubesched.plugins.sample.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.plugins.sample.SampleScheduler;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random gangs competing for the same nodes through the real scheduler (simulated time): never a
 * partly bound gang, nobody left waiting at Permit, and no deadlock — when some gang fits alone,
 * some gang is bound, and when all fit together, all are.
 */
final class CoschedulingPropertyTest {
  record Gang(String name, int minMember, int members, int cpu) {}

  record Case(long seed, List<Integer> nodeCpus, List<Gang> gangs) {
    @Override
    public String toString() {
      return "seed " + seed + ": nodes " + nodeCpus + ", gangs " + gangs;
    }
  }

  static Stream<Case> cases() {
    return IntStream.range(0, 40)
        .mapToObj(
            seed -> {
              Random r = new Random(seed);
              List<Integer> nodes = new ArrayList<>();
              for (int i = 0, n = 1 + r.nextInt(4); i < n; i++) {
                nodes.add(2 + r.nextInt(3));
              }
              List<Gang> gangs = new ArrayList<>();
              for (int i = 0, n = 2 + r.nextInt(3); i < n; i++) {
                int min = 1 + r.nextInt(4);
                gangs.add(new Gang("g" + i, min, min + r.nextInt(2), 1 + r.nextInt(2)));
              }
              return new Case(seed, nodes, gangs);
            });
  }

  /** Whether {@code min} members of {@code cpu} fit on nodes of {@code free} CPUs. */
  private static boolean fits(List<Integer> free, int min, int cpu) {
    int slots = 0;
    for (int f : free) {
      slots += f / cpu;
    }
    return slots >= min;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void gangsAreAllOrNothingAndNeverDeadlock(Case c) {
    try (SampleScheduler s = new SampleScheduler(CoschedulingSchedulerTest.CONFIG)) {
      for (int i = 0; i < c.nodeCpus().size(); i++) {
        s.cluster.addNode(
            MakeNode.node()
                .name("node-" + i)
                .capacity(
                    "cpu", String.valueOf(c.nodeCpus().get(i)), "memory", "16Gi", "pods", "110")
                .obj());
      }
      for (int i = 0; i < c.gangs().size(); i++) {
        Gang g = c.gangs().get(i);
        s.cluster.createCustomObject(
            Map.of(
                "apiVersion",
                PodGroup.API_VERSION,
                "kind",
                PodGroup.KIND,
                "metadata",
                Map.of(
                    "namespace",
                    "ml",
                    "name",
                    g.name(),
                    "creationTimestamp",
                    "2026-01-01T00:0" + i + ":00Z"),
                "spec",
                Map.of("minMember", g.minMember(), "scheduleTimeoutSeconds", 5)));
      }
      // members of all gangs interleaved, as controllers create them
      for (int m = 0; m < 5; m++) {
        for (Gang g : c.gangs()) {
          if (m < g.members()) {
            s.cluster.addPod(
                MakePod.pod()
                    .namespace("ml")
                    .name(g.name() + "-" + m)
                    .label(Coscheduling.POD_GROUP_LABEL, g.name())
                    .req("cpu", String.valueOf(g.cpu()))
                    .obj());
          }
        }
      }
      s.scheduler.runUntilIdle();

      int fullyBound = 0;
      boolean anyFitsAlone = false;
      int cpuOfAll = 0;
      for (Gang g : c.gangs()) {
        int bound = 0;
        for (int m = 0; m < g.members(); m++) {
          if (s.nodeOf("ml", g.name() + "-" + m) != null) {
            bound++;
          }
        }
        assertThat(bound)
            .as("gang %s: bound %d of min %d", g, bound, g.minMember())
            .matches(b -> b == 0 || b >= g.minMember());
        if (bound >= g.minMember()) {
          fullyBound++;
        }
        anyFitsAlone |= fits(c.nodeCpus(), g.minMember(), g.cpu());
        cpuOfAll += g.members() * g.cpu();
      }
      assertThat(s.scheduler.waitingPods().size()).as("left waiting at Permit").isZero();
      if (anyFitsAlone) {
        assertThat(fullyBound).as("some gang fits alone: progress").isPositive();
      }
      // one-CPU members pack whatever the placement: they all fit when the CPUs suffice
      boolean allFitTogether =
          c.gangs().stream().allMatch(g -> g.cpu() == 1)
              && cpuOfAll <= c.nodeCpus().stream().mapToInt(Integer::intValue).sum();
      if (allFitTogether) {
        assertThat(fullyBound).as("all gangs fit together").isEqualTo(c.gangs().size());
      }
    }
  }
}
