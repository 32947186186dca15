package io.kubesched.e2e;

import static io.kubesched.e2e.E2eCluster.failed;
import static io.kubesched.e2e.E2eCluster.node;
import static io.kubesched.e2e.E2eCluster.scheduled;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cluster.ObjectCopier;
import io.kubesched.testing.MakePod;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Requeueing through cluster events and scheduling gates, through the whole engine. */
final class QueueE2eTest {
  private static final String TOO_BIG =
      "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No"
          + " preemption victims found for incoming pod.";

  @Test
  void aPodThatFitsNowhereGetsOneFailureMessageThenIsScheduledWhenANodeIsAdded() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("small", "1", "8Gi"));
      c.add(MakePod.pod().name("p").req("cpu", "2").obj()).run();

      assertThat(c.nodeOf("p")).isNull();
      assertThat(c.distinctEvents("p")).containsExactly(failed(TOO_BIG));
      assertThat(c.podScheduled("p")).containsExactly("False", "Unschedulable", TOO_BIG);

      c.add(node("big", "4", "8Gi")).run();

      assertThat(c.nodeOf("p")).isEqualTo("big");
      assertThat(c.distinctEvents("p")).containsExactly(failed(TOO_BIG), scheduled("p", "big"));
      assertThat(c.podScheduled("p").get(0)).isEqualTo("True");
    }
  }

  @Test
  void deletingAnAssignedPodLetsThePendingPodIn() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi"));
      c.add(MakePod.pod().name("old").req("cpu", "1").node("n1").obj());
      c.add(MakePod.pod().name("p").req("cpu", "1").obj()).run();

      assertThat(c.distinctEvents("p"))
          .containsExactly(
              failed(
                  "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are"
                      + " available: 1 No preemption victims found for incoming pod."));

      c.api.deletePod(c.pod("old"));
      c.run();

      assertThat(c.nodeOf("p")).isEqualTo("n1");
    }
  }

  @Test
  void uncordoningANodeLetsThePendingPodIn() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "1", "8Gi").unschedulable(true));
      c.add(MakePod.pod().name("p").obj()).run();

      assertThat(c.distinctEvents("p"))
          .containsExactly(
              failed(
                  "0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes"
                      + " are available: 1 Preemption is not helpful for scheduling."));

      c.api.updateNode(node("n1", "1", "8Gi").obj());
      c.run();

      assertThat(c.nodeOf("p")).isEqualTo("n1");
    }
  }

  @Test
  void schedulingGatesKeepThePodOutUntilRemoved() {
    try (E2eCluster c = E2eCluster.withDefaults()) {
      c.add(node("n1", "4", "8Gi"));
      c.add(MakePod.pod().name("p").schedulingGate("example.com/quota").obj()).run();

      assertThat(c.nodeOf("p")).isNull();
      assertThat(c.events("p")).isEmpty();
      assertThat(c.scheduler().queue().sizes().get("gated")).isEqualTo(1);
      assertThat(c.podScheduled("p"))
          .containsExactly(
              "False",
              "SchedulingGated",
              "Scheduling is blocked due to non-empty scheduling gates");

      V1Pod ungated = ObjectCopier.deepCopy(c.pod("p"));
      ungated.getSpec().setSchedulingGates(List.of());
      c.api.updatePod(ungated);
      c.run();

      assertThat(c.nodeOf("p")).isEqualTo("n1");
      assertThat(c.events("p")).containsExactly(scheduled("p", "n1"));
      assertThat(c.scheduler().queue().sizes().get("gated")).isEqualTo(0);
    }
  }
}
