package io.kubesched.core.cache;

import static io.kubesched.core.cache.CacheFixtures.node;
import static io.kubesched.core.cache.CacheFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.CacheFixtures.TestClock;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.SchedulingException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class SnapshotTest {
  private final SchedulerCache cache =
      new SchedulerCache(new TestClock(Instant.parse("2026-01-01T00:00:00Z")));

  private static List<String> names(List<NodeInfo> infos) {
    List<String> out = new ArrayList<>();
    for (NodeInfo n : infos) {
      out.add(n.name());
    }
    return out;
  }

  // ---- node tree order -------------------------------------------------------------------------

  static Stream<Arguments> treeOrders() {
    return Stream.of(
        argumentSet(
            "no zone labels: arrival order",
            List.of(node("n1").obj(), node("n2").obj(), node("n3").obj()),
            List.of("n1", "n2", "n3")),
        argumentSet(
            "zones round robin; region is part of the zone key",
            List.of(
                node("n1").zone("r1", "z1").obj(), node("n2").zone("r1", "z1").obj(),
                node("n3").zone("r1", "z2").obj(), node("n4").zone("r2", "z1").obj(),
                node("n5").zone("r1", "z2").obj(), node("n6").zone("r1", "z1").obj()),
            List.of("n1", "n3", "n4", "n2", "n5", "n6")),
        argumentSet(
            "failure-domain beta labels are the fallback",
            List.of(
                node("n1")
                    .label("failure-domain.beta.kubernetes.io/region", "r")
                    .label("failure-domain.beta.kubernetes.io/zone", "a")
                    .obj(),
                node("n2").zone("r", "a").obj(),
                node("n3").zone("r", "b").obj()),
            List.of("n1", "n3", "n2")),
        argumentSet(
            "nodes without zone form their own zone",
            List.of(
                node("n1").zone("r", "a").obj(), node("n2").obj(), node("n3").zone("r", "a").obj()),
            List.of("n1", "n2", "n3")));
  }

  @ParameterizedTest
  @MethodSource("treeOrders")
  void snapshotListsNodesInZoneRoundRobinOrder(List<V1Node> nodes, List<String> want) {
    for (V1Node n : nodes) {
      cache.addNode(n);
    }
    Snapshot s = new Snapshot();
    cache.updateSnapshot(s);
    assertThat(names(s.list())).isEqualTo(want);
    assertThat(cache.nodeTreeOrder()).isEqualTo(want);
  }

  @Test
  void zoneChangeMovesTheNodeToTheEndOfItsNewZone() {
    V1Node n1 = node("n1").zone("r", "a").obj();
    cache.addNode(n1);
    cache.addNode(node("n2").zone("r", "a").obj());
    cache.addNode(node("n3").zone("r", "b").obj());
    cache.updateNode(n1, node("n1").zone("r", "b").obj());
    assertThat(cache.nodeTreeOrder()).containsExactly("n2", "n3", "n1");
    cache.removeNode(node("n2").zone("r", "a").obj());
    assertThat(cache.nodeTreeOrder()).containsExactly("n3", "n1");
  }

  // ---- incremental update ----------------------------------------------------------------------

  @Test
  void updateCopiesOnlyTheNodesThatChanged() {
    cache.addNode(node("n1").zone("r", "a").obj());
    cache.addNode(node("n2").zone("r", "b").obj());
    cache.addNode(node("n3").zone("r", "a").obj());
    Snapshot s = new Snapshot();
    cache.updateSnapshot(s);
    NodeInfo n1 = s.get("n1");
    NodeInfo n2 = s.get("n2");
    NodeInfo n3 = s.get("n3");
    List<NodeInfo> list = s.list();
    long gen = s.generation();

    cache.updateSnapshot(s);
    assertThat(s.generation()).isEqualTo(gen);
    assertThat(s.get("n2")).isSameAs(n2);

    cache.addPod(pod("p").node("n2").req("100m", "1").obj());
    cache.updateSnapshot(s);
    assertThat(s.generation()).isGreaterThan(gen);
    assertThat(s.get("n1")).isSameAs(n1);
    assertThat(s.get("n3")).isSameAs(n3);
    assertThat(s.get("n2")).isNotSameAs(n2);
    assertThat(s.get("n2").pods()).extracting(p -> p.name()).containsExactly("p");
    assertThat(s.list()).as("the list keeps its order and is not rebuilt").isSameAs(list);
    assertThat(s.list()).containsExactly(n1, s.get("n2"), n3);
    assertThat(n2.pods()).as("the previous copy is untouched").isEmpty();
  }

  @Test
  void addedAndRemovedNodesRebuildTheList() {
    V1Node n3 = node("n3").obj();
    cache.addNode(node("n1").obj());
    cache.addNode(node("n2").obj());
    Snapshot s = new Snapshot();
    cache.updateSnapshot(s);
    NodeInfo n1 = s.get("n1");
    cache.addNode(n3);
    cache.updateSnapshot(s);
    assertThat(names(s.list())).containsExactly("n1", "n2", "n3");
    assertThat(s.get("n1")).isSameAs(n1);
    cache.removeNode(n3);
    cache.updateSnapshot(s);
    assertThat(names(s.list())).containsExactly("n1", "n2");
    assertThat(s.find("n3")).isNull();
    assertThatThrownBy(() -> s.get("n3"))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("nodeinfo not found for node name \"n3\"");
  }

  static Stream<Arguments> affinityLists() {
    V1Pod aff = pod("aff").node("n2").podAffinity().obj();
    V1Pod anti = pod("anti").node("n3").podAntiAffinity().obj();
    V1Pod plain = pod("plain").node("n2").obj();
    return Stream.of(
        argumentSet(
            "a pod with affinity puts its node in the affinity list",
            (Consumer<SchedulerCache>) c -> c.addPod(aff),
            List.of("n2"),
            List.of()),
        argumentSet(
            "a pod with required anti-affinity is in both lists",
            (Consumer<SchedulerCache>) c -> c.addPod(anti),
            List.of("n3"),
            List.of("n3")),
        argumentSet(
            "both, in node order",
            (Consumer<SchedulerCache>)
                c -> {
                  c.addPod(anti);
                  c.addPod(aff);
                },
            List.of("n2", "n3"),
            List.of("n3")),
        argumentSet(
            "removing the last affinity pod takes the node out",
            (Consumer<SchedulerCache>)
                c -> {
                  c.addPod(aff);
                  c.addPod(plain);
                  c.removePod(aff);
                },
            List.of(),
            List.of()));
  }

  @ParameterizedTest
  @MethodSource("affinityLists")
  void affinityListsFollowThePods(
      Consumer<SchedulerCache> change, List<String> affinity, List<String> antiAffinity) {
    cache.addNode(node("n1").obj());
    cache.addNode(node("n2").obj());
    cache.addNode(node("n3").obj());
    Snapshot s = new Snapshot();
    cache.updateSnapshot(s);
    change.accept(cache);
    cache.updateSnapshot(s);
    assertThat(names(s.havePodsWithAffinityList())).isEqualTo(affinity);
    assertThat(names(s.havePodsWithRequiredAntiAffinityList())).isEqualTo(antiAffinity);
    for (NodeInfo n : s.havePodsWithAffinityList()) {
      assertThat(n).isSameAs(s.get(n.name()));
    }
  }

  @Test
  void affinityListHoldsTheNewCopyWhenTheNodeChangesWithoutFlipping() {
    cache.addNode(node("n1").obj());
    cache.addPod(pod("aff").node("n1").podAffinity().obj());
    Snapshot s = new Snapshot();
    cache.updateSnapshot(s);
    cache.addPod(pod("plain").node("n1").obj());
    cache.updateSnapshot(s);
    assertThat(s.havePodsWithAffinityList()).containsExactly(s.get("n1"));
    assertThat(s.get("n1").pods()).hasSize(2);
  }

  @Test
  void usedClaimsAreTracked() {
    cache.addNode(node("n1").obj());
    Snapshot s = new Snapshot();
    cache.updateSnapshot(s);
    V1Pod p = pod("p").node("n1").pvc("data").obj();
    cache.addPod(p);
    cache.updateSnapshot(s);
    assertThat(s.isPvcUsedByPods("ns/data")).isTrue();
    cache.removePod(p);
    cache.updateSnapshot(s);
    assertThat(s.isPvcUsedByPods("ns/data")).isFalse();
  }

  @Test
  void snapshotOfBuildsNodesPodsAndImageCounts() {
    Snapshot s =
        Snapshot.of(
            List.of(node("n1").image(10, "a:1").obj(), node("n2").image(10, "a:1").obj()),
            List.of(
                pod("p").node("n2").req("1", "1").podAffinity().obj(),
                pod("q").node("gone").obj()));
    assertThat(names(s.list())).containsExactly("n1", "n2");
    assertThat(s.get("n2").requested().milliCpu()).isEqualTo(1000);
    assertThat(names(s.havePodsWithAffinityList())).containsExactly("n2");
    assertThat(s.get("n1").imageStates().get("a:1").numNodes()).isEqualTo(2);
    assertThat(Snapshot.empty().numNodes()).isZero();
  }
}
