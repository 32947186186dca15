package io.kubesched.core.cache;

import static io.kubesched.core.cache.CacheFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubesched.core.cache.CacheFixtures.TestClock;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The has-affinity sub-lists kept up to date node by node by {@link SchedulerCache#updateSnapshot}
 * equal, after every change, the lists a snapshot built from scratch has (kube rebuilds them from
 * every node whenever one node starts or stops having such pods); the flat columns equal, row by
 * row, the values of the list's node infos, and so do the label columns asked for once and then
 * kept up to date as nodes come, go and are relabelled.
 */
final class SnapshotSubListsTest {
  static LongStream seeds() {
    return LongStream.range(1, 21);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void incrementalSubListsEqualARebuild(long seed) {
    Random random = new Random(seed);
    SchedulerCache cache = new SchedulerCache(new TestClock(Instant.parse("2026-01-01T00:00:00Z")));
    Snapshot kept = new Snapshot();
    List<V1Node> nodes = new ArrayList<>();
    List<V1Pod> pods = new ArrayList<>();
    int nextNode = 0;
    for (; nextNode < 12; nextNode++) {
      V1Node n = node(nextNode);
      nodes.add(n);
      cache.addNode(n);
    }
    for (int step = 0; step < 300; step++) {
      int op = random.nextInt(20);
      if (op == 0) {
        V1Node n = node(nextNode++);
        nodes.add(n);
        cache.addNode(n);
      } else if (op == 2) {
        int at = random.nextInt(nodes.size());
        V1Node old = nodes.get(at);
        V1Node relabelled =
            new V1Node()
                .metadata(
                    new V1ObjectMeta()
                        .name(old.getMetadata().getName())
                        .labels(random.nextBoolean() ? Map.of() : Map.of(ZONE, "z" + step % 4)))
                .spec(
                    new V1NodeSpec()
                        .unschedulable(random.nextBoolean())
                        .taints(
                            random.nextBoolean()
                                ? List.of(new V1Taint().key("k").effect("NoSchedule"))
                                : null));
        nodes.set(at, relabelled);
        cache.updateNode(old, relabelled);
      } else if (op == 1 && nodes.size() > 1) {
        V1Node n = nodes.remove(random.nextInt(nodes.size()));
        String name = n.getMetadata().getName();
        for (V1Pod p : new ArrayList<>(pods)) {
          if (name.equals(p.getSpec().getNodeName())) {
            cache.removePod(p);
            pods.remove(p);
          }
        }
        cache.removeNode(n);
      } else if (op < 12 || pods.isEmpty()) {
        String node = nodes.get(random.nextInt(nodes.size())).getMetadata().getName();
        CacheFixtures.PodBuilder b =
            pod("p" + step).node(node).req(random.nextInt(500) + "m", random.nextInt(64) + "Mi");
        int kind = random.nextInt(3);
        if (kind == 1) {
          b.podAffinity();
        } else if (kind == 2) {
          b.podAntiAffinity();
        }
        V1Pod p = b.obj();
        p.getMetadata().namespace("ns").uid("uid-" + step);
        pods.add(p);
        cache.addPod(p);
      } else {
        V1Pod p = pods.remove(random.nextInt(pods.size()));
        cache.removePod(p);
      }
      cache.updateSnapshot(kept);
      if (step == 0) {
        assertThat(kept.columns().labelValues(ZONE)).isNotNull();
      }
      Snapshot fresh = new Snapshot();
      cache.updateSnapshot(fresh);
      assertThat(names(kept.list())).isEqualTo(names(fresh.list()));
      assertThat(names(kept.havePodsWithAffinityList()))
          .as("affinity after step %d", step)
          .isEqualTo(names(fresh.havePodsWithAffinityList()));
      assertThat(names(kept.havePodsWithRequiredAntiAffinityList()))
          .as("anti-affinity after step %d", step)
          .isEqualTo(names(fresh.havePodsWithRequiredAntiAffinityList()));
      assertThat(rows(kept.columns()))
          .as("columns after step %d", step)
          .isEqualTo(rows(columnsOf(kept.list())));
      assertThat(List.of(kept.columns().rowsWithTaints(), kept.columns().rowsNotSchedulable()))
          .as("row counts after step %d", step)
          .isEqualTo(
              List.of(
                  (int) kept.list().stream().filter(n -> !n.taints().isEmpty()).count(),
                  (int)
                      kept.list().stream()
                          .filter(n -> n.node() == null || n.unschedulable())
                          .count()));
      assertThat(zones(kept.columns()))
          .as("zone column after step %d", step)
          .isEqualTo(
              kept.list().stream().map(n -> Optional.ofNullable(n.labels().get(ZONE))).toList());
      for (NodeInfo n : kept.havePodsWithAffinityList()) {
        assertThat(n).isSameAs(kept.get(n.name()));
      }
      for (NodeInfo n : kept.havePodsWithRequiredAntiAffinityList()) {
        assertThat(n).isSameAs(kept.get(n.name()));
      }
    }
  }

  // not a zone or region label: those also move the node in the tree order
  private static final String ZONE = "example.com/rack";

  private static V1Node node(int i) {
    return new V1Node()
        .metadata(new V1ObjectMeta().name("node-" + i).labels(Map.of(ZONE, "z" + i % 3)));
  }

  private static List<Optional<String>> zones(NodeColumns c) {
    String[] column = c.labelValues(ZONE);
    List<Optional<String>> out = new ArrayList<>();
    for (int r = 0; r < c.size(); r++) {
      out.add(Optional.ofNullable(column[r]));
    }
    return out;
  }

  private static NodeColumns columnsOf(List<NodeInfo> nodes) {
    NodeColumns c = new NodeColumns();
    c.resize(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      c.set(i, nodes.get(i));
    }
    return c;
  }

  /** Every value of every row, so that a failure prints the difference. */
  private static List<List<Object>> rows(NodeColumns c) {
    List<List<Object>> out = new ArrayList<>();
    for (int r = 0; r < c.size(); r++) {
      out.add(
          List.of(
              c.allocatableMilliCpu(r),
              c.allocatableMemory(r),
              c.allocatableEphemeralStorage(r),
              c.requestedMilliCpu(r),
              c.requestedMemory(r),
              c.requestedEphemeralStorage(r),
              c.nonZeroMilliCpu(r),
              c.nonZeroMemory(r),
              c.allowedPodNumber(r),
              c.podCount(r),
              c.hasNode(r),
              c.unschedulable(r),
              c.hasTaints(r),
              c.hasImages(r),
              c.node(r)));
    }
    return out;
  }

  private static List<String> names(List<NodeInfo> nodes) {
    return nodes.stream().map(NodeInfo::name).toList();
  }
}
