package io.kubesched.plugins.interpodaffinity;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.SchedulerCache;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks that the sums InterPodAffinity keeps across cycles give exactly what a fresh plugin
 * computes: over random sequences of cluster changes (pods with and without (anti-)affinity added
 * and removed in place or on copied node infos, nodes relabelled, added, removed and reordered),
 * every cycle's PreFilter counters, Filter statuses (also after AddPod on a copied state), PreScore
 * status and raw and normalized scores are compared with those of a new plugin instance.
 */
final class InterPodAffinityMemoTest {
  private static final String ZONE = "zone";
  private static final String HOST = "kubernetes.io/hostname";

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "required affinity on zone and anti-affinity on hostname",
            (Supplier<V1Pod>)
                () ->
                    base().podAffinityExists(ZONE, "foo").podAntiAffinity(HOST, "bar", "x").obj()),
        Arguments.argumentSet(
            "preferred affinity and anti-affinity",
            (Supplier<V1Pod>)
                () ->
                    base()
                        .preferredPodAffinity(3, ZONE, "foo", "a")
                        .preferredPodAntiAffinity(5, HOST, "bar", "x", "y")
                        .obj()),
        Arguments.argumentSet(
            "no terms of its own (existing pods' terms only)",
            (Supplier<V1Pod>) () -> base().obj()));
  }

  private static MakePod base() {
    return MakePod.pod().name("incoming").uid("incoming").label("foo", "a").label("bar", "x");
  }

  @ParameterizedTest
  @MethodSource("cases")
  void memoizedCyclesMatchFreshComputation(Supplier<V1Pod> incoming) {
    for (long seed = 1; seed <= 8; seed++) {
      Random r = new Random(seed);
      List<V1Node> nodes = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        nodes.add(randomNode(r, "n" + i));
      }
      FakeHandle handle = FakeHandle.of(nodes, List.of());
      List<NodeInfo> list = handle.nodes();
      InterPodAffinity memoized = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
      PodInfo pod = PodInfo.of(incoming.get());
      int podSeq = 0;
      int nodeSeq = 100;
      for (int step = 0; step < 80; step++) {
        int op = r.nextInt(10);
        int i = r.nextInt(list.size());
        NodeInfo node = list.get(i);
        switch (op) {
          case 0, 1, 2 -> node.addPod(randomPod(r, "p" + podSeq++, node.name()));
          case 3 -> {
            NodeInfo copy = node.snapshot();
            copy.addPod(randomPod(r, "p" + podSeq++, node.name()));
            list.set(i, copy);
          }
          case 4 -> {
            if (!node.pods().isEmpty()) {
              node.removePod(node.pods().get(r.nextInt(node.pods().size())));
            }
          }
          case 5 -> node.setNode(randomNode(r, node.name()));
          case 6 -> list.add(NodeInfo.of(randomNode(r, "n" + nodeSeq++)));
          case 7 -> {
            if (list.size() > 3) {
              list.remove(i);
            }
          }
          case 8 -> {
            int j = r.nextInt(list.size());
            list.set(i, list.get(j));
            list.set(j, node);
          }
          default -> {
            // an unchanged cycle
          }
        }
        PodInfo extra = randomPod(r, "extra" + step, list.get(0).name());
        InterPodAffinity fresh = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
        assertThat(cycle(memoized, pod, list, extra))
            .as("seed %d step %d", seed, step)
            .isEqualTo(cycle(fresh, pod, list, extra));
      }
    }
  }

  /**
   * The same over the engine's own snapshot, changed only through the scheduler cache: the memo
   * then learns the changed nodes from the snapshot's journal instead of comparing every node.
   */
  @ParameterizedTest
  @MethodSource("cases")
  void memoizedCyclesOnTheSnapshotMatchFreshComputation(Supplier<V1Pod> incoming) {
    for (long seed = 1; seed <= 8; seed++) {
      Random r = new Random(seed);
      SchedulerCache cache = new SchedulerCache(Clock.systemUTC());
      Snapshot snapshot = new Snapshot();
      List<V1Node> nodes = new ArrayList<>();
      List<V1Pod> pods = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        V1Node n = randomNode(r, "n" + i);
        nodes.add(n);
        cache.addNode(n);
      }
      cache.updateSnapshot(snapshot);
      FakeHandle handle = FakeHandle.of(List.of(), List.of()).withLister(snapshot);
      InterPodAffinity memoized = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
      PodInfo pod = PodInfo.of(incoming.get());
      int podSeq = 0;
      int nodeSeq = 100;
      for (int step = 0; step < 80; step++) {
        int op = r.nextInt(10);
        int i = r.nextInt(nodes.size());
        V1Node node = nodes.get(i);
        switch (op) {
          case 0, 1, 2, 3 -> {
            V1Pod p = randomPod(r, "p" + podSeq++, node.getMetadata().getName()).pod();
            pods.add(p);
            cache.addPod(p);
          }
          case 4 -> {
            if (!pods.isEmpty()) {
              cache.removePod(pods.remove(r.nextInt(pods.size())));
            }
          }
          case 5 -> {
            V1Node relabelled = randomNode(r, node.getMetadata().getName());
            cache.updateNode(node, relabelled);
            nodes.set(i, relabelled);
          }
          case 6 -> {
            V1Node added = randomNode(r, "n" + nodeSeq++);
            nodes.add(added);
            cache.addNode(added);
          }
          case 7 -> {
            if (nodes.size() > 3) {
              String name = node.getMetadata().getName();
              for (V1Pod p : new ArrayList<>(pods)) {
                if (name.equals(p.getSpec().getNodeName())) {
                  cache.removePod(p);
                  pods.remove(p);
                }
              }
              cache.removeNode(nodes.remove(i));
            }
          }
          default -> {
            // an unchanged cycle
          }
        }
        cache.updateSnapshot(snapshot);
        List<NodeInfo> list = snapshot.list();
        PodInfo extra = randomPod(r, "extra" + step, list.get(0).name());
        InterPodAffinity fresh = new InterPodAffinity(InterPodAffinityArgs.defaults(), handle);
        assertThat(cycle(memoized, pod, list, extra))
            .as("seed %d step %d", seed, step)
            .isEqualTo(cycle(fresh, pod, list, extra));
      }
    }
  }

  /** Runs PreFilter, Filter, AddPod, PreScore and Score; returns everything observable. */
  private static List<String> cycle(
      InterPodAffinity plugin, PodInfo pod, List<NodeInfo> nodes, PodInfo extra) {
    List<String> out = new ArrayList<>();
    CycleState state = new CycleState();
    PreFilterResult pre = plugin.preFilter(state, pod, nodes);
    out.add(pre.toString());
    if (pre.status().isSuccess()) {
      PreFilterState s = state.get(InterPodAffinity.PRE_FILTER_KEY);
      out.add(s.existingAntiAffinity + " " + s.existingAntiAffinity.isEmpty());
      out.add(s.affinity + " " + s.affinity.isEmpty());
      out.add(s.antiAffinity + " " + s.antiAffinity.isEmpty());
      for (NodeInfo n : nodes) {
        out.add(n.name() + " " + plugin.filter(state, pod, n));
      }
      CycleState copy = state.clone();
      plugin.addPod(copy, pod, extra, nodes.get(0));
      for (NodeInfo n : nodes) {
        out.add(n.name() + " after add " + plugin.filter(copy, pod, n));
      }
    }
    Status ps = plugin.preScore(state, pod, nodes);
    out.add(ps.toString());
    if (ps.isSuccess()) {
      NodeScores scores = new NodeScores(nodes);
      for (int i = 0; i < nodes.size(); i++) {
        scores.set(i, plugin.score(state, pod, nodes.get(i)));
      }
      out.add(scoresOf(scores));
      plugin.normalizeScore(state, pod, scores);
      out.add(scoresOf(scores));
    }
    return out;
  }

  private static String scoresOf(NodeScores scores) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < scores.size(); i++) {
      b.append(scores.name(i)).append('=').append(scores.score(i)).append(' ');
    }
    return b.toString();
  }

  private static V1Node randomNode(Random r, String name) {
    MakeNode n = MakeNode.node().name(name);
    if (r.nextInt(6) != 0) {
      n.label(ZONE, "z" + r.nextInt(3));
    }
    if (r.nextInt(6) != 0) {
      n.label(HOST, name);
    }
    return n.obj();
  }

  private static PodInfo randomPod(Random r, String name, String node) {
    MakePod p = MakePod.pod().name(name).uid(name).node(node);
    p.namespace(r.nextInt(5) == 0 ? "other" : "default");
    if (r.nextInt(3) != 0) {
      p.label("foo", r.nextBoolean() ? "a" : "b");
    }
    if (r.nextBoolean()) {
      p.label("bar", r.nextBoolean() ? "x" : "y");
    }
    switch (r.nextInt(8)) {
      case 0 -> p.podAntiAffinityExists(r.nextBoolean() ? HOST : ZONE, "foo");
      case 1 -> p.podAffinity(ZONE, "bar", "x");
      case 2 -> p.preferredPodAffinity(2, HOST, "foo", "a");
      case 3 -> p.preferredPodAntiAffinity(4, ZONE, "bar", "x");
      default -> {
        // no affinity
      }
    }
    if (r.nextInt(10) == 0) {
      p.terminating();
    }
    return PodInfo.of(p.obj());
  }
}
