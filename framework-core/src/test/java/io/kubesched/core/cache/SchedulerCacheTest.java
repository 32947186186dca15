package io.kubesched.core.cache;

import static io.kubesched.core.cache.CacheFixtures.node;
import static io.kubesched.core.cache.CacheFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.CacheFixtures.TestClock;
import io.kubesched.framework.ImageStateSummary;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class SchedulerCacheTest {
  private final TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final SchedulerCache cache = new SchedulerCache(clock);

  private static PodInfo info(V1Pod pod) {
    return PodInfo.of(pod);
  }

  /** Returns {milliCpu, memory, pods} of the node in the cache. */
  private List<Long> usage(String node) {
    NodeInfo n = cache.nodeInfo(node);
    return List.of(n.requested().milliCpu(), n.requested().memory(), (long) n.pods().size());
  }

  // ---- assume / forget / finish ----------------------------------------------------------------

  static Stream<Arguments> assumedPods() {
    return Stream.of(
        argumentSet(
            "one pod",
            List.of(pod("p1").node("n1").req("100m", "500").obj()),
            List.of(100L, 500L, 1L)),
        argumentSet(
            "two pods add up",
            List.of(
                pod("p1").node("n1").req("100m", "500").obj(),
                pod("p2").node("n1").req("200m", "1Ki").obj()),
            List.of(300L, 1524L, 2L)),
        argumentSet(
            "a pod with two containers",
            List.of(pod("p1").node("n1").req("100m", "500").req("200m", "1Ki").obj()),
            List.of(300L, 1524L, 1L)));
  }

  @ParameterizedTest
  @MethodSource("assumedPods")
  void assumedPodsCountOnTheirNode(List<V1Pod> pods, List<Long> want) {
    for (V1Pod p : pods) {
      cache.assumePod(info(p));
    }
    assertThat(usage("n1")).isEqualTo(want);
    for (V1Pod p : pods) {
      assertThat(cache.isAssumedPod(p.getMetadata().getUid())).isTrue();
      cache.forgetPod(info(p));
    }
    assertThat(cache.nodeCount()).as("the node-less info goes with its last pod").isZero();
    assertThat(cache.podCount()).isZero();
  }

  @Test
  void assumingAPodTwiceFails() {
    V1Pod p = pod("p").node("n1").obj();
    cache.assumePod(info(p));
    assertThatThrownBy(() -> cache.assumePod(info(p)))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("pod uid-p(ns/p) is in the cache, so can't be assumed");
  }

  @Test
  void forgetChecksNodeAndAssumedState() {
    V1Pod p = pod("p").node("n1").obj();
    cache.assumePod(info(p));
    assertThatThrownBy(() -> cache.forgetPod(info(pod("p").node("n2").obj())))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("pod uid-p(ns/p) was assumed on n2 but assigned to n1");
    cache.addPod(p);
    assertThatThrownBy(() -> cache.forgetPod(info(p)))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("pod uid-p(ns/p) is not assumed, so it cannot be removed or forgotten");
    cache.forgetPod(info(pod("unknown").node("n1").obj()));
    assertThat(cache.podCount()).isEqualTo(1);
  }

  static Stream<Arguments> expiry() {
    return Stream.of(
        argumentSet(
            "TTL 0: a finished assumed pod never expires",
            Duration.ZERO,
            true,
            Duration.ofDays(1),
            true),
        argumentSet(
            "TTL 10s, finished, 11s later: expired",
            Duration.ofSeconds(10),
            true,
            Duration.ofSeconds(11),
            false),
        argumentSet(
            "TTL 10s, finished, exactly 10s later: kept",
            Duration.ofSeconds(10),
            true,
            Duration.ofSeconds(10),
            true),
        argumentSet(
            "TTL 10s, binding not finished: kept",
            Duration.ofSeconds(10),
            false,
            Duration.ofSeconds(11),
            true));
  }

  @ParameterizedTest
  @MethodSource("expiry")
  void assumedPodsExpireOnlyAfterBindingWithANonZeroTtl(
      Duration ttl, boolean finish, Duration later, boolean stillThere) {
    SchedulerCache c = new SchedulerCache(clock, ttl);
    PodInfo p = info(pod("p").node("n1").req("100m", "1").obj());
    c.assumePod(p);
    if (finish) {
      c.finishBinding(p);
    }
    clock.advance(later);
    c.cleanupAssumedPods();
    assertThat(c.isAssumedPod("uid-p")).isEqualTo(stillThere);
    assertThat(c.podCount()).isEqualTo(stillThere ? 1 : 0);
  }

  // ---- informer pods ---------------------------------------------------------------------------

  @Test
  void addOfAnAssumedPodConfirmsIt() {
    V1Pod p1 = pod("p1").node("n1").req("100m", "500").obj();
    V1Pod p2 = pod("p2").node("n1").req("200m", "1Ki").obj();
    cache.assumePod(info(p1));
    cache.assumePod(info(p2));
    cache.addPod(p1);
    assertThat(cache.isAssumedPod("uid-p1")).isFalse();
    assertThat(cache.isAssumedPod("uid-p2")).isTrue();
    assertThat(usage("n1")).isEqualTo(List.of(300L, 1524L, 2L));
    assertThat(cache.assumedPodUids()).containsExactly("uid-p2");
  }

  @Test
  void addOfAnAssumedPodOnAnotherNodeMovesIt() {
    cache.assumePod(info(pod("p").node("n1").req("100m", "500").obj()));
    cache.addPod(pod("p").node("n2").req("100m", "500").obj());
    assertThat(cache.nodeInfo("n1")).isNull();
    assertThat(usage("n2")).isEqualTo(List.of(100L, 500L, 1L));
    assertThat(cache.isAssumedPod("uid-p")).isFalse();
  }

  @Test
  void addingAPodTwiceFails() {
    V1Pod p = pod("p").node("n1").obj();
    cache.addPod(p);
    assertThatThrownBy(() -> cache.addPod(p))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("pod uid-p(ns/p) was already in added state");
  }

  @Test
  void updateReplacesTheBoundPod() {
    V1Pod v1 = pod("p").node("n1").req("100m", "500").obj();
    V1Pod v2 = pod("p").node("n1").req("200m", "1Ki").obj();
    cache.addPod(v1);
    cache.updatePod(v1, v2);
    assertThat(usage("n1")).isEqualTo(List.of(200L, 1024L, 1L));
    assertThat(cache.getPod("uid-p").pod()).isSameAs(v2);
  }

  @Test
  void updateErrors() {
    V1Pod assumed = pod("a").node("n1").obj();
    cache.assumePod(info(assumed));
    assertThatThrownBy(() -> cache.updatePod(assumed, assumed))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("assumed pod uid-a(ns/a) should not be updated");
    V1Pod unknown = pod("u").node("n1").obj();
    assertThatThrownBy(() -> cache.updatePod(unknown, unknown))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("pod uid-u(ns/u) is not added to scheduler cache, so cannot be updated");
    V1Pod bound = pod("b").node("n1").obj();
    cache.addPod(bound);
    assertThatThrownBy(() -> cache.updatePod(bound, pod("b").node("n2").obj()))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void removeDropsThePod() {
    V1Pod p = pod("p").node("n1").req("100m", "500").obj();
    cache.addNode(node("n1").obj());
    cache.addPod(p);
    cache.removePod(p);
    assertThat(usage("n1")).isEqualTo(List.of(0L, 0L, 0L));
    assertThatThrownBy(() -> cache.removePod(p))
        .isInstanceOf(SchedulingException.class)
        .hasMessage(
            "pod uid-p(ns/p) is not found in scheduler cache, so cannot be removed from it");
  }

  @Test
  void removeWithEmptyNodeNameRemovesTheCachedVersion() {
    cache.addNode(node("n1").obj());
    cache.addPod(pod("p").node("n1").req("100m", "500").obj());
    cache.removePod(pod("p").obj());
    assertThat(usage("n1")).isEqualTo(List.of(0L, 0L, 0L));
    assertThat(cache.podCount()).isZero();
  }

  // ---- nodes -----------------------------------------------------------------------------------

  @Test
  void removedNodeStaysAsAGhostWhilePodsRemain() {
    V1Node n1 = node("n1").cpu("4").obj();
    V1Pod p = pod("p").node("n1").req("100m", "500").obj();
    cache.addNode(n1);
    cache.addPod(p);
    Snapshot s = new Snapshot();
    cache.updateSnapshot(s);
    assertThat(s.numNodes()).isEqualTo(1);

    cache.removeNode(n1);
    assertThat(cache.nodeCount()).isEqualTo(1);
    assertThat(cache.nodeInfo("n1").node()).isNull();
    assertThat(cache.nodeInfo("n1").pods()).hasSize(1);
    cache.updateSnapshot(s);
    assertThat(s.numNodes()).isZero();
    assertThat(s.find("n1")).isNull();

    cache.removePod(p);
    assertThat(cache.nodeCount()).isZero();
    cache.updateSnapshot(s);
    assertThat(s.numNodes()).isZero();
  }

  @Test
  void removingAnUnknownNodeFails() {
    assertThatThrownBy(() -> cache.removeNode(node("n1").obj()))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("node n1 is not found");
  }

  @Test
  void readdedNodeFindsItsPodsAgain() {
    V1Node n1 = node("n1").obj();
    cache.addNode(n1);
    cache.addPod(pod("p").node("n1").req("100m", "500").obj());
    cache.removeNode(n1);
    cache.addNode(n1);
    Snapshot s = new Snapshot();
    cache.updateSnapshot(s);
    assertThat(s.get("n1").pods()).hasSize(1);
  }

  // ---- image states ----------------------------------------------------------------------------

  @Test
  void imageStatesCountTheNodesHoldingEachImage() {
    V1Node n1 = node("n1").image(100, "gcr.io/a:v1", "gcr.io/a@sha256:1").image(50, "b:v2").obj();
    V1Node n2 = node("n2").image(100, "gcr.io/a:v1").obj();
    cache.addNode(n1);
    cache.addNode(n2);
    assertThat(cache.imageStates())
        .isEqualTo(
            Map.of(
                "gcr.io/a:v1", new ImageStateSummary(100, 2),
                "gcr.io/a@sha256:1", new ImageStateSummary(100, 1),
                "b:v2", new ImageStateSummary(50, 1)));
    Snapshot s = new Snapshot();
    cache.updateSnapshot(s);
    assertThat(s.get("n1").imageStates())
        .as("counts taken when the snapshot copies the node")
        .isEqualTo(
            Map.of(
                "gcr.io/a:v1", new ImageStateSummary(100, 2),
                "gcr.io/a@sha256:1", new ImageStateSummary(100, 1),
                "b:v2", new ImageStateSummary(50, 1)));

    cache.updateNode(n2, node("n2").obj());
    assertThat(cache.imageStates()).containsEntry("gcr.io/a:v1", new ImageStateSummary(100, 1));
    cache.removeNode(n1);
    assertThat(cache.imageStates()).isEmpty();
  }

  @Test
  void normalizedImageNameAppendsLatestOnlyWithoutTag() {
    assertThat(ImageNames.normalize("nginx")).isEqualTo("nginx:latest");
    assertThat(ImageNames.normalize("nginx:1.2")).isEqualTo("nginx:1.2");
    assertThat(ImageNames.normalize("localhost:5000/nginx"))
        .isEqualTo("localhost:5000/nginx:latest");
    assertThat(ImageNames.normalize("gcr.io/a@sha256:abc")).isEqualTo("gcr.io/a@sha256:abc");
  }
}
