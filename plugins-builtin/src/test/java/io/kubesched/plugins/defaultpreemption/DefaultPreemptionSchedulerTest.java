package io.kubesched.plugins.defaultpreemption;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetSpec;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetStatus;
import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.CoreEvent;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.metrics.InMemoryMetrics;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Preemption through the whole scheduler with the default plugins, on an in-memory cluster with
 * simulated time: the preemptor fails its first cycle, evicts its victims, and is bound on the next
 * attempt.
 */
final class DefaultPreemptionSchedulerTest {
  private final SimulatedTime time = new SimulatedTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final InMemoryCluster cluster = new InMemoryCluster(time.clock());
  private final InMemoryMetrics metrics = new InMemoryMetrics();
  private Scheduler scheduler;

  @AfterEach
  void close() {
    if (scheduler != null) {
      scheduler.close();
    }
  }

  private void run(V1Pod preemptor) {
    PluginRegistry registry = PluginRegistry.discover();
    scheduler =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(ConfigurationLoader.defaults(registry))
            .registry(registry)
            .simulatedTime(time)
            .metrics(metrics)
            .random(new Random(0))
            .build();
    scheduler.start();
    cluster.addPod(preemptor);
    scheduler.runUntilIdle();
  }

  private Optional<V1Pod> pod(String name) {
    return cluster.getPod("default", name);
  }

  /**
   * Returns the messages of the events {@code reason} about {@code pod}; an unschedulable pod is
   * retried when it has waited the maximum time, so it may get several.
   */
  private List<String> messages(String pod, String reason) {
    return cluster.eventsFor("Pod", "default", pod).stream()
        .filter(e -> e.reason().equals(reason))
        .map(CoreEvent::message)
        .toList();
  }

  @Test
  void preemptorEvictsTheLowerPriorityPodAndIsBoundAfterwards() {
    cluster.addNode(MakeNode.node().name("node1").capacity("cpu", "1", "memory", "4Gi").obj());
    cluster.addPod(MakePod.pod().name("low").node("node1").priority(0).req("cpu", "800m").obj());

    run(MakePod.pod().name("high").priority(100).req("cpu", "500m").obj());

    assertThat(pod("low")).isEmpty();
    assertThat(messages("low", "Preempted"))
        .containsExactly("Preempted by pod default/high on node node1");
    assertThat(messages("high", "FailedScheduling"))
        .containsExactly("0/1 nodes are available: 1 Insufficient cpu.");
    assertThat(pod("high").orElseThrow().getSpec().getNodeName()).isEqualTo("node1");
    assertThat(metrics.count(InMemoryMetrics.PREEMPTION_ATTEMPTS)).isEqualTo(1);
  }

  @Test
  void preemptorWithPolicyNeverStaysPending() {
    cluster.addNode(MakeNode.node().name("node1").capacity("cpu", "1", "memory", "4Gi").obj());
    cluster.addPod(MakePod.pod().name("low").node("node1").priority(0).req("cpu", "800m").obj());

    run(
        MakePod.pod()
            .name("high")
            .priority(100)
            .preemptionPolicy("Never")
            .req("cpu", "500m")
            .obj());

    assertThat(pod("low")).isPresent();
    assertThat(messages("high", "FailedScheduling"))
        .first()
        .isEqualTo(
            "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to"
                + " preemptionPolicy=Never.");
    assertThat(pod("high").orElseThrow().getSpec().getNodeName()).isNull();
  }

  @Test
  void preemptorOfEqualPriorityFindsNoVictim() {
    cluster.addNode(MakeNode.node().name("node1").capacity("cpu", "1", "memory", "4Gi").obj());
    cluster.addPod(MakePod.pod().name("peer").node("node1").priority(100).req("cpu", "800m").obj());

    run(MakePod.pod().name("high").priority(100).req("cpu", "500m").obj());

    assertThat(pod("peer")).isPresent();
    assertThat(messages("high", "FailedScheduling"))
        .first()
        .isEqualTo(
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1"
                + " No preemption victims found for incoming pod.");
  }

  @Test
  void preemptionAvoidsViolatingAPodDisruptionBudget() {
    cluster.addNode(MakeNode.node().name("node1").capacity("cpu", "1", "memory", "4Gi").obj());
    cluster.addNode(MakeNode.node().name("node2").capacity("cpu", "1", "memory", "4Gi").obj());
    cluster.addPod(
        MakePod.pod()
            .name("protected")
            .label("app", "db")
            .node("node1")
            .priority(0)
            .req("cpu", "800m")
            .obj());
    cluster.addPod(
        MakePod.pod()
            .name("free")
            .label("app", "web")
            .node("node2")
            .priority(50)
            .req("cpu", "800m")
            .obj());
    cluster.create(
        new V1PodDisruptionBudget()
            .metadata(new V1ObjectMeta().name("db").namespace("default"))
            .spec(
                new V1PodDisruptionBudgetSpec()
                    .selector(new V1LabelSelector().putMatchLabelsItem("app", "db")))
            .status(
                new V1PodDisruptionBudgetStatus()
                    .disruptionsAllowed(0)
                    .currentHealthy(1)
                    .desiredHealthy(1)
                    .expectedPods(1)));

    run(MakePod.pod().name("high").priority(100).req("cpu", "500m").obj());

    assertThat(pod("protected")).isPresent();
    assertThat(pod("free")).isEmpty();
    assertThat(pod("high").orElseThrow().getSpec().getNodeName()).isEqualTo("node2");
  }
}
