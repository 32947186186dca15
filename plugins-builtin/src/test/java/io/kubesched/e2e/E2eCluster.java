package io.kubesched.e2e;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.CoreEvent;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.testing.MakeNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * An in-memory cluster on simulated time driven by the real {@link Scheduler} with the builtin
 * plugins, as a kube-scheduler would run against an API server. Tests add nodes and pods, call
 * {@link #run()} and read back bindings, conditions and events.
 */
final class E2eCluster implements AutoCloseable {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";

  final SimulatedTime time = new SimulatedTime(T0);
  final InMemoryCluster api = new InMemoryCluster(time.clock());
  private final Scheduler scheduler;

  private E2eCluster(KubeSchedulerConfiguration cfg, PluginRegistry registry) {
    scheduler =
        Scheduler.builder()
            .cluster(api)
            .configuration(cfg)
            .registry(registry)
            .simulatedTime(time)
            .random(new Random(0))
            .build();
    scheduler.start();
  }

  /** A cluster scheduled by kube's default configuration. */
  static E2eCluster withDefaults() {
    PluginRegistry registry = PluginRegistry.discover();
    return new E2eCluster(ConfigurationLoader.defaults(registry), registry);
  }

  /** A cluster scheduled by the given KubeSchedulerConfiguration YAML. */
  static E2eCluster withConfig(String yaml) {
    PluginRegistry registry = PluginRegistry.discover();
    return new E2eCluster(ConfigurationLoader.parse(yaml, registry), registry);
  }

  /** A node with the hostname label, {@code cpu} cores, {@code mem} memory and 110 pods. */
  static MakeNode node(String name, String cpu, String mem) {
    return MakeNode.node()
        .name(name)
        .label(HOSTNAME, name)
        .capacity("cpu", cpu, "memory", mem, "pods", "110");
  }

  E2eCluster add(MakeNode... nodes) {
    for (MakeNode n : nodes) {
      api.addNode(n.obj());
    }
    return this;
  }

  E2eCluster add(V1Node n) {
    api.addNode(n);
    return this;
  }

  E2eCluster add(V1Pod... pods) {
    for (V1Pod p : pods) {
      api.addPod(p);
    }
    return this;
  }

  E2eCluster run() {
    scheduler.runUntilIdle();
    return this;
  }

  Scheduler scheduler() {
    return scheduler;
  }

  V1Pod pod(String name) {
    return api.getPod("default", name).orElseThrow(() -> new AssertionError("no pod " + name));
  }

  boolean exists(String name) {
    return api.getPod("default", name).isPresent();
  }

  /** The node {@code name} is bound to, or {@code null}. */
  String nodeOf(String name) {
    return pod(name).getSpec().getNodeName();
  }

  /** Pod name to node name (or "" when pending) for every pod in the default namespace. */
  Map<String, String> placements() {
    Map<String, String> m = new LinkedHashMap<>();
    for (V1Pod p : api.listPods()) {
      if ("default".equals(p.getMetadata().getNamespace())) {
        String n = p.getSpec().getNodeName();
        m.put(p.getMetadata().getName(), n == null ? "" : n);
      }
    }
    return m;
  }

  /** Node name to how many pods are bound to it. */
  Map<String, Integer> countsByNode() {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (V1Node n : api.listNodes()) {
      m.put(n.getMetadata().getName(), 0);
    }
    for (V1Pod p : api.listPods()) {
      String n = p.getSpec().getNodeName();
      if (n != null) {
        m.merge(n, 1, Integer::sum);
      }
    }
    return m;
  }

  /** The PodScheduled condition as [status, reason, message], or {@code null}. */
  List<String> podScheduled(String name) {
    V1Pod p = pod(name);
    if (p.getStatus() == null || p.getStatus().getConditions() == null) {
      return null;
    }
    for (V1PodCondition c : p.getStatus().getConditions()) {
      if ("PodScheduled".equals(c.getType())) {
        return java.util.Arrays.asList(c.getStatus(), c.getReason(), c.getMessage());
      }
    }
    return null;
  }

  String nominatedNode(String name) {
    V1Pod p = pod(name);
    return p.getStatus() == null ? null : p.getStatus().getNominatedNodeName();
  }

  /** The events about pod {@code name} as "Type Reason Action: message". */
  List<String> events(String name) {
    return api.eventsFor("Pod", "default", name).stream().map(E2eCluster::format).toList();
  }

  /** The distinct events about pod {@code name}, in order of first appearance. */
  List<String> distinctEvents(String name) {
    return events(name).stream().distinct().toList();
  }

  static String format(CoreEvent e) {
    return e.type() + " " + e.reason() + " " + e.action() + ": " + e.message();
  }

  static String failed(String message) {
    return "Warning FailedScheduling Scheduling: " + message;
  }

  static String scheduled(String pod, String node) {
    return "Normal Scheduled Binding: Successfully assigned default/" + pod + " to " + node;
  }

  @Override
  public void close() {
    scheduler.close();
  }
}
