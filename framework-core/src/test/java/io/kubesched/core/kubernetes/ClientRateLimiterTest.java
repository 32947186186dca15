package io.kubesched.core.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.base.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class ClientRateLimiterTest {
  /** A ticker that only moves when the limiter sleeps. */
  private static final class FakeTime extends Ticker {
    long now;
    final List<Long> sleeps = new ArrayList<>();

    @Override
    public long read() {
      return now;
    }

    void sleep(long nanos) {
      sleeps.add(nanos);
      now += nanos;
    }
  }

  static Stream<Arguments> bursts() {
    return Stream.of(
        // name, qps, burst, calls, the waits of the calls that waited (ns)
        Arguments.of("within the burst: no wait", 10.0, 3, 3, List.of()),
        Arguments.of(
            "past the burst: one token per 1/qps", 10.0, 3, 5, List.of(100_000_000L, 100_000_000L)),
        Arguments.of("qps 200 burst 300", 200.0, 300, 301, List.of(5_000_000L)),
        Arguments.of("burst 1", 2.0, 1, 3, List.of(500_000_000L, 500_000_000L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bursts")
  void backToBackCallsWaitOnceTheBucketIsEmpty(
      String name, double qps, int burst, int calls, List<Long> waits) throws Exception {
    FakeTime time = new FakeTime();
    ClientRateLimiter limiter = new ClientRateLimiter(qps, burst, time, time::sleep);
    for (int i = 0; i < calls; i++) {
      limiter.acquire();
    }
    assertThat(time.sleeps).isEqualTo(waits);
  }

  @Test
  void theBucketRefillsUpToTheBurstWhileIdle() throws Exception {
    FakeTime time = new FakeTime();
    ClientRateLimiter limiter = new ClientRateLimiter(10, 2, time, time::sleep);
    limiter.acquire();
    limiter.acquire();
    time.now += 10_000_000_000L; // 10 s idle: 100 tokens earned, 2 kept
    limiter.acquire();
    limiter.acquire();
    limiter.acquire();
    assertThat(time.sleeps).containsExactly(100_000_000L);
  }

  static Stream<Arguments> configs() {
    return Stream.of(
        Arguments.of("kube's defaults", 50f, 100, 50.0, 100),
        Arguments.of("qps 0 is client-go's 5", 0f, 0, 5.0, 10),
        Arguments.of("flags of the field", 200f, 300, 200.0, 300));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configs")
  void forConfigDefaultsAsClientGo(
      String name, float qps, int burst, double wantQps, int wantBurst) {
    ClientRateLimiter l = ClientRateLimiter.forConfig(qps, burst);
    assertThat(new double[] {l.qps(), l.burst()}).containsExactly(wantQps, wantBurst);
  }

  @Test
  void negativeQpsMeansNoLimit() {
    assertThat(ClientRateLimiter.forConfig(-1f, 100)).isNull();
  }

  @Test
  void refusesNonPositiveSettings() {
    assertThatThrownBy(() -> new ClientRateLimiter(0, 1, Ticker.systemTicker(), n -> {}))
        .hasMessage("qps and burst must be positive, got qps 0.0 and burst 1");
  }
}
