package io.kubesched.plugins.sample.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.plugins.sample.SampleScheduler;
import io.kubesched.plugins.sample.logging.LogCapture;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * scheduler-plugins' unschedulable gangs flooding the logs: a gang that never fits, retried over
 * many rounds on 50 nodes, through the real scheduler with every log level (TRACE included)
 * captured.
 */
final class CoschedulingLogTest {
  private static final int NODES = 50;
  private static final int MEMBERS = 8;
  private static final int ROUNDS = 6;

  private static long count(List<String> lines, String... parts) {
    return lines.stream().filter(l -> List.of(parts).stream().allMatch(l::contains)).count();
  }

  @Test
  void aGangThatNeverFitsLogsItsRejectionOncePerGroupAttemptAndNothingPerNode() {
    List<String> lines;
    try (SampleScheduler s = new SampleScheduler(CoschedulingSchedulerTest.CONFIG);
        LogCapture capture = LogCapture.start()) {
      for (int i = 0; i < NODES; i++) {
        s.cluster.addNode(
            MakeNode.node()
                .name("node-" + i)
                .capacity("cpu", "2", "memory", "16Gi", "pods", "110")
                .obj());
      }
      s.cluster.createCustomObject(
          Map.of(
              "apiVersion",
              PodGroup.API_VERSION,
              "kind",
              PodGroup.KIND,
              "metadata",
              Map.of("namespace", "ml", "name", "huge"),
              "spec",
              Map.of("minMember", MEMBERS)));
      for (int i = 0; i < MEMBERS; i++) {
        s.cluster.addPod(
            MakePod.pod()
                .namespace("ml")
                .name("huge-" + i)
                .label(Coscheduling.POD_GROUP_LABEL, "huge")
                .req("cpu", "3")
                .obj());
      }
      // each run retries every member once more (after the 5-minute flush)
      for (int round = 0; round < ROUNDS; round++) {
        s.scheduler.runUntilIdle();
      }
      assertThat(s.scheduledEvents()).isEmpty();
      lines = capture.lines();
    }
    long attempts = count(lines, "attempting to schedule pod");
    long turnedAway = count(lines, "unable to schedule pod", "podGroup ml/huge failed recently");
    long groupAttempts = attempts - turnedAway;
    assertThat(attempts).isGreaterThanOrEqualTo((long) ROUNDS * MEMBERS);
    assertThat(groupAttempts).isPositive();
    // the rejection: once per group attempt (the member that found no node), not per member
    assertThat(count(lines, "pod group rejected")).isEqualTo(groupAttempts);
    // nothing per node (50 nodes each time a member is filtered), a few lines per attempt
    assertThat(lines).noneMatch(l -> l.contains("node-"));
    assertThat((long) lines.size()).isLessThanOrEqualTo(6 * attempts);
  }
}
