package io.kubesched.core;

import static io.kubesched.core.TestObjects.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubesched.core.cluster.CoreEvent;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreBindPlugin;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One scheduling attempt per case, with each extension point after the algorithm scripted, as in
 * kube's {@code TestSchedulerScheduleOne}: where the pod ends up, the event, the status patch and
 * the cache.
 */
final class SchedulerScheduleOneTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final SimulatedTime time = new SimulatedTime(T0);
  private final InMemoryCluster cluster = new InMemoryCluster(time.clock());
  private final List<Scheduler> schedulers = new ArrayList<>();

  @AfterEach
  void close() {
    schedulers.forEach(Scheduler::close);
  }

  /**
   * Only node additions requeue pods rejected by the fakes. Without this registration a plugin gets
   * every event with an always-Queue hint, and the scheduler's own PodScheduled status patch (a
   * Pod/Update event) would move its rejected pod to the backoff queue at once, as it does in
   * kube-scheduler.
   */
  private static final List<ClusterEventWithHint> NODE_ADD_ONLY =
      List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD));

  /** Returns {@code status} from Reserve; records Unreserve. */
  record FakeReserve(Status status, List<String> unreserved)
      implements ReservePlugin, EnqueueExtensions {
    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
      return NODE_ADD_ONLY;
    }

    @Override
    public String name() {
      return "FakeReserve";
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      return status;
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
      unreserved.add(pod.name());
    }
  }

  /** Returns {@code status} from Permit (a minute's wait for Wait). */
  record FakePermit(Status status) implements PermitPlugin, EnqueueExtensions {
    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
      return NODE_ADD_ONLY;
    }

    @Override
    public String name() {
      return "FakePermit";
    }

    @Override
    public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
      return new PermitResult(status, Duration.ofMinutes(1));
    }
  }

  /** Returns {@code status} from PreBind. */
  record FakePreBind(Status status) implements PreBindPlugin {
    @Override
    public String name() {
      return "FakePreBind";
    }

    @Override
    public Status preBind(CycleState state, PodInfo pod, String nodeName) {
      return status;
    }
  }

  /** Binds through the client unless {@code status} is an error. */
  static final class FakeBinder implements BindPlugin {
    private final Status status;
    private FrameworkHandle handle;

    FakeBinder(Status status) {
      this.status = status;
    }

    @Override
    public String name() {
      return "DefaultBinder";
    }

    @Override
    public Status bind(CycleState state, PodInfo pod, String nodeName) {
      if (!status.isSuccess()) {
        return status;
      }
      handle.client().bind(pod.pod(), nodeName);
      return Status.success();
    }
  }

  /**
   * The expected outcome.
   *
   * @param reason the reason of the pod's last event
   * @param message the message of the pod's last event
   * @param queue where the pod is: {@code backoff}, {@code unschedulable} or {@code none}
   * @param node the node the pod is bound to, or {@code null}
   * @param unreserved whether Unreserve ran
   */
  record Want(String reason, String message, String queue, String node, boolean unreserved) {}

  private static Status error(String message) {
    return Status.error(new IllegalStateException(message));
  }

  static Stream<Arguments> cases() {
    Status ok = Status.success();
    V1Pod deleting = TestObjects.pod("foo");
    deleting.getMetadata().setDeletionTimestamp(OffsetDateTime.parse("2026-01-01T00:00:00Z"));
    return Stream.of(
        argumentSet(
            "a pod that binds gets the Scheduled event",
            TestObjects.pod("foo"),
            ok,
            ok,
            ok,
            ok,
            new Want(
                "Scheduled", "Successfully assigned default/foo to node1", "none", "node1", false)),
        argumentSet(
            "reserve failed with status code error",
            TestObjects.pod("foo"),
            error("reserve error"),
            ok,
            ok,
            ok,
            new Want(
                "FailedScheduling",
                "running Reserve plugin \"FakeReserve\": reserve error",
                "backoff",
                null,
                true)),
        argumentSet(
            "reserve failed with status code rejected",
            TestObjects.pod("foo"),
            Status.unresolvable("rejected on reserve"),
            ok,
            ok,
            ok,
            new Want(
                "FailedScheduling",
                "0/1 nodes are available: 1 rejected on reserve.",
                "unschedulable",
                null,
                true)),
        argumentSet(
            "permit failed with status code error",
            TestObjects.pod("foo"),
            ok,
            error("permit error"),
            ok,
            ok,
            new Want(
                "FailedScheduling",
                "running Permit plugin \"FakePermit\": permit error",
                "backoff",
                null,
                true)),
        argumentSet(
            "permit failed with status code rejected",
            TestObjects.pod("foo"),
            ok,
            Status.unschedulable("rejected on permit"),
            ok,
            ok,
            new Want(
                "FailedScheduling",
                "0/1 nodes are available: 1 rejected on permit.",
                "unschedulable",
                null,
                true)),
        argumentSet(
            "prebind failed with status code error",
            TestObjects.pod("foo"),
            ok,
            ok,
            error("on PreBind"),
            ok,
            new Want(
                "FailedScheduling",
                "running PreBind plugin \"FakePreBind\": on PreBind",
                "backoff",
                null,
                true)),
        argumentSet(
            "binding failed",
            TestObjects.pod("foo"),
            ok,
            ok,
            ok,
            error("binder"),
            new Want(
                "FailedScheduling",
                "running Bind plugin \"DefaultBinder\": binder",
                "backoff",
                null,
                true)),
        argumentSet(
            "a deleting pod is skipped with an event",
            deleting,
            ok,
            ok,
            ok,
            ok,
            new Want(
                "FailedScheduling",
                "skip schedule deleting pod: default/foo",
                "none",
                null,
                false)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void scheduleOne(
      V1Pod pod, Status reserve, Status permit, Status preBind, Status bind, Want want) {
    cluster.addNode(node("node1", "4", "8Gi"));
    cluster.addPod(pod);
    List<String> unreserved = new ArrayList<>();
    FakeBinder binder = new FakeBinder(bind);
    Plugin[] plugins = {
      new TestPlugins.Sort(),
      new TestPlugins.Fit(),
      new FakeReserve(reserve, unreserved),
      new FakePermit(permit),
      new FakePreBind(preBind),
      binder
    };
    // The binder needs its handle: register it through a provider that keeps it.
    PluginRegistry registry =
        PluginRegistry.empty()
            .register(
                TestPlugins.provider(
                    binder.name(),
                    FakeBinder.class,
                    h -> {
                      binder.handle = h;
                      return binder;
                    }));
    for (Plugin p : plugins) {
      if (p != binder) {
        registry.register(TestPlugins.provider(p.name(), p.getClass(), h -> p));
      }
    }
    Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(TestPlugins.configuration("default-scheduler", plugins))
            .registry(registry)
            .simulatedTime(time)
            .build();
    schedulers.add(s);
    s.start();

    assertThat(s.scheduleOne()).isTrue();
    time.runDueTasks();

    List<CoreEvent> events = cluster.eventsFor("Pod", "default", "foo");
    CoreEvent last = events.get(events.size() - 1);
    String queue =
        s.queue().podsInBackoffQ().stream().anyMatch(p -> p.getMetadata().getName().equals("foo"))
            ? "backoff"
            : s.queue().unschedulablePods().stream()
                    .anyMatch(p -> p.getMetadata().getName().equals("foo"))
                ? "unschedulable"
                : "none";
    V1Pod stored = cluster.getPod("default", "foo").orElseThrow();
    assertThat(
            new Want(
                last.reason(),
                last.message(),
                queue,
                stored.getSpec().getNodeName(),
                !unreserved.isEmpty()))
        .isEqualTo(want);
    assertThat(s.cache().isAssumedPod("default/foo")).isFalse();
    assertThat(s.bindingsInFlight()).isZero();
    if (want.reason().equals("FailedScheduling") && !want.message().startsWith("skip")) {
      V1PodCondition c =
          stored.getStatus().getConditions().stream()
              .filter(x -> x.getType().equals("PodScheduled"))
              .findFirst()
              .orElseThrow();
      String reason = want.queue().equals("unschedulable") ? "Unschedulable" : "SchedulerError";
      assertThat(
              Map.of("status", c.getStatus(), "reason", c.getReason(), "message", c.getMessage()))
          .isEqualTo(Map.of("status", "False", "reason", reason, "message", want.message()));
    }
  }
}
