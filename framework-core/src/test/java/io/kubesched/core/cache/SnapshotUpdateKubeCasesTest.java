package io.kubesched.core.cache;

import static io.kubesched.core.cache.CacheFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.CacheFixtures.TestClock;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Port of kube's {@code TestSchedulerCache_UpdateSnapshot} (cache_test.go). */
final class SnapshotUpdateKubeCasesTest {
  private final SchedulerCache cache =
      new SchedulerCache(new TestClock(Instant.parse("2026-01-01T00:00:00Z")));
  private final Snapshot snapshot = new Snapshot();

  private static V1Node node(int i, String cpu, String mem) {
    return new V1Node()
        .metadata(new V1ObjectMeta().name("test-node" + i))
        .status(
            new V1NodeStatus()
                .allocatable(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(mem))));
  }

  private static V1Node node(int i) {
    return node(i, "1000m", "100m");
  }

  private static V1Node updatedNode(int i) {
    return node(i, "2000m", "500m");
  }

  private static V1Pod testPod(int i) {
    return withUid(pod("test-pod" + i).node("test-node" + (i % 10)).obj(), "test-puid" + i);
  }

  private static V1Pod updatedPod(int i) {
    V1Pod p = testPod(i);
    p.getSpec().setPriority(1000);
    return p;
  }

  private static V1Pod affinityPod(int i) {
    return withUid(
        pod("p-affinity-" + i).node("test-node" + i).podAffinity().obj(), "puid-affinity-" + i);
  }

  private static V1Pod pvcPod(int i) {
    return withUid(
        pod("p-pvc-" + i).node("test-node" + (i % 2)).pvc("test-pvc" + (i % 4)).obj(),
        "puid-pvc-" + i);
  }

  private static V1Pod withUid(V1Pod p, String uid) {
    p.getMetadata().namespace("test-ns").uid(uid);
    return p;
  }

  private void apply(String op) {
    String name = op.substring(0, op.indexOf('('));
    String arg = op.substring(op.indexOf('(') + 1, op.indexOf(')'));
    int i = arg.isEmpty() ? -1 : Integer.parseInt(arg);
    switch (name) {
      case "addNode" -> cache.addNode(node(i));
      case "removeNode" -> cache.removeNode(node(i));
      case "updateNode" -> cache.updateNode(node(i), updatedNode(i));
      case "addPod" -> cache.addPod(testPod(i));
      case "removePod" -> cache.removePod(testPod(i));
      case "updatePod" -> cache.updatePod(testPod(i), updatedPod(i));
      case "addPodWithAffinity" -> cache.addPod(affinityPod(i));
      case "removePodWithAffinity" -> cache.removePod(affinityPod(i));
      case "addPodWithPVC" -> cache.addPod(pvcPod(i));
      case "removePodWithPVC" -> cache.removePod(pvcPod(i));
      case "updateSnapshot" -> {
        cache.updateSnapshot(snapshot);
        assertMatchesCache();
      }
      default -> throw new IllegalArgumentException(op);
    }
  }

  /** kube's compareCacheWithNodeInfoSnapshot. */
  private void assertMatchesCache() {
    List<String> tree = cache.nodeTreeOrder();
    assertThat(snapshot.nodeInfoMap).hasSize(tree.size());
    List<NodeInfo> wantList = new ArrayList<>();
    List<NodeInfo> wantAffinity = new ArrayList<>();
    Set<String> wantPvc = new HashSet<>();
    for (String n : tree) {
      NodeInfo got = snapshot.nodeInfoMap.get(n);
      NodeInfo live = cache.liveNodeInfo(n);
      assertThat(got.generation()).isEqualTo(live.generation());
      assertThat(got.node()).isSameAs(live.node());
      assertThat(got.pods().stream().map(PodInfo::uid).toList())
          .isEqualTo(live.pods().stream().map(PodInfo::uid).toList());
      assertThat(got.requested()).isEqualTo(live.requested());
      wantList.add(got);
      if (!got.podsWithAffinity().isEmpty()) {
        wantAffinity.add(got);
      }
      wantPvc.addAll(got.pvcRefCounts().keySet());
    }
    assertThat(snapshot.list()).containsExactlyElementsOf(wantList);
    assertThat(snapshot.havePodsWithAffinityList()).containsExactlyElementsOf(wantAffinity);
    assertThat(snapshot.usedPvcSet()).isEqualTo(wantPvc);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet("Empty cache", List.of(), List.of(), 0, Set.of()),
        argumentSet("Single node", List.of("addNode(1)"), List.of(1), 0, Set.of()),
        argumentSet(
            "Add node, remove it, add it again",
            List.of("addNode(1)", "updateSnapshot()", "removeNode(1)", "addNode(1)"),
            List.of(1),
            0,
            Set.of()),
        argumentSet(
            "Add node and remove it in the same cycle, add it again",
            List.of("addNode(1)", "updateSnapshot()", "addNode(2)", "removeNode(1)"),
            List.of(2),
            0,
            Set.of()),
        argumentSet(
            "Add a few nodes, and snapshot in the middle",
            List.of(
                "addNode(0)",
                "updateSnapshot()",
                "addNode(1)",
                "updateSnapshot()",
                "addNode(2)",
                "updateSnapshot()",
                "addNode(3)"),
            List.of(3, 2, 1, 0),
            0,
            Set.of()),
        argumentSet(
            "Add a few nodes, and snapshot in the end",
            List.of("addNode(0)", "addNode(2)", "addNode(5)", "addNode(6)"),
            List.of(6, 5, 2, 0),
            0,
            Set.of()),
        argumentSet(
            "Update some nodes",
            List.of("addNode(0)", "addNode(1)", "addNode(5)", "updateSnapshot()", "updateNode(1)"),
            List.of(1, 5, 0),
            0,
            Set.of()),
        argumentSet(
            "Add a few nodes, and remove all of them",
            List.of(
                "addNode(0)",
                "addNode(2)",
                "addNode(5)",
                "addNode(6)",
                "updateSnapshot()",
                "removeNode(0)",
                "removeNode(2)",
                "removeNode(5)",
                "removeNode(6)"),
            List.of(),
            0,
            Set.of()),
        argumentSet(
            "Add a few nodes, and remove some of them",
            List.of(
                "addNode(0)",
                "addNode(2)",
                "addNode(5)",
                "addNode(6)",
                "updateSnapshot()",
                "removeNode(0)",
                "removeNode(6)"),
            List.of(5, 2),
            0,
            Set.of()),
        argumentSet(
            "Add a few nodes, remove all of them, and add more",
            List.of(
                "addNode(2)",
                "addNode(5)",
                "addNode(6)",
                "updateSnapshot()",
                "removeNode(2)",
                "removeNode(5)",
                "removeNode(6)",
                "updateSnapshot()",
                "addNode(7)",
                "addNode(9)"),
            List.of(9, 7),
            0,
            Set.of()),
        argumentSet(
            "Update nodes in particular order",
            List.of(
                "addNode(8)", "updateNode(2)", "updateNode(8)", "updateSnapshot()", "addNode(1)"),
            List.of(1, 8, 2),
            0,
            Set.of()),
        argumentSet(
            "Add some nodes and some pods",
            List.of(
                "addNode(0)",
                "addNode(2)",
                "addNode(8)",
                "updateSnapshot()",
                "addPod(8)",
                "addPod(2)"),
            List.of(2, 8, 0),
            0,
            Set.of()),
        argumentSet(
            "Updating a pod moves its node to the head",
            List.of("addNode(0)", "addPod(0)", "addNode(2)", "addNode(4)", "updatePod(0)"),
            List.of(0, 4, 2),
            0,
            Set.of()),
        argumentSet(
            "Add pod before its node",
            List.of("addNode(0)", "addPod(1)", "updatePod(1)", "addNode(1)"),
            List.of(1, 0),
            0,
            Set.of()),
        argumentSet(
            "Remove node before its pods",
            List.of(
                "addNode(0)",
                "addNode(1)",
                "addPod(1)",
                "addPod(11)",
                "updateSnapshot()",
                "removeNode(1)",
                "updateSnapshot()",
                "updatePod(1)",
                "updatePod(11)",
                "removePod(1)",
                "removePod(11)"),
            List.of(0),
            0,
            Set.of()),
        argumentSet(
            "Add Pods with affinity",
            List.of("addNode(0)", "addPodWithAffinity(0)", "updateSnapshot()", "addNode(1)"),
            List.of(1, 0),
            1,
            Set.of()),
        argumentSet(
            "Add Pods with PVC",
            List.of("addNode(0)", "addPodWithPVC(0)", "updateSnapshot()", "addNode(1)"),
            List.of(1, 0),
            0,
            Set.of("test-ns/test-pvc0")),
        argumentSet(
            "Add multiple nodes with pods with affinity",
            List.of(
                "addNode(0)",
                "addPodWithAffinity(0)",
                "updateSnapshot()",
                "addNode(1)",
                "addPodWithAffinity(1)",
                "updateSnapshot()"),
            List.of(1, 0),
            2,
            Set.of()),
        argumentSet(
            "Add multiple nodes with pods with PVC",
            List.of(
                "addNode(0)",
                "addPodWithPVC(0)",
                "updateSnapshot()",
                "addNode(1)",
                "addPodWithPVC(1)",
                "updateSnapshot()"),
            List.of(1, 0),
            0,
            Set.of("test-ns/test-pvc0", "test-ns/test-pvc1")),
        argumentSet(
            "Add then Remove pods with affinity",
            List.of(
                "addNode(0)",
                "addNode(1)",
                "addPodWithAffinity(0)",
                "updateSnapshot()",
                "removePodWithAffinity(0)",
                "updateSnapshot()"),
            List.of(0, 1),
            0,
            Set.of()),
        argumentSet(
            "Add then Remove pod with PVC",
            List.of(
                "addNode(0)",
                "addPodWithPVC(0)",
                "updateSnapshot()",
                "removePodWithPVC(0)",
                "addPodWithPVC(2)",
                "updateSnapshot()"),
            List.of(0),
            0,
            Set.of("test-ns/test-pvc2")),
        argumentSet(
            "Add then Remove pod with PVC and add same pod again",
            List.of(
                "addNode(0)",
                "addPodWithPVC(0)",
                "updateSnapshot()",
                "removePodWithPVC(0)",
                "addPodWithPVC(0)",
                "updateSnapshot()"),
            List.of(0),
            0,
            Set.of("test-ns/test-pvc0")),
        argumentSet(
            "Add and Remove multiple pods with PVC with same ref count length different content",
            List.of(
                "addNode(0)",
                "addNode(1)",
                "addPodWithPVC(0)",
                "addPodWithPVC(1)",
                "updateSnapshot()",
                "removePodWithPVC(0)",
                "removePodWithPVC(1)",
                "addPodWithPVC(2)",
                "addPodWithPVC(3)",
                "updateSnapshot()"),
            List.of(1, 0),
            0,
            Set.of("test-ns/test-pvc2", "test-ns/test-pvc3")),
        argumentSet(
            "Add and Remove multiple pods with PVC",
            List.of(
                "addNode(0)",
                "addNode(1)",
                "addPodWithPVC(0)",
                "addPodWithPVC(1)",
                "addPodWithPVC(2)",
                "updateSnapshot()",
                "removePodWithPVC(0)",
                "removePodWithPVC(1)",
                "updateSnapshot()",
                "addPodWithPVC(0)",
                "updateSnapshot()",
                "addPodWithPVC(3)",
                "addPodWithPVC(4)",
                "addPodWithPVC(5)",
                "updateSnapshot()",
                "removePodWithPVC(0)",
                "removePodWithPVC(3)",
                "removePodWithPVC(4)",
                "updateSnapshot()"),
            List.of(0, 1),
            0,
            Set.of("test-ns/test-pvc1", "test-ns/test-pvc2")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void updateSnapshotKeepsTheSnapshotInSyncWithTheCache(
      List<String> ops, List<Integer> wantRecency, int wantAffinityNodes, Set<String> wantPvc) {
    for (String op : ops) {
      apply(op);
    }
    List<String> want = new ArrayList<>();
    for (int i : wantRecency) {
      want.add("test-node" + i);
    }
    assertThat(cache.recencyOrder()).isEqualTo(want);
    assertThat(cache.nodeCount()).isEqualTo(want.size());
    assertThat(snapshot.havePodsWithAffinityList()).hasSize(wantAffinityNodes);
    assertThat(snapshot.usedPvcSet()).isEqualTo(wantPvc);
    cache.updateSnapshot(snapshot);
    assertMatchesCache();
  }
}
