package io.kubesched.plugins.podtopologyspread;

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
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks that the counts PodTopologySpread keeps across cycles give exactly what a fresh plugin
 * computes: over random sequences of cluster changes (pods added and removed in place or on copied
 * node infos, nodes relabelled, added, removed and reordered), every cycle's PreFilter state
 * (counts in table order, critical paths), Filter statuses and normalized scores are compared with
 * those of a new plugin instance that has no memo.
 */
final class PodTopologySpreadMemoTest {
  private static final String ZONE = PodTopologySpread.LABEL_ZONE;
  private static final String HOST = PodTopologySpread.LABEL_HOSTNAME;

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "hard zone spread",
            (Supplier<V1Pod>)
                () ->
                    base()
                        .spreadConstraint(
                            s ->
                                s.maxSkew(1)
                                    .topologyKey(ZONE)
                                    .whenUnsatisfiable("DoNotSchedule")
                                    .selectorExists("foo"))
                        .obj()),
        Arguments.argumentSet(
            "hard zone and hostname spread with soft zone spread",
            (Supplier<V1Pod>)
                () ->
                    base()
                        .spreadConstraint(
                            s ->
                                s.maxSkew(1)
                                    .topologyKey(ZONE)
                                    .whenUnsatisfiable("DoNotSchedule")
                                    .selectorExists("foo"))
                        .spreadConstraint(
                            s ->
                                s.maxSkew(2)
                                    .topologyKey(HOST)
                                    .whenUnsatisfiable("DoNotSchedule")
                                    .selectorIn("foo", "a"))
                        .spreadConstraint(
                            s ->
                                s.maxSkew(1)
                                    .topologyKey(ZONE)
                                    .whenUnsatisfiable("ScheduleAnyway")
                                    .selectorExists("bar"))
                        .spreadConstraint(
                            s ->
                                s.maxSkew(3)
                                    .topologyKey(HOST)
                                    .whenUnsatisfiable("ScheduleAnyway")
                                    .selectorExists("foo"))
                        .obj()),
        Arguments.argumentSet(
            "node affinity and taints honoured, min domains",
            (Supplier<V1Pod>)
                () ->
                    base()
                        .nodeSelector(Map.of("disk", "ssd"))
                        .toleration("t", "a", "NoSchedule")
                        .spreadConstraint(
                            s ->
                                s.maxSkew(1)
                                    .minDomains(3)
                                    .topologyKey(ZONE)
                                    .whenUnsatisfiable("DoNotSchedule")
                                    .nodeTaintsPolicy("Honor")
                                    .selectorExists("foo"))
                        .spreadConstraint(
                            s ->
                                s.maxSkew(1)
                                    .topologyKey(ZONE)
                                    .whenUnsatisfiable("ScheduleAnyway")
                                    .nodeTaintsPolicy("Honor")
                                    .selectorNotIn("foo", "b"))
                        .obj()),
        Arguments.argumentSet(
            "node affinity ignored",
            (Supplier<V1Pod>)
                () ->
                    base()
                        .nodeAffinityIn("disk", "ssd")
                        .spreadConstraint(
                            s ->
                                s.maxSkew(2)
                                    .topologyKey(ZONE)
                                    .whenUnsatisfiable("DoNotSchedule")
                                    .nodeAffinityPolicy("Ignore")
                                    .selectorExists("foo"))
                        .spreadConstraint(
                            s ->
                                s.maxSkew(2)
                                    .topologyKey("rack")
                                    .whenUnsatisfiable("ScheduleAnyway")
                                    .selectorExists("foo"))
                        .obj()));
  }

  private static MakePod base() {
    return MakePod.pod().name("incoming").uid("incoming").label("foo", "a").label("bar", "");
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
      PodTopologySpread memoized = new PodTopologySpread(PodTopologySpreadArgs.defaults(), handle);
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
          case 5 -> {
            V1Node relabelled = randomNode(r, node.name());
            node.setNode(relabelled);
          }
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
        PodTopologySpread fresh = new PodTopologySpread(PodTopologySpreadArgs.defaults(), handle);
        assertThat(cycle(memoized, pod, list))
            .as("seed %d step %d", seed, step)
            .isEqualTo(cycle(fresh, pod, list));
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
      PodTopologySpread memoized = new PodTopologySpread(PodTopologySpreadArgs.defaults(), handle);
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
        PodTopologySpread fresh = new PodTopologySpread(PodTopologySpreadArgs.defaults(), handle);
        assertThat(cycle(memoized, pod, snapshot.list()))
            .as("seed %d step %d", seed, step)
            .isEqualTo(cycle(fresh, pod, snapshot.list()));
      }
    }
  }

  /** Runs PreFilter, Filter on every node, PreScore and Score; returns everything observable. */
  private static List<String> cycle(PodTopologySpread plugin, PodInfo pod, List<NodeInfo> nodes) {
    List<String> out = new ArrayList<>();
    CycleState state = new CycleState();
    PreFilterResult pre = plugin.preFilter(state, pod, nodes);
    out.add(pre.toString());
    List<NodeInfo> feasible = new ArrayList<>();
    if (pre.status().isSuccess()) {
      PreFilterState s = state.get(PodTopologySpread.PRE_FILTER_KEY);
      for (int j = 0; j < s.counts.length; j++) {
        out.add(slots(s.counts[j]) + " " + s.paths[j]);
      }
      for (NodeInfo n : nodes) {
        Status st = plugin.filter(state, pod, n);
        out.add(n.name() + " " + st);
        if (st.isSuccess()) {
          feasible.add(n);
        }
      }
    } else {
      feasible.addAll(nodes);
    }
    Status ps = plugin.preScore(state, pod, feasible);
    out.add(ps.toString());
    if (ps.isSuccess()) {
      NodeScores scores = new NodeScores(feasible);
      for (int i = 0; i < feasible.size(); i++) {
        scores.set(i, plugin.score(state, pod, feasible.get(i)));
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

  /** The table's keys and counts in slot order (the order critical paths are computed in). */
  private static String slots(ValueCounts c) {
    StringBuilder b = new StringBuilder();
    for (int s = 0; s < c.capacity(); s++) {
      if (c.keyAt(s) != null) {
        b.append(c.keyAt(s)).append('=').append(c.valueAt(s)).append(' ');
      }
    }
    return b.append("size=").append(c.size()).toString();
  }

  private static V1Node randomNode(Random r, String name) {
    MakeNode n = MakeNode.node().name(name);
    if (r.nextInt(8) != 0) {
      n.label(ZONE, "z" + r.nextInt(4));
    }
    if (r.nextInt(8) != 0) {
      n.label(HOST, name);
    }
    if (r.nextBoolean()) {
      n.label("rack", "r" + r.nextInt(3));
    }
    if (r.nextBoolean()) {
      n.label("disk", "ssd");
    }
    if (r.nextInt(4) == 0) {
      n.taint("t", r.nextBoolean() ? "a" : "b", "NoSchedule");
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
      p.label("bar", "");
    }
    if (r.nextInt(10) == 0) {
      p.terminating();
    }
    return PodInfo.of(p.obj());
  }
}
