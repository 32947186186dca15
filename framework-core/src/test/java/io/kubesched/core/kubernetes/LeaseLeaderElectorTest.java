package io.kubesched.core.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class LeaseLeaderElectorTest {
  private static final LeaseLeaderElector.Timing KUBE_DEFAULTS =
      new LeaseLeaderElector.Timing(
          Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));

  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void close() {
    executor.shutdownNow();
    server.close();
  }

  private LeaseLeaderElector candidate(String id, LeaseLeaderElector.Timing timing, Clock c) {
    return new LeaseLeaderElector(client, "kube-system", "kube-scheduler", id, timing, c, executor);
  }

  private V1LeaseSpec lease() throws Exception {
    return new CoordinationV1Api(client)
        .readNamespacedLease("kube-scheduler", "kube-system")
        .execute()
        .getSpec();
  }

  @Test
  void aHolderKeepsTheLeaseWhileRenewingAndLosesItAfterTheLeaseDuration() throws Exception {
    LeaseLeaderElector a = candidate("a", KUBE_DEFAULTS, clock);
    LeaseLeaderElector b = candidate("b", KUBE_DEFAULTS, clock);

    assertThat(a.tryAcquireOrRenew()).isTrue();
    assertThat(lease().getHolderIdentity()).isEqualTo("a");
    assertThat(lease().getLeaseDurationSeconds()).isEqualTo(15);
    assertThat(lease().getLeaseTransitions()).isZero();
    assertThat(b.tryAcquireOrRenew()).isFalse();

    clock.advance(Duration.ofSeconds(10));
    assertThat(a.tryAcquireOrRenew()).isTrue();
    assertThat(b.tryAcquireOrRenew()).as("b saw a renew at t=10").isFalse();

    clock.advance(Duration.ofSeconds(14));
    assertThat(b.tryAcquireOrRenew()).as("t=24: within 15 s of the renewal b saw").isFalse();
    clock.advance(Duration.ofSeconds(2));
    assertThat(b.tryAcquireOrRenew()).as("t=26: expired").isTrue();
    assertThat(lease().getHolderIdentity()).isEqualTo("b");
    assertThat(lease().getLeaseTransitions()).isEqualTo(1);

    assertThat(a.isLeader()).isTrue();
    assertThat(a.tryAcquireOrRenew()).isFalse();
    assertThat(a.isLeader()).as("no renewal for more than the renew deadline").isFalse();
  }

  @Test
  void aReleasedLeaseIsTakenAtOnce() throws Exception {
    LeaseLeaderElector a = candidate("a", KUBE_DEFAULTS, clock);
    LeaseLeaderElector b = candidate("b", KUBE_DEFAULTS, clock);
    assertThat(a.tryAcquireOrRenew()).isTrue();
    assertThat(b.tryAcquireOrRenew()).isFalse();

    a.release();

    assertThat(a.isLeader()).isFalse();
    assertThat(lease().getHolderIdentity()).isNull();
    assertThat(b.tryAcquireOrRenew()).isTrue();
    assertThat(lease().getHolderIdentity()).isEqualTo("b");
  }

  @Test
  void theLoopStartsLeadingAndClosingReleasesTheLease() throws Exception {
    LeaseLeaderElector a =
        candidate(
            "a",
            new LeaseLeaderElector.Timing(
                Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofMillis(10)),
            Clock.systemUTC());
    CountDownLatch leading = new CountDownLatch(1);
    a.run(leading::countDown, () -> {});

    assertThat(leading.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(lease().getHolderIdentity()).isEqualTo("a");
    a.close();
    assertThat(lease().getHolderIdentity()).isNull();
  }
}
