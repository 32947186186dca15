package io.kubesched.plugins.sample.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicaSetSpec;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.testing.FakeClock;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link ReservationController} on an {@link InMemoryCluster} with a fake clock: nodes n1 and
 * n2, a ReplicaSet {@code shop/web} (2 replicas) with pods {@code web-a} on n1 and {@code web-b} on
 * n2.
 */
final class ReservationControllerTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String RS = "ReplicaSet/web";

  /** The cluster, clock and controller of one case. */
  record Fixture(InMemoryCluster cluster, FakeClock clock, ReservationController controller) {
    V1Pod pod(String name) {
      return cluster.getPod("shop", name).orElseThrow();
    }

    void delete(String name) {
      cluster.deletePod(pod(name));
    }

    /**
     * Creates a pending replacement {@code name} of the ReplicaSet and binds it to {@code node}.
     */
    void replace(String name, String node) {
      cluster.addPod(webPod(name, "uid-" + name).obj());
      cluster.bind(pod(name), node);
    }

    void replicas(int n) {
      V1ReplicaSet rs = cluster.get(V1ReplicaSet.class, "shop", "web").orElseThrow();
      rs.getSpec().setReplicas(n);
      rs.getMetadata().setResourceVersion(null);
      cluster.update(rs);
    }

    /** Some unrelated pod event, to make the controller look at its reservations. */
    void tick() {
      cluster.addPod(MakePod.pod().name("tick-" + clock.instant().getEpochSecond()).obj());
    }

    Map<String, String> annotations(String node) {
      Map<String, String> a = cluster.getNode(node).orElseThrow().getMetadata().getAnnotations();
      return a == null ? Map.of() : new TreeMap<>(a);
    }
  }

  private static MakePod webPod(String name, String uid) {
    return MakePod.pod()
        .name(name)
        .namespace("shop")
        .uid(uid)
        .ownerReference("ReplicaSet", "web")
        .req("cpu", "3", "memory", "1Gi");
  }

  private static Fixture fixture(int replicas, V1Pod webA) {
    FakeClock clock = FakeClock.at(T0);
    InMemoryCluster cluster = new InMemoryCluster(clock);
    cluster.addNode(MakeNode.node().name("n1").capacity("cpu", "8", "memory", "16Gi").obj());
    cluster.addNode(MakeNode.node().name("n2").capacity("cpu", "8", "memory", "16Gi").obj());
    cluster.create(
        new V1ReplicaSet()
            .apiVersion("apps/v1")
            .kind("ReplicaSet")
            .metadata(new V1ObjectMeta().name("web").namespace("shop").uid(RS))
            .spec(new V1ReplicaSetSpec().replicas(replicas)));
    cluster.addPod(webA);
    cluster.addPod(webPod("web-b", "uid-b").node("n2").obj());
    ReservationController c = new ReservationController(cluster, clock, Duration.ofSeconds(300));
    c.start();
    return new Fixture(cluster, clock, c);
  }

  private static final Map<String, String> RESERVED_A =
      Map.of(
          "reserve.cpu/uid-a", "3",
          "reserve.memory/uid-a", "1Gi",
          "reserve.owner/uid-a", "shop/web-a",
          "reserve.controller/uid-a", "ReplicaSet/" + RS,
          "reserve.expires/uid-a", "2026-01-01T00:05:00Z");

  private static MakePod webA() {
    return webPod("web-a", "uid-a").node("n1");
  }

  private static MakePod webAWithout() {
    return MakePod.pod().name("web-a").namespace("shop").uid("uid-a").node("n1");
  }

  static Stream<Arguments> deletions() {
    V1Pod victim = webA().obj();
    victim
        .getStatus()
        .addConditionsItem(
            new V1PodCondition()
                .type("DisruptionTarget")
                .status("True")
                .reason("PreemptionByScheduler"));
    return Stream.of(
        Arguments.argumentSet(
            "a deleted ReplicaSet pod reserves its requests on its node, keyed by its owner",
            2,
            webA().obj(),
            RESERVED_A),
        Arguments.argumentSet(
            "an extended resource is written <name>.<domain>",
            2,
            webA().req("nvidia.com/gpu", "1").obj(),
            with(RESERVED_A, "reserve.gpu.nvidia.com/uid-a", "1")),
        Arguments.argumentSet(
            "a Job pod (an owner the controller cannot look up) reserves",
            2,
            webAWithout().ownerReference("Job", "batch").req("cpu", "3", "memory", "1Gi").obj(),
            with(RESERVED_A, "reserve.controller/uid-a", "Job/Job/batch")),
        Arguments.argumentSet(
            "a pod without a controller reserves nothing",
            2,
            webAWithout().req("cpu", "3").obj(),
            Map.of()),
        Arguments.argumentSet(
            "a preemption victim (DisruptionTarget=True) reserves nothing", 2, victim, Map.of()),
        Arguments.argumentSet(
            "a Succeeded pod reserves nothing", 2, webA().phase("Succeeded").obj(), Map.of()),
        Arguments.argumentSet(
            "a scale-down (the other replicas already run) reserves nothing",
            1,
            webA().obj(),
            Map.of()),
        Arguments.argumentSet(
            "a ReplicaSet scaled to zero reserves nothing", 0, webA().obj(), Map.of()));
  }

  private static Map<String, String> with(Map<String, String> m, String k, String v) {
    Map<String, String> out = new TreeMap<>(m);
    out.put(k, v);
    return out;
  }

  @ParameterizedTest
  @MethodSource("deletions")
  void deletion(int replicas, V1Pod webA, Map<String, String> wantOnN1) {
    Fixture f = fixture(replicas, webA);
    f.delete("web-a");
    assertThat(f.annotations("n1")).isEqualTo(new TreeMap<>(wantOnN1));
    assertThat(f.annotations("n2")).isEmpty();
  }

  static Stream<Arguments> lifecycle() {
    return Stream.of(
        Arguments.argumentSet(
            "the replacement bound on the reserved node releases it",
            (Consumer<Fixture>) f -> f.replace("web-c", "n1"),
            Map.of()),
        Arguments.argumentSet(
            "the replacement bound elsewhere releases it",
            (Consumer<Fixture>) f -> f.replace("web-c", "n2"),
            Map.of()),
        Arguments.argumentSet(
            "a pod of another owner being bound keeps it",
            (Consumer<Fixture>)
                f -> {
                  f.cluster().addPod(MakePod.pod().name("other").namespace("shop").obj());
                  f.cluster().bind(f.cluster().getPod("shop", "other").orElseThrow(), "n1");
                },
            RESERVED_A),
        Arguments.argumentSet(
            "one second before the TTL it holds",
            (Consumer<Fixture>)
                f -> {
                  f.clock().advance(Duration.ofSeconds(299));
                  f.tick();
                },
            RESERVED_A),
        Arguments.argumentSet(
            "at the TTL it is removed",
            (Consumer<Fixture>)
                f -> {
                  f.clock().advance(Duration.ofSeconds(300));
                  f.tick();
                },
            Map.of()),
        Arguments.argumentSet(
            "the owner deleted (its pods garbage-collected) removes it",
            (Consumer<Fixture>)
                f -> {
                  f.cluster().delete(V1ReplicaSet.class, "shop", "web");
                  f.delete("web-b");
                },
            Map.of()),
        Arguments.argumentSet(
            "the owner scaled to zero removes it",
            (Consumer<Fixture>)
                f -> {
                  f.replicas(0);
                  f.tick();
                },
            Map.of()));
  }

  @ParameterizedTest
  @MethodSource("lifecycle")
  void afterTheDeletion(Consumer<Fixture> then, Map<String, String> wantOnN1) {
    Fixture f = fixture(2, webA().obj());
    f.delete("web-a");
    then.accept(f);
    assertThat(f.annotations("n1")).isEqualTo(new TreeMap<>(wantOnN1));
    assertThat(f.annotations("n2")).isEmpty();
  }

  @Test
  void twoDeletionsNeedTwoReplacements() {
    Fixture f = fixture(2, webA().obj());
    f.delete("web-a");
    f.delete("web-b");
    f.replace("web-c", "n2");
    assertThat(f.annotations("n1")).isEqualTo(new TreeMap<>(RESERVED_A));
    assertThat(f.annotations("n2")).isEmpty();
    f.replace("web-d", "n2");
    assertThat(f.annotations("n1")).isEmpty();
  }

  @Test
  void theControllersViewFeedsThePlugin() {
    Fixture f = fixture(2, webA().obj());
    f.delete("web-a");
    assertThat(f.controller().reservationAnnotations())
        .isEqualTo(Map.of("n1", new TreeMap<>(RESERVED_A)));
  }
}
