package io.kubesched.cli.extender;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.cluster.Cluster;
import io.kubesched.core.extender.ExtenderWire;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.NodePluginScores;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four verbs of kube-scheduler's extender protocol, answered by one profile's framework over
 * the request's nodes and the pods the server knows (see {@link ExtenderServer}). Each method takes
 * the request's JSON and returns the answer's; a request that does not have the protocol's shape
 * throws {@link IllegalArgumentException} naming the field. Evaluations are serialized (the
 * framework's snapshot is the one of the request being answered).
 */
final class ExtenderVerbs {
  private static final Logger log = LoggerFactory.getLogger(ExtenderVerbs.class);

  /** kube's {@code extenderv1.MaxExtenderPriority}. */
  static final long MAX_EXTENDER_PRIORITY = 10;

  /** kube's {@code framework.MaxNodeScore}. */
  static final long MAX_NODE_SCORE = 100;

  static final String NO_NODE_CACHE =
      "kubesched extender has no node cache: configure the extender with nodeCacheCapable:"
          + " false, or start kubesched extender with --kubeconfig or --state";

  private final Framework framework;
  private final Cluster cluster;
  private final ClusterSnapshot view;
  private final boolean nodeCache;
  private final AtomicReference<NodeInfoLister> current;
  private final ReentrantLock lock = new ReentrantLock();

  /**
   * @param framework the profile's framework, whose snapshot supplier reads {@code current}
   * @param cluster the cluster state known to the server
   * @param view the nodes and bound pods of {@code cluster}
   * @param nodeCache whether {@code cluster} holds the cluster's nodes and pods (node names are
   *     then resolved against it, and preemption can be checked)
   * @param current the snapshot the framework's plugins see
   */
  ExtenderVerbs(
      Framework framework,
      Cluster cluster,
      ClusterSnapshot view,
      boolean nodeCache,
      AtomicReference<NodeInfoLister> current) {
    this.framework = framework;
    this.cluster = cluster;
    this.view = view;
    this.nodeCache = nodeCache;
    this.current = current;
  }

  // ---------------------------------------------------------------- requests' nodes

  /**
   * The nodes a request is about and the snapshot the plugins see, or the error to answer.
   *
   * @param lister what the plugins list: the whole cluster for node names, the request's nodes
   *     (with the pods bound to them) for full nodes
   * @param nodes the request's nodes, in its order
   * @param error the error to answer instead, or {@code null}
   */
  private record Nodes(Snapshot lister, List<NodeInfo> nodes, String error) {}

  /** Resolves the request's nodes. */
  private Nodes resolve(ExtenderWire.ExtenderArgs args, PodInfo pod) {
    if (args.nodes() != null) {
      Set<String> seen = new HashSet<>();
      List<V1Pod> pods = new ArrayList<>();
      for (int i = 0; i < args.nodes().size(); i++) {
        V1Node n = args.nodes().get(i);
        String field = "Nodes.items[" + i + "]";
        if (n == null) {
          throw new IllegalArgumentException(field + ": Required value");
        }
        if (n.getMetadata() == null
            || n.getMetadata().getName() == null
            || n.getMetadata().getName().isEmpty()) {
          throw new IllegalArgumentException(field + ".metadata.name: Required value");
        }
        if (!seen.add(n.getMetadata().getName())) {
          throw new IllegalArgumentException(
              field + ".metadata.name: Duplicate value: \"" + n.getMetadata().getName() + "\"");
        }
        for (V1Pod p : view.podsOn(n.getMetadata().getName())) {
          if (!uid(p).equals(pod.uid())) {
            pods.add(p);
          }
        }
      }
      Snapshot snapshot = Snapshot.of(args.nodes(), pods);
      return new Nodes(snapshot, snapshot.list(), null);
    }
    if (args.nodeNames() == null) {
      return new Nodes(Snapshot.empty(), List.of(), null);
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < args.nodeNames().size(); i++) {
      String name = args.nodeNames().get(i);
      if (name.isEmpty()) {
        throw new IllegalArgumentException("NodeNames[" + i + "]: Required value");
      }
      if (!seen.add(name)) {
        throw new IllegalArgumentException(
            "NodeNames[" + i + "]: Duplicate value: \"" + name + "\"");
      }
    }
    if (!nodeCache) {
      return new Nodes(null, null, NO_NODE_CACHE);
    }
    Snapshot all = view.all();
    List<NodeInfo> out = new ArrayList<>(args.nodeNames().size());
    List<String> unknown = new ArrayList<>();
    for (String name : args.nodeNames()) {
      NodeInfo n = all.find(name);
      if (n != null) {
        out.add(n);
      } else {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      return new Nodes(null, null, "kubesched extender: unknown node(s) " + unknown);
    }
    return new Nodes(all, out, null);
  }

  /** The pod's UID as {@link PodInfo#uid()} has it, without building a PodInfo. */
  private static String uid(V1Pod p) {
    String uid = p.getMetadata() == null ? null : p.getMetadata().getUid();
    if (uid != null && !uid.isEmpty()) {
      return uid;
    }
    return PodInfo.of(p).uid();
  }

  private static PodInfo podInfo(V1Pod pod) {
    if (pod == null) {
      throw new IllegalArgumentException("Pod: Required value");
    }
    if (pod.getMetadata() == null
        || pod.getMetadata().getName() == null
        || pod.getMetadata().getName().isEmpty()) {
      throw new IllegalArgumentException("Pod.metadata.name: Required value");
    }
    if (pod.getSpec() == null) {
      throw new IllegalArgumentException("Pod.spec: Required value");
    }
    if (pod.getMetadata().getNamespace() == null || pod.getMetadata().getNamespace().isEmpty()) {
      pod.getMetadata().setNamespace("default");
    }
    return PodInfo.of(pod);
  }

  // ---------------------------------------------------------------- filter

  String filter(String body) {
    ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(body);
    PodInfo pod = podInfo(args.pod());
    Nodes nodes = resolve(args, pod);
    if (nodes.error() != null) {
      return error(nodes.error());
    }
    Map<String, String> failed = new LinkedHashMap<>();
    Map<String, String> unresolvable = new LinkedHashMap<>();
    Set<String> passed = new HashSet<>();
    List<String> passedInOrder = new ArrayList<>();
    lock.lock();
    try {
      current.set(nodes.lister());
      CycleState state = new CycleState();
      List<NodeInfo> all = nodes.nodes();
      Framework.PreFilterOutcome pre = framework.runPreFilterPlugins(state, pod, all);
      Status s = pre.status();
      if (!s.isSuccess()) {
        if (!s.isRejected()) {
          return error(s.message());
        }
        for (NodeInfo n : all) {
          reject(n.name(), s, failed, unresolvable);
        }
      } else {
        Status absent =
            pre.allNodes()
                ? null
                : Status.unresolvable(
                    "node(s) didn't satisfy plugin(s) "
                        + goList(new TreeSet<>(pre.unschedulablePlugins())));
        for (NodeInfo n : all) {
          if (absent != null && !pre.nodeNames().contains(n.name())) {
            reject(n.name(), absent, failed, unresolvable);
            continue;
          }
          Status f = framework.runFilterPluginsWithNominatedPods(state, pod, n);
          if (f.isSuccess()) {
            passed.add(n.name());
            passedInOrder.add(n.name());
          } else if (f.isRejected()) {
            reject(n.name(), f, failed, unresolvable);
          } else {
            return error(f.message());
          }
        }
      }
    } finally {
      current.set(Snapshot.empty());
      lock.unlock();
    }
    log.atDebug()
        .setMessage("filtered nodes for pod")
        .addKeyValue("pod", pod.key())
        .addKeyValue("passed", passedInOrder.size())
        .log();
    if (args.nodes() != null) {
      List<V1Node> out = new ArrayList<>();
      for (V1Node n : args.nodes()) {
        if (passed.contains(n.getMetadata().getName())) {
          out.add(n);
        }
      }
      return ExtenderWire.encode(
          new ExtenderWire.FilterResult(out, null, failed, unresolvable, ""));
    }
    return ExtenderWire.encode(
        new ExtenderWire.FilterResult(null, passedInOrder, failed, unresolvable, ""));
  }

  private static String error(String message) {
    return ExtenderWire.encode(new ExtenderWire.FilterResult(null, null, null, null, message));
  }

  private static void reject(
      String node, Status s, Map<String, String> failed, Map<String, String> unresolvable) {
    if (s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
      unresolvable.put(node, s.message());
    } else {
      failed.put(node, s.message());
    }
  }

  private static String goList(Set<String> names) {
    return "[" + String.join(" ", names) + "]";
  }

  // ---------------------------------------------------------------- prioritize

  String prioritize(String body) {
    ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(body);
    PodInfo pod = podInfo(args.pod());
    Nodes nodes = resolve(args, pod);
    if (nodes.error() != null) {
      // a HostPriorityList has no error field: kube-scheduler ignores a failed prioritize
      throw new IllegalArgumentException(nodes.error());
    }
    List<ExtenderWire.HostPriority> out = new ArrayList<>();
    lock.lock();
    try {
      current.set(nodes.lister());
      List<NodeInfo> all = nodes.nodes();
      if (!framework.hasScorePlugins() || all.isEmpty()) {
        for (NodeInfo n : all) {
          out.add(new ExtenderWire.HostPriority(n.name(), 0));
        }
        return ExtenderWire.encodePriorities(out);
      }
      CycleState state = new CycleState();
      Status pre = framework.runPreScorePlugins(state, pod, all);
      if (!pre.isSuccess()) {
        throw new IllegalStateException("PreScore: " + pre.message());
      }
      Framework.ScoreOutcome scored = framework.runScorePlugins(state, pod, all);
      if (!scored.status().isSuccess()) {
        throw new IllegalStateException("Score: " + scored.status().message());
      }
      Map<String, Integer> weights = framework.scoreWeights();
      for (NodePluginScores ns : scored.scores()) {
        out.add(new ExtenderWire.HostPriority(ns.name(), extenderScore(ns, weights)));
      }
    } finally {
      current.set(Snapshot.empty());
      lock.unlock();
    }
    return ExtenderWire.encodePriorities(out);
  }

  /**
   * The node's weighted average of its normalized plugin scores, scaled from [0, {@value
   * #MAX_NODE_SCORE}] to [0, {@value #MAX_EXTENDER_PRIORITY}] (kube-scheduler multiplies it back by
   * {@code MaxNodeScore / MaxExtenderPriority} and the extender's weight).
   */
  static long extenderScore(NodePluginScores ns, Map<String, Integer> weights) {
    long maxTotal = 0;
    for (String plugin : ns.scores().keySet()) {
      maxTotal += MAX_NODE_SCORE * weights.getOrDefault(plugin, 1);
    }
    return maxTotal == 0 ? 0 : ns.totalScore() * MAX_EXTENDER_PRIORITY / maxTotal;
  }

  // ---------------------------------------------------------------- bind

  String bind(String body) {
    ExtenderWire.BindingArgs args = ExtenderWire.decodeBindingArgs(body);
    if (args.podName().isEmpty()) {
      throw new IllegalArgumentException("PodName: Required value");
    }
    if (args.node().isEmpty()) {
      throw new IllegalArgumentException("Node: Required value");
    }
    String namespace = args.podNamespace().isEmpty() ? "default" : args.podNamespace();
    Optional<V1Pod> pod = cluster.getPod(namespace, args.podName());
    if (pod.isEmpty()) {
      return ExtenderWire.encodeBindingResult(
          "kubesched extender: pod "
              + namespace
              + "/"
              + args.podName()
              + " is not in its cluster state"
              + (nodeCache ? "" : " (start kubesched extender with --kubeconfig or --state)"));
    }
    PodInfo info = PodInfo.of(pod.get());
    if (!args.podUid().isEmpty() && !args.podUid().equals(info.uid())) {
      return ExtenderWire.encodeBindingResult(
          "kubesched extender: pod "
              + info.key()
              + " has UID "
              + info.uid()
              + ", not "
              + args.podUid());
    }
    lock.lock();
    try {
      Status s = framework.runBindPlugins(new CycleState(), info, args.node());
      return ExtenderWire.encodeBindingResult(s.isSuccess() ? "" : s.message());
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- preempt

  /**
   * Keeps the candidate nodes where the pod fits, by the profile's PreFilter (with its RemovePod
   * extensions) and Filter plugins, once the proposed victims are gone; each kept node's victims
   * and PDB violation count are answered as proposed. Victims are named by UID ({@code
   * NodeNameToMetaVictims}, cache-capable extenders) or given whole ({@code NodeNameToVictims});
   * they must be pods the server knows on that node.
   */
  String preempt(String body) {
    ExtenderWire.PreemptionArgs args = ExtenderWire.decodePreemptionArgs(body);
    PodInfo pod = podInfo(args.pod());
    Map<String, List<String>> victimUids = new LinkedHashMap<>();
    Map<String, Long> violations = new LinkedHashMap<>();
    if (args.nodeNameToVictims() != null) {
      args.nodeNameToVictims()
          .forEach(
              (node, v) -> {
                List<String> uids = new ArrayList<>();
                if (v != null) {
                  for (int i = 0; i < v.pods().size(); i++) {
                    V1Pod p = v.pods().get(i);
                    if (p == null || p.getMetadata() == null) {
                      throw new IllegalArgumentException(
                          "NodeNameToVictims."
                              + node
                              + ".Pods["
                              + i
                              + "].metadata: Required value");
                    }
                    uids.add(PodInfo.of(p).uid());
                  }
                }
                victimUids.put(node, uids);
                violations.put(node, v == null ? 0 : v.numPdbViolations());
              });
    } else if (args.nodeNameToMetaVictims() != null) {
      args.nodeNameToMetaVictims()
          .forEach(
              (node, v) -> {
                victimUids.put(node, v == null ? List.of() : v.podUids());
                violations.put(node, v == null ? 0 : v.numPdbViolations());
              });
    }
    if (victimUids.isEmpty()) {
      return ExtenderWire.encodePreemptionResult(Map.of());
    }
    if (!nodeCache) {
      throw new IllegalArgumentException(
          "kubesched extender knows no nodes to check preemption on: start it with --kubeconfig"
              + " or --state");
    }
    Map<String, ExtenderWire.MetaVictims> out = new LinkedHashMap<>();
    lock.lock();
    try {
      Snapshot snapshot = view.all();
      current.set(snapshot);
      CycleState state = new CycleState();
      Framework.PreFilterOutcome pre = framework.runPreFilterPlugins(state, pod, snapshot.list());
      if (!pre.status().isSuccess()) {
        log.atDebug()
            .setMessage("preemption cannot help: PreFilter rejected the pod")
            .addKeyValue("pod", pod.key())
            .log();
        return ExtenderWire.encodePreemptionResult(Map.of());
      }
      for (Map.Entry<String, List<String>> e : victimUids.entrySet()) {
        String node = e.getKey();
        NodeInfo info = snapshot.find(node);
        if (info == null || (!pre.allNodes() && !pre.nodeNames().contains(node))) {
          continue;
        }
        if (fitsWithout(state, pod, info, e.getValue())) {
          out.put(
              node, new ExtenderWire.MetaVictims(List.copyOf(e.getValue()), violations.get(node)));
        }
      }
    } finally {
      current.set(Snapshot.empty());
      lock.unlock();
    }
    return ExtenderWire.encodePreemptionResult(out);
  }

  private boolean fitsWithout(CycleState state, PodInfo pod, NodeInfo node, List<String> uids) {
    CycleState copy = state.clone();
    NodeInfo without = node.snapshot();
    for (String uid : uids) {
      PodInfo victim = null;
      for (PodInfo p : without.pods()) {
        if (p.uid().equals(uid)) {
          victim = p;
          break;
        }
      }
      if (victim == null) {
        log.atDebug()
            .setMessage("victim not on node")
            .addKeyValue("pod", pod.key())
            .addKeyValue("node", node.name())
            .addKeyValue("victim", uid)
            .log();
        return false;
      }
      without.removePod(victim);
      Status s = framework.runPreFilterExtensionRemovePod(copy, pod, victim, without);
      if (!s.isSuccess()) {
        return false;
      }
    }
    return framework.runFilterPluginsWithNominatedPods(copy, pod, without).isSuccess();
  }
}
