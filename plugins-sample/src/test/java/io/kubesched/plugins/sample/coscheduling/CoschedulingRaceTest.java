package io.kubesched.plugins.sample.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.plugins.sample.SampleScheduler;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * scheduler-plugins' race between Permit and the gang's timeout, through the real scheduler: the
 * waiting members time out (and are released) while the last member's scheduling cycle runs, as the
 * timer thread does under {@code kubesched run}. The last member must not be allowed on the
 * strength of siblings that are gone, which would bind a partial gang.
 */
final class CoschedulingRaceTest {
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
          filter: {enabled: [{name: TimeoutDuringCycle}]}
          postFilter: {enabled: [{name: Coscheduling}]}
          reserve: {enabled: [{name: Coscheduling}]}
          permit: {enabled: [{name: Coscheduling}]}
          postBind: {enabled: [{name: Coscheduling}]}
      """;

  /**
   * A Filter plugin that, in the first cycle of pod {@code ml/r-2}, lets the group's Permit timeout
   * pass and creates a pod that takes the capacity the released members had.
   */
  static final class TimeoutDuringCycle implements FilterPlugin {
    private final AtomicReference<SampleScheduler> s;
    private final AtomicBoolean done = new AtomicBoolean();

    TimeoutDuringCycle(AtomicReference<SampleScheduler> s) {
      this.s = s;
    }

    @Override
    public String name() {
      return "TimeoutDuringCycle";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      if (pod.key().equals("ml/r-2") && done.compareAndSet(false, true)) {
        s.get().time.advance(Duration.ofSeconds(10));
        s.get()
            .cluster
            .addPod(
                MakePod.pod().namespace("ml").name("intruder").priority(100).req("cpu", "2").obj());
      }
      return Status.success();
    }
  }

  record Provider(AtomicReference<SampleScheduler> s) implements PluginProvider<NoArgs> {
    @Override
    public String name() {
      return "TimeoutDuringCycle";
    }

    @Override
    public Class<NoArgs> argsType() {
      return NoArgs.class;
    }

    @Override
    public NoArgs defaultArgs() {
      return NoArgs.INSTANCE;
    }

    @Override
    public Class<? extends Plugin> pluginType() {
      return TimeoutDuringCycle.class;
    }

    @Override
    public Plugin create(NoArgs args, FrameworkHandle handle) {
      return new TimeoutDuringCycle(s);
    }
  }

  @Test
  void aMemberIsNotAllowedOnSiblingsReleasedDuringItsCycle() {
    AtomicReference<SampleScheduler> ref = new AtomicReference<>();
    try (SampleScheduler s = new SampleScheduler(CONFIG, List.of(new Provider(ref)))) {
      ref.set(s);
      s.cluster.addNode(
          MakeNode.node()
              .name("node-0")
              .capacity("cpu", "3", "memory", "16Gi", "pods", "110")
              .obj());
      s.cluster.createCustomObject(
          Map.of(
              "apiVersion",
              PodGroup.API_VERSION,
              "kind",
              PodGroup.KIND,
              "metadata",
              Map.of("namespace", "ml", "name", "r", "creationTimestamp", "2025-12-31T00:00:00Z"),
              "spec",
              Map.of("minMember", 3, "scheduleTimeoutSeconds", 10)));
      for (int i = 0; i < 3; i++) {
        s.cluster.addPod(
            MakePod.pod()
                .namespace("ml")
                .name("r-" + i)
                .label(Coscheduling.POD_GROUP_LABEL, "r")
                .req("cpu", "1")
                .obj());
      }
      s.scheduler.runUntilIdle();
      // r-0 and r-1 timed out during r-2's cycle and the intruder took their room: the gang can
      // no longer fit whole, so none of it may be bound
      assertThat(s.scheduledEvents()).containsExactly("intruder");
      assertThat(
              java.util.Arrays.asList(
                  s.nodeOf("ml", "r-0"), s.nodeOf("ml", "r-1"), s.nodeOf("ml", "r-2")))
          .containsOnlyNulls();
    }
  }
}
