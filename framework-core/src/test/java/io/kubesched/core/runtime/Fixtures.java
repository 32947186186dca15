package io.kubesched.core.runtime;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubesched.core.config.PluginConfig;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.config.PluginSet;
import io.kubesched.core.config.Plugins;
import io.kubesched.core.config.Profile;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodNominator;
import io.kubesched.framework.SchedulingException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Pods, nodes, snapshots, profiles and contexts for the runtime tests. */
final class Fixtures {
  private Fixtures() {}

  static V1Pod pod(String name, int priority, String nominatedNode) {
    V1Pod p =
        new V1Pod()
            .metadata(new V1ObjectMeta().name(name).namespace("default").uid("uid-" + name))
            .spec(new V1PodSpec().priority(priority))
            .status(new V1PodStatus());
    if (nominatedNode != null) {
      p.getStatus().setNominatedNodeName(nominatedNode);
    }
    return p;
  }

  static PodInfo pod(String name) {
    return PodInfo.of(pod(name, 0, null));
  }

  static PodInfo pod(String name, int priority) {
    return PodInfo.of(pod(name, priority, null));
  }

  static PodInfo nominatedPod(String name, String node) {
    return PodInfo.of(pod(name, 0, node));
  }

  static NodeInfo node(String name, PodInfo... pods) {
    V1Node n =
        new V1Node()
            .metadata(new V1ObjectMeta().name(name))
            .status(
                new V1NodeStatus()
                    .allocatable(Map.of("pods", Quantity.fromString("110")))
                    .capacity(Map.of("pods", Quantity.fromString("110"))));
    return NodeInfo.of(n, pods);
  }

  static List<NodeInfo> nodes(String... names) {
    List<NodeInfo> out = new ArrayList<>();
    for (String n : names) {
      out.add(node(n));
    }
    return out;
  }

  /** Returns {@code n} nodes named {@code node-0} ... */
  static List<NodeInfo> numberedNodes(int n) {
    List<NodeInfo> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(node("node-" + i));
    }
    return out;
  }

  /** A snapshot over fixed nodes. */
  static final class Lister implements NodeInfoLister {
    private final List<NodeInfo> nodes;
    private final Map<String, NodeInfo> byName = new LinkedHashMap<>();

    Lister(List<NodeInfo> nodes) {
      this.nodes = List.copyOf(nodes);
      for (NodeInfo n : nodes) {
        byName.put(n.name(), n);
      }
    }

    @Override
    public List<NodeInfo> list() {
      return nodes;
    }

    @Override
    public List<NodeInfo> havePodsWithAffinityList() {
      return List.of();
    }

    @Override
    public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
      return List.of();
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
  }

  /** Nominated pods by node. */
  static final class Nominator implements PodNominator {
    final Map<String, List<PodInfo>> byNode = new HashMap<>();

    Nominator add(String node, PodInfo pod) {
      byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(pod);
      return this;
    }

    @Override
    public List<PodInfo> nominatedPodsForNode(String nodeName) {
      return byNode.getOrDefault(nodeName, List.of());
    }
  }

  static Clock clock() {
    return Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  }

  static FrameworkContext context(
      PodNominator nominator, WaitingPods waitingPods, SchedulerMetrics metrics) {
    return new FrameworkContext(
        null,
        null,
        clock(),
        ExecutorParallelizer.callerRuns(),
        nominator,
        null,
        waitingPods,
        null,
        metrics);
  }

  static FrameworkContext context() {
    return context(new Nominator(), new WaitingPods(new ManualScheduler()), SchedulerMetrics.NOOP);
  }

  /** Builds {@link Plugins} point by point. */
  static final class PluginsBuilder {
    private final Map<String, PluginSet> sets = new HashMap<>();

    PluginsBuilder enable(String point, String... names) {
      List<PluginRef> refs = new ArrayList<>();
      for (String n : names) {
        refs.add(PluginRef.of(n));
      }
      return set(point, refs, List.of());
    }

    PluginsBuilder enableWeighted(String point, PluginRef... refs) {
      return set(point, List.of(refs), List.of());
    }

    PluginsBuilder disable(String point, String... names) {
      PluginSet old = sets.getOrDefault(point, PluginSet.empty());
      List<PluginRef> refs = new ArrayList<>(old.disabled());
      for (String n : names) {
        refs.add(PluginRef.of(n));
      }
      sets.put(point, new PluginSet(old.enabled(), refs));
      return this;
    }

    private PluginsBuilder set(String point, List<PluginRef> enabled, List<PluginRef> disabled) {
      PluginSet old = sets.getOrDefault(point, PluginSet.empty());
      List<PluginRef> en = new ArrayList<>(old.enabled());
      en.addAll(enabled);
      List<PluginRef> dis = new ArrayList<>(old.disabled());
      dis.addAll(disabled);
      sets.put(point, new PluginSet(en, dis));
      return this;
    }

    Plugins build() {
      return new Plugins(
          sets.get("preEnqueue"),
          sets.get("queueSort"),
          sets.get("preFilter"),
          sets.get("filter"),
          sets.get("postFilter"),
          sets.get("preScore"),
          sets.get("score"),
          sets.get("reserve"),
          sets.get("permit"),
          sets.get("preBind"),
          sets.get("bind"),
          sets.get("postBind"),
          sets.get("multiPoint"));
    }

    Profile profile() {
      return new Profile("default-scheduler", null, build(), List.<PluginConfig>of());
    }
  }

  static PluginsBuilder plugins() {
    return new PluginsBuilder();
  }

  /** Plugins with the mandatory QueueSort "QS" and Bind "Binder" plus {@code more}. */
  static PluginsBuilder basePlugins() {
    return plugins().enable("queueSort", "QS").enable("bind", "Binder");
  }

  static io.kubesched.framework.Plugin queueSort() {
    return Fake.plugin("QS").queueSort().build();
  }

  static io.kubesched.framework.Plugin binder() {
    return Fake.plugin("Binder").bind(io.kubesched.framework.Status.success()).build();
  }
}
