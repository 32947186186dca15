package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.pod;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.core.config.GoDuration;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.framework.WaitingPod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Permit waiting: allow, timeout and rejection, driven by a manual scheduler (no sleeping). */
final class FrameworkPermitTest {
  private final ManualScheduler timers = new ManualScheduler();
  private final WaitingPods waitingPods = new WaitingPods(timers);
  private final FrameworkContext ctx =
      Fixtures.context(new Fixtures.Nominator(), waitingPods, SchedulerMetrics.NOOP);
  private final PodInfo pod = pod("p");

  private Framework framework(String profile, Duration waitA, Duration waitB) {
    var p = basePlugins().enable("permit", "A", "B").build();
    return Framework.create(
        new io.kubesched.core.config.Profile(profile, null, p, List.of()),
        0,
        Fake.registry(
            queueSort(),
            binder(),
            Fake.plugin("A").permit(PermitResult.waitFor(waitA)).build(),
            Fake.plugin("B").permit(PermitResult.waitFor(waitB)).build()),
        ctx);
  }

  private CompletableFuture<Status> waitingPod(Framework f) {
    Status s = f.runPermitPlugins(new CycleState(), pod, "n1");
    assertThat(s.code()).isEqualTo(Status.Code.WAIT);
    return f.waitOnPermit(pod);
  }

  @Test
  void allowedByEveryWaitingPluginTheBindingGoesOn() {
    Framework f = framework("default-scheduler", Duration.ofSeconds(30), Duration.ofMinutes(1));
    CompletableFuture<Status> signal = waitingPod(f);
    WaitingPod wp = f.getWaitingPod(pod.uid()).orElseThrow();

    wp.allow("A");
    assertThat(signal).isNotDone();
    assertThat(wp.pendingPlugins()).containsExactly("B");
    wp.allow("B");

    assertThat(signal).isCompletedWithValue(Status.success());
    assertThat(f.getWaitingPod(pod.uid())).isEmpty();
    assertThat(timers.pending()).isZero();
  }

  static Stream<Arguments> timeouts() {
    return Stream.of(
        argumentSet(
            "seconds",
            Duration.ofSeconds(10),
            "rejected due to timeout after waiting 10s at plugin A"),
        argumentSet(
            "a minute prints as Go does",
            Duration.ofMinutes(1),
            "rejected due to timeout after waiting 1m0s at plugin A"),
        argumentSet(
            "more than 15 minutes is capped",
            Duration.ofHours(2),
            "rejected due to timeout after waiting 15m0s at plugin A"));
  }

  @ParameterizedTest
  @MethodSource("timeouts")
  void aTimeoutRejectsThePod(Duration waitA, String message) {
    Framework f = framework("default-scheduler", waitA, Duration.ofHours(1));
    CompletableFuture<Status> signal = waitingPod(f);
    Duration effective =
        waitA.compareTo(Duration.ofMinutes(15)) > 0 ? Duration.ofMinutes(15) : waitA;

    timers.advance(effective.minusNanos(1));
    assertThat(signal).isNotDone();
    timers.advance(Duration.ofNanos(1));

    assertThat(signal).isCompletedWithValue(Status.unschedulable(message).withPlugin("A"));
    assertThat(timers.pending()).isZero();
  }

  @Test
  void anotherPluginCanRejectAndTheFirstSignalWins() {
    Framework f = framework("default-scheduler", Duration.ofSeconds(10), Duration.ofSeconds(10));
    CompletableFuture<Status> signal = waitingPod(f);
    WaitingPod wp = f.getWaitingPod(pod.uid()).orElseThrow();

    wp.reject("Coscheduling", "group incomplete");
    wp.allow("A");
    wp.allow("B");
    timers.advance(Duration.ofMinutes(1));

    assertThat(signal)
        .isCompletedWithValue(Status.unschedulable("group incomplete").withPlugin("Coscheduling"));
  }

  @Test
  void rejectingThroughTheHandleSaysRemoved() {
    Framework f = framework("default-scheduler", Duration.ofSeconds(10), Duration.ofSeconds(10));
    CompletableFuture<Status> signal = waitingPod(f);

    boolean found = f.rejectWaitingPod(pod.uid());

    assertThat(found).isTrue();
    assertThat(signal).isCompletedWithValue(Status.unschedulable("removed").withPlugin(""));
    assertThat(f.rejectWaitingPod(pod.uid())).isFalse();
  }

  @Test
  void aPodThatIsNotWaitingIsAllowedAtOnce() {
    Framework f = framework("default-scheduler", Duration.ofSeconds(10), Duration.ofSeconds(10));

    assertThat(f.waitOnPermit(pod("other"))).isCompletedWithValue(Status.success());
    assertThat(f.willWaitOnPermit(pod("other"))).isFalse();
  }

  @Test
  void waitingPodsAreSharedAcrossProfiles() {
    Framework first = framework("first", Duration.ofSeconds(10), Duration.ofSeconds(10));
    Framework second = framework("second", Duration.ofSeconds(10), Duration.ofSeconds(10));
    waitingPod(first);

    List<String> seen = new ArrayList<>();
    second.iterateOverWaitingPods(wp -> seen.add(wp.pod().name() + "@" + wp.nodeName()));

    assertThat(seen).containsExactly("p@n1");
    assertThat(second.getWaitingPod(pod.uid()).orElseThrow())
        .isSameAs(first.getWaitingPod(pod.uid()).orElseThrow());
  }

  static Stream<Arguments> goDurations() {
    return Stream.of(
        argumentSet("zero", Duration.ZERO, "0s"),
        argumentSet("nanoseconds", Duration.ofNanos(10), "10ns"),
        argumentSet("microseconds", Duration.ofNanos(2_500), "2.5\u00b5s"),
        argumentSet("milliseconds", Duration.ofMillis(500), "500ms"),
        argumentSet("fractional milliseconds", Duration.ofNanos(1_500_000), "1.5ms"),
        argumentSet("seconds", Duration.ofSeconds(10), "10s"),
        argumentSet("fractional seconds", Duration.ofMillis(1500), "1.5s"),
        argumentSet("a minute", Duration.ofMinutes(1), "1m0s"),
        argumentSet("minutes and seconds", Duration.ofSeconds(90), "1m30s"),
        argumentSet("an hour", Duration.ofHours(1), "1h0m0s"),
        argumentSet("everything", Duration.ofMillis(3_723_004), "1h2m3.004s"),
        argumentSet("negative", Duration.ofSeconds(-5), "-5s"));
  }

  @ParameterizedTest
  @MethodSource("goDurations")
  void formatsDurationsAsGo(Duration d, String expected) {
    assertThat(GoDuration.format(d)).isEqualTo(expected);
  }
}
