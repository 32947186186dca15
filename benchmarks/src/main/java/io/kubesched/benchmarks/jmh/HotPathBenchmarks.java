package io.kubesched.benchmarks.jmh;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.benchmarks.ClusterFixtures;
import io.kubesched.benchmarks.DefaultProfile;
import io.kubesched.core.cache.SchedulerCache;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.runtime.Framework;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Micro-benchmarks of the scheduling hot paths with the default profile: Filter over every node,
 * PreScore + Score + normalisation over the feasible nodes, the incremental snapshot update after a
 * pod is assumed, and PodInfo construction.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
@State(Scope.Benchmark)
public class HotPathBenchmarks {
  /** The number of nodes in the cluster. */
  @Param({"5000"})
  public int nodes;

  /** The number of nodes scored, as the adaptive percentage gives for 5,000 nodes. */
  @Param({"500"})
  public int scoredNodes;

  private Framework framework;
  private Snapshot snapshot;
  private List<NodeInfo> all;
  private List<NodeInfo> feasible;
  private PodInfo pod;
  private V1Pod rawPod;
  private SchedulerCache cache;
  private Snapshot cacheSnapshot;
  private int next;

  /** Builds a cluster with one pod per node and the default-profile framework. */
  @Setup(Level.Trial)
  public void setUp() {
    List<V1Node> ns = ClusterFixtures.nodes(nodes);
    List<V1Pod> existing = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      V1Pod p = ClusterFixtures.pod("init", "init-" + i);
      p.getSpec().setNodeName(ns.get(i).getMetadata().getName());
      existing.add(p);
    }
    snapshot = Snapshot.of(ns, existing);
    InMemoryCluster cluster = new InMemoryCluster();
    framework = DefaultProfile.create(cluster, () -> snapshot);
    all = snapshot.list();
    feasible = all.subList(0, Math.min(scoredNodes, all.size()));
    rawPod = ClusterFixtures.pod("bench", "measured");
    pod = PodInfo.of(rawPod);

    cache = new SchedulerCache(Clock.systemUTC());
    for (V1Node n : ns) {
      cache.addNode(n);
    }
    for (V1Pod p : existing) {
      cache.addPod(p);
    }
    cacheSnapshot = new Snapshot();
    cache.updateSnapshot(cacheSnapshot);
  }

  /** PreFilter then Filter on every node: one pod's full feasibility scan. */
  @Benchmark
  public int filterAllNodes() {
    CycleState state = new CycleState();
    framework.runPreFilterPlugins(state, pod, all);
    int fit = 0;
    for (int i = 0; i < all.size(); i++) {
      Status s = framework.runFilterPlugins(state, pod, all.get(i));
      if (s.isSuccess()) {
        fit++;
      }
    }
    return fit;
  }

  /** PreFilter, PreScore, Score and NormalizeScore over the scored nodes. */
  @Benchmark
  public Object scoreFeasibleNodes() {
    CycleState state = new CycleState();
    framework.runPreFilterPlugins(state, pod, all);
    framework.runPreScorePlugins(state, pod, feasible);
    return framework.runScorePlugins(state, pod, feasible);
  }

  /** PreFilter alone over every node (what every cycle pays before Filter). */
  @Benchmark
  public Object preFilter() {
    CycleState state = new CycleState();
    return framework.runPreFilterPlugins(state, pod, all);
  }

  /** PreScore alone over the scored nodes. */
  @Benchmark
  public Status preScore() {
    CycleState state = new CycleState();
    framework.runPreFilterPlugins(state, pod, all);
    return framework.runPreScorePlugins(state, pod, feasible);
  }

  /** Assumes a pod on a node and updates the snapshot, then forgets it and updates again. */
  @Benchmark
  public long snapshotUpdateAfterAssume() {
    String node = all.get(next++ % all.size()).name();
    V1Pod p = ClusterFixtures.pod("bench", "assumed-" + next);
    p.getSpec().setNodeName(node);
    PodInfo info = PodInfo.of(p);
    cache.assumePod(info);
    cache.updateSnapshot(cacheSnapshot);
    cache.forgetPod(info);
    cache.updateSnapshot(cacheSnapshot);
    return cacheSnapshot.generation();
  }

  /** Builds the precomputed view of a pod. */
  @Benchmark
  public void podInfoConstruction(Blackhole bh) {
    bh.consume(PodInfo.of(rawPod));
  }
}
