package io.kubesched.plugins.spreadtesting;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodNominator;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import io.kubesched.framework.WaitingPod;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * A minimal {@link FrameworkHandle} for plugin tests: an in-memory snapshot of nodes and their pods
 * (placed by {@code spec.nodeName}), an {@link InMemoryCluster} as the client and a sequential
 * parallelizer. Methods that run other plugins are unsupported.
 */
public final class FakeHandle implements FrameworkHandle {
  private final List<NodeInfo> nodes;
  private final Map<String, NodeInfo> byName = new LinkedHashMap<>();
  private final InMemoryCluster cluster;
  private Parallelizer parallelizer = new SequentialParallelizer();
  private FeatureGates featureGates = FeatureGates.defaults();
  private NodeInfoLister lister;

  private FakeHandle(List<V1Node> nodeObjs, List<V1Pod> pods, InMemoryCluster cluster) {
    this.cluster = cluster;
    this.nodes = new ArrayList<>();
    for (V1Node n : nodeObjs) {
      NodeInfo info = NodeInfo.of(n);
      nodes.add(info);
      byName.put(info.name(), info);
    }
    for (V1Pod p : pods) {
      NodeInfo info = byName.get(p.getSpec().getNodeName());
      if (info != null) {
        info.addPod(PodInfo.of(p));
      }
    }
  }

  /** Returns a handle over {@code nodes} holding {@code pods}, with an empty cluster. */
  public static FakeHandle of(List<V1Node> nodes, List<V1Pod> pods) {
    return new FakeHandle(nodes, pods, new InMemoryCluster());
  }

  /** Returns a handle over {@code nodes} holding {@code pods}, reading {@code cluster}. */
  public static FakeHandle of(List<V1Node> nodes, List<V1Pod> pods, InMemoryCluster cluster) {
    return new FakeHandle(nodes, pods, cluster);
  }

  /** Replaces the sequential parallelizer, e.g. with a real thread pool. */
  public FakeHandle withParallelizer(Parallelizer p) {
    this.parallelizer = p;
    return this;
  }

  /** Serves {@code l} (e.g. the engine's real snapshot) as {@link #snapshot()} instead. */
  public FakeHandle withLister(NodeInfoLister l) {
    this.lister = l;
    return this;
  }

  /** Replaces the default feature gates. */
  public FakeHandle withFeatureGates(FeatureGates gates) {
    this.featureGates = gates;
    return this;
  }

  @Override
  public FeatureGates featureGates() {
    return featureGates;
  }

  /** Returns the in-memory cluster behind {@link #client()}. */
  public InMemoryCluster cluster() {
    return cluster;
  }

  /** Returns the node infos, in the given order. */
  public List<NodeInfo> nodes() {
    return nodes;
  }

  /** Returns the node info named {@code name}. */
  public NodeInfo node(String name) {
    return byName.get(name);
  }

  @Override
  public String profileName() {
    return "default-scheduler";
  }

  @Override
  public NodeInfoLister snapshot() {
    if (lister != null) {
      return lister;
    }
    return new NodeInfoLister() {
      @Override
      public List<NodeInfo> list() {
        return nodes;
      }

      @Override
      public List<NodeInfo> havePodsWithAffinityList() {
        List<NodeInfo> out = new ArrayList<>();
        for (NodeInfo n : nodes) {
          if (!n.podsWithAffinity().isEmpty()) {
            out.add(n);
          }
        }
        return out;
      }

      @Override
      public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
        List<NodeInfo> out = new ArrayList<>();
        for (NodeInfo n : nodes) {
          if (!n.podsWithRequiredAntiAffinity().isEmpty()) {
            out.add(n);
          }
        }
        return out;
      }

      @Override
      public NodeInfo get(String nodeName) {
        NodeInfo n = byName.get(nodeName);
        if (n == null) {
          throw new SchedulingException("nodeinfo not found for node name \"" + nodeName + "\"");
        }
        return n;
      }

      @Override
      public NodeInfo find(String nodeName) {
        return byName.get(nodeName);
      }
    };
  }

  @Override
  public ClusterClient client() {
    return cluster;
  }

  @Override
  public EventRecorder eventRecorder() {
    return cluster;
  }

  @Override
  public Parallelizer parallelizer() {
    return parallelizer;
  }

  /** Runs the pieces one after the other on the calling thread. */
  private static final class SequentialParallelizer implements Parallelizer {
    @Override
    public int parallelism() {
      return 1;
    }

    @Override
    public void until(int pieces, IntConsumer work) {
      for (int i = 0; i < pieces; i++) {
        work.accept(i);
      }
    }
  }

  @Override
  public Clock clock() {
    return Clock.systemUTC();
  }

  @Override
  public PodNominator nominator() {
    throw new UnsupportedOperationException();
  }

  @Override
  public void iterateOverWaitingPods(Consumer<WaitingPod> action) {}

  @Override
  public Optional<WaitingPod> getWaitingPod(String uid) {
    return Optional.empty();
  }

  @Override
  public boolean rejectWaitingPod(String uid) {
    return false;
  }

  @Override
  public void activate(Collection<V1Pod> pods) {}

  @Override
  public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Status runPreFilterExtensionAddPod(
      CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Status runPreFilterExtensionRemovePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    throw new UnsupportedOperationException();
  }
}
