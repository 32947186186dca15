package io.kubesched.plugins.sample.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.plugins.sample.SampleScheduler;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Gang scheduling through the real scheduler: all or nothing, no deadlock, timeouts. */
final class CoschedulingSchedulerTest {
  static final String CONFIG =
      """
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: KubeSchedulerConfiguration
      profiles:
      - plugins:
          queueSort:
            enabled: [{name: Coscheduling}]
            disabled: [{name: "*"}]
          preFilter: {enabled: [{name: Coscheduling}]}
          postFilter: {enabled: [{name: Coscheduling}]}
          reserve: {enabled: [{name: Coscheduling}]}
          permit: {enabled: [{name: Coscheduling}]}
        pluginConfig:
        - name: Coscheduling
          args: {permitWaitingTimeSeconds: 30}
      """;

  private static void group(SampleScheduler s, String name, int minMember, String created) {
    s.cluster.createCustomObject(
        Map.of(
            "apiVersion",
            PodGroup.API_VERSION,
            "kind",
            PodGroup.KIND,
            "metadata",
            Map.of("namespace", "ml", "name", name, "creationTimestamp", created),
            "spec",
            Map.of("minMember", minMember)));
  }

  private static void members(SampleScheduler s, String group, int n, String cpu) {
    for (int i = 0; i < n; i++) {
      s.cluster.addPod(
          MakePod.pod()
              .namespace("ml")
              .name(group + "-" + i)
              .label(Coscheduling.POD_GROUP_LABEL, group)
              .req("cpu", cpu)
              .obj());
    }
  }

  private static List<String> bound(SampleScheduler s, String group, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(s.nodeOf("ml", group + "-" + i));
    }
    return out;
  }

  private static void nodes(SampleScheduler s, int n, String cpu) {
    for (int i = 0; i < n; i++) {
      s.cluster.addNode(
          MakeNode.node()
              .name("node-" + i)
              .capacity("cpu", cpu, "memory", "16Gi", "pods", "110")
              .obj());
    }
  }

  @Test
  void aGroupThatFitsIsBoundWhole() {
    try (SampleScheduler s = new SampleScheduler(CONFIG)) {
      nodes(s, 2, "4");
      group(s, "a", 3, "2026-01-01T00:00:00Z");
      members(s, "a", 3, "2");
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "a", 3)).doesNotContainNull();
    }
  }

  @Test
  void aGroupThatDoesNotFitBindsNothingAtAnyTime() {
    try (SampleScheduler s = new SampleScheduler(CONFIG)) {
      nodes(s, 2, "4");
      group(s, "b", 4, "2026-01-01T00:00:00Z");
      members(s, "b", 4, "3");
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "b", 4)).containsOnlyNulls();
      assertThat(s.scheduledEvents()).isEmpty();
      assertThat(s.scheduler.waitingPods().size()).isZero();
    }
  }

  @Test
  void twoGroupsCompetingForTheSameCapacityDoNotDeadlock() {
    try (SampleScheduler s = new SampleScheduler(CONFIG)) {
      nodes(s, 2, "2");
      // each group needs all 4 CPUs; the older group is ordered first and completes
      group(s, "old", 4, "2026-01-01T00:00:00Z");
      group(s, "new", 4, "2026-01-01T00:01:00Z");
      for (int i = 0; i < 4; i++) {
        s.cluster.addPod(
            MakePod.pod()
                .namespace("ml")
                .name("new-" + i)
                .label(Coscheduling.POD_GROUP_LABEL, "new")
                .req("cpu", "1")
                .obj());
        s.cluster.addPod(
            MakePod.pod()
                .namespace("ml")
                .name("old-" + i)
                .label(Coscheduling.POD_GROUP_LABEL, "old")
                .req("cpu", "1")
                .obj());
      }
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "old", 4)).doesNotContainNull();
      assertThat(bound(s, "new", 4)).containsOnlyNulls();
    }
  }

  @Test
  void aTimeoutRejectsTheWholeGroupAndReleasesItsReservations() {
    try (SampleScheduler s = new SampleScheduler(CONFIG)) {
      nodes(s, 1, "4");
      s.cluster.createCustomObject(
          Map.of(
              "apiVersion",
              PodGroup.API_VERSION,
              "kind",
              PodGroup.KIND,
              "metadata",
              Map.of("namespace", "ml", "name", "t"),
              "spec",
              Map.of("minMember", 3, "scheduleTimeoutSeconds", 10)));
      members(s, "t", 2, "1");
      // the third member exists but is gated: the first two wait at Permit until the timeout
      // rejects them, then are retried (as kube-scheduler retries them) and time out again
      s.cluster.addPod(
          MakePod.pod()
              .namespace("ml")
              .name("t-2")
              .label(Coscheduling.POD_GROUP_LABEL, "t")
              .req("cpu", "1")
              .schedulingGate("hold")
              .obj());
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "t", 3)).containsOnlyNulls();
      assertThat(s.scheduledEvents()).isEmpty();
      assertThat(s.cluster.events().stream().map(e -> e.message()))
          .anyMatch(
              m ->
                  m.contains(
                      "rejected due to timeout after waiting 10s at plugin" + " Coscheduling"));
      // released at the timeout, then backed off: each retry waits 10s at Permit again, and the
      // retries of a member are further apart than that (its pod backoff, growing per attempt)
      List<Instant> timeouts =
          s.cluster.events().stream()
              .filter(e -> e.regardingName().equals("t-0") && e.message().contains("timeout"))
              .map(e -> e.timestamp())
              .toList();
      assertThat(timeouts).hasSizeGreaterThan(1);
      assertThat(timeouts.get(0)).isEqualTo(Instant.parse("2026-01-01T00:00:10Z"));
      for (int i = 1; i < timeouts.size(); i++) {
        assertThat(Duration.between(timeouts.get(i - 1), timeouts.get(i)))
            .as("retry %d of t-0 after its release", i)
            .isGreaterThan(Duration.ofSeconds(10));
      }
      // without the third member the group can no longer complete: PreFilter turns the members
      // away and their reservations are released, so an ordinary pod can use the whole node
      s.cluster.deletePod(s.cluster.getPod("ml", "t-2").orElseThrow());
      s.time.advance(Duration.ofSeconds(11));
      s.scheduler.runUntilIdle();
      assertThat(s.scheduler.waitingPods().size()).isZero();
      s.cluster.addPod(MakePod.pod().namespace("ml").name("solo").req("cpu", "4").obj());
      s.scheduler.runUntilIdle();
      assertThat(s.nodeOf("ml", "solo")).isEqualTo("node-0");
    }
  }

  @Test
  void aPodGroupCreatedAfterItsPodsRequeuesThemAtOnce() {
    try (SampleScheduler s = new SampleScheduler(CONFIG)) {
      nodes(s, 2, "4");
      members(s, "late", 3, "2");
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "late", 3)).containsOnlyNulls();
      assertThat(s.cluster.events().stream().map(e -> e.message()))
          .anyMatch(m -> m.contains("PodGroup ml/late not found"));
      Instant before = s.time.now();
      group(s, "late", 3, "2026-01-01T00:00:00Z");
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "late", 3)).doesNotContainNull();
      // requeued by the PodGroup/Add event, after the members' backoff (at most podMaxBackoff,
      // 10s): not by the unschedulable pods' 5-minute flush
      assertThat(Duration.between(before, s.time.now()))
          .isLessThanOrEqualTo(Duration.ofSeconds(10));
    }
  }

  @Test
  void aPodGroupUpdateRequeuesItsPodsWhenItsSpecChanges() {
    try (SampleScheduler s = new SampleScheduler(CONFIG)) {
      nodes(s, 2, "4");
      group(s, "shrink", 4, "2026-01-01T00:00:00Z");
      members(s, "shrink", 3, "2");
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "shrink", 3)).containsOnlyNulls();
      Instant before = s.time.now();
      Map<String, Object> pg =
          new java.util.HashMap<>(
              s.cluster.listCustomObjects(PodGroup.API_VERSION, PodGroup.KIND, "ml").get(0));
      pg.put("spec", Map.of("minMember", 3));
      s.cluster.updateCustomObject(pg);
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "shrink", 3)).doesNotContainNull();
      assertThat(Duration.between(before, s.time.now()))
          .isLessThanOrEqualTo(Duration.ofSeconds(10));
    }
  }

  @Test
  void aGangThatCanFitAfterANodeIsAddedIsScheduledAtItsNextAttempt() {
    try (SampleScheduler s = new SampleScheduler(CONFIG)) {
      nodes(s, 2, "4");
      group(s, "wide", 3, "2026-01-01T00:00:00Z");
      members(s, "wide", 3, "3");
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "wide", 3)).containsOnlyNulls();
      Instant before = s.time.now();
      s.cluster.addNode(
          MakeNode.node()
              .name("node-2")
              .capacity("cpu", "4", "memory", "16Gi", "pods", "110")
              .obj());
      s.scheduler.runUntilIdle();
      assertThat(bound(s, "wide", 3)).doesNotContainNull();
      // the Node/Add event requeues the members and lifts the group's backoff: bound after the
      // members' own backoff (at most podMaxBackoff, 10s), not at the 5-minute flush
      assertThat(Duration.between(before, s.time.now()))
          .isLessThanOrEqualTo(Duration.ofSeconds(10));
    }
  }
}
