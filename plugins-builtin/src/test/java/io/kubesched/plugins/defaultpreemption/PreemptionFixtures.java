package io.kubesched.plugins.defaultpreemption;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetSpec;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetStatus;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PodNominator;
import io.kubesched.framework.PreFilterExtensions;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import io.kubesched.framework.WaitingPod;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Hand-written test doubles for preemption: a small pod/node builder, a {@link FrameworkHandle}
 * that runs a list of Filter plugins sequentially, a recording {@link ClusterClient} and a
 * resource-counting Filter plugin with NodeResourcesFit's reasons.
 */
final class PreemptionFixtures {
  static final int NEG = -100;
  static final int LOW = 0;
  static final int MID = 100;
  static final int HIGH = 1000;
  static final int VERY_HIGH = 10000;
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private PreemptionFixtures() {}

  static OffsetDateTime epoch(int nanos) {
    return OffsetDateTime.ofInstant(Instant.ofEpochSecond(0, nanos), ZoneOffset.UTC);
  }

  static PodBuilder pod(String name) {
    return new PodBuilder(name);
  }

  /** A minimal V1Pod builder; uid = name, namespace "default". */
  static final class PodBuilder {
    private final V1Pod pod;

    PodBuilder(String name) {
      pod =
          new V1Pod()
              .metadata(new V1ObjectMeta().name(name).namespace("default").uid(name))
              .spec(new V1PodSpec().schedulerName("default-scheduler"))
              .status(new V1PodStatus());
    }

    PodBuilder priority(int p) {
      pod.getSpec().setPriority(p);
      return this;
    }

    PodBuilder node(String n) {
      pod.getSpec().setNodeName(n);
      return this;
    }

    PodBuilder nominated(String n) {
      pod.getStatus().setNominatedNodeName(n);
      return this;
    }

    PodBuilder label(String k, String v) {
      pod.getMetadata().putLabelsItem(k, v);
      return this;
    }

    PodBuilder neverPreempt() {
      pod.getSpec().setPreemptionPolicy("Never");
      return this;
    }

    PodBuilder startTime(OffsetDateTime t) {
      pod.getStatus().setStartTime(t);
      return this;
    }

    /** Adds a container requesting {@code cpu} (millicores) and {@code memory} (bytes). */
    PodBuilder req(long milliCpu, long memory) {
      pod.getSpec()
          .addContainersItem(
              new V1Container()
                  .name("c" + pod.getSpec().getContainers().size())
                  .resources(
                      new V1ResourceRequirements()
                          .putRequestsItem("cpu", Quantity.fromString(milliCpu + "m"))
                          .putRequestsItem("memory", Quantity.fromString(String.valueOf(memory)))));
      return this;
    }

    /** Marks the pod terminating because the scheduler preempted it. */
    PodBuilder terminatingByPreemption() {
      pod.getMetadata().setDeletionTimestamp(OffsetDateTime.ofInstant(NOW, ZoneOffset.UTC));
      pod.getStatus()
          .addConditionsItem(
              new V1PodCondition()
                  .type("DisruptionTarget")
                  .status("True")
                  .reason("PreemptionByScheduler"));
      return this;
    }

    /** Marks the pod terminating for another reason. */
    PodBuilder terminating() {
      pod.getMetadata().setDeletionTimestamp(OffsetDateTime.ofInstant(NOW, ZoneOffset.UTC));
      return this;
    }

    V1Pod obj() {
      return pod;
    }

    PodInfo info() {
      return PodInfo.of(pod);
    }
  }

  /** A node with {@code pods} allowed pods, {@code milliCpu} CPU and {@code memory} bytes. */
  static V1Node node(String name, long pods, long milliCpu, long memory) {
    Map<String, Quantity> capacity = new LinkedHashMap<>();
    capacity.put("pods", Quantity.fromString(String.valueOf(pods)));
    capacity.put("cpu", Quantity.fromString(milliCpu + "m"));
    capacity.put("memory", Quantity.fromString(String.valueOf(memory)));
    return new V1Node()
        .metadata(new V1ObjectMeta().name(name))
        .status(new V1NodeStatus().capacity(capacity).allocatable(capacity));
  }

  /** A budget over pods labelled {@code key=value} in "default". */
  static V1PodDisruptionBudget pdb(
      String name, String key, String value, int disruptionsAllowed, String... disruptedPods) {
    Map<String, OffsetDateTime> disrupted = new HashMap<>();
    for (String p : disruptedPods) {
      disrupted.put(p, OffsetDateTime.ofInstant(NOW, ZoneOffset.UTC));
    }
    return new V1PodDisruptionBudget()
        .metadata(new V1ObjectMeta().name(name).namespace("default"))
        .spec(
            new V1PodDisruptionBudgetSpec()
                .selector(new V1LabelSelector().putMatchLabelsItem(key, value)))
        .status(
            new V1PodDisruptionBudgetStatus()
                .disruptionsAllowed(disruptionsAllowed)
                .disruptedPods(disrupted)
                .currentHealthy(0)
                .desiredHealthy(0)
                .expectedPods(0));
  }

  /** Node statuses with explicit entries and an absent-nodes status. */
  record NodeStatuses(Map<String, Status> explicit, Status absent) implements NodeToStatusReader {
    static NodeStatuses allUnschedulable(List<String> names) {
      Map<String, Status> m = new LinkedHashMap<>();
      for (String n : names) {
        m.put(n, Status.unschedulable());
      }
      return new NodeStatuses(m, Status.unresolvable());
    }

    @Override
    public Status get(String nodeName) {
      return explicit.getOrDefault(nodeName, absent);
    }

    @Override
    public List<NodeInfo> nodesForStatusCode(NodeInfoLister lister, Status.Code code) {
      List<NodeInfo> out = new ArrayList<>();
      for (NodeInfo n : lister.list()) {
        if (get(n.name()).code() == code) {
          out.add(n);
        }
      }
      return out;
    }
  }

  /** Counts pods, CPU and memory like NodeResourcesFit's Filter, with its reasons. */
  static final class ResourceFit implements FilterPlugin {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String name() {
      return "NodeResourcesFit";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      calls.incrementAndGet();
      List<String> reasons = new ArrayList<>();
      if (node.pods().size() + 1 > node.allocatable().allowedPodNumber()) {
        reasons.add("Too many pods");
      }
      long cpu = pod.requests().milliCpu();
      long mem = pod.requests().memory();
      if (cpu > 0 && cpu > node.allocatable().milliCpu() - node.requested().milliCpu()) {
        reasons.add("Insufficient cpu");
      }
      if (mem > 0 && mem > node.allocatable().memory() - node.requested().memory()) {
        reasons.add("Insufficient memory");
      }
      return reasons.isEmpty()
          ? Status.success()
          : Status.unschedulable(reasons.toArray(String[]::new)).withPlugin(name());
    }
  }

  /** A Filter plugin that rejects every node with the given status and counts its calls. */
  static final class ConstantFilter implements FilterPlugin {
    final AtomicInteger calls = new AtomicInteger();
    private final String name;
    private final Status status;

    ConstantFilter(String name, Status status) {
      this.name = name;
      this.status = status;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      calls.incrementAndGet();
      return status;
    }
  }

  /** Fails AddPod/RemovePod on nodes labelled {@code error=true}, like kube's TestPlugin. */
  static class FailingExtensions implements PreFilterExtensions {
    @Override
    public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
      return "true".equals(node.labels().get("error"))
          ? Status.error("failed to add pod: " + podToSchedule.name())
          : Status.success();
    }

    @Override
    public Status removePod(
        CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
      return "true".equals(node.labels().get("error"))
          ? Status.error("failed to remove pod: " + podToSchedule.name())
          : Status.success();
    }
  }

  /** A recorded event. */
  record Event(String regarding, String type, String reason, String action, String message) {}

  /** A cluster in memory that records every write as a line of text. */
  static final class FakeClient implements ClusterClient, EventRecorder {
    final Map<String, V1Pod> pods = new LinkedHashMap<>();
    final List<V1PodDisruptionBudget> pdbs = new ArrayList<>();
    final List<String> writes = new ArrayList<>();
    final List<Event> events = new ArrayList<>();
    final List<String> failDeletes = new ArrayList<>();
    Consumer<V1Pod> onDelete = p -> {};

    void add(V1Pod p) {
      pods.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p);
    }

    private static String key(V1Pod p) {
      return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    @Override
    public void bind(V1Pod pod, String nodeName) {
      writes.add("bind " + key(pod) + " " + nodeName);
    }

    @Override
    public void deletePod(V1Pod pod) {
      if (failDeletes.contains(pod.getMetadata().getName())) {
        throw new SchedulingException("delete failed: " + pod.getMetadata().getName());
      }
      onDelete.accept(pod);
      writes.add("delete " + key(pod));
      pods.remove(key(pod));
    }

    @Override
    public void updatePodCondition(V1Pod pod, V1PodCondition condition) {
      writes.add(
          "condition "
              + key(pod)
              + " "
              + condition.getType()
              + "="
              + condition.getStatus()
              + " "
              + condition.getReason()
              + " \""
              + condition.getMessage()
              + "\"");
    }

    @Override
    public void setNominatedNodeName(V1Pod pod, String nodeName) {
      writes.add("nominate " + key(pod) + " \"" + (nodeName == null ? "" : nodeName) + "\"");
    }

    @Override
    public Optional<V1Pod> getPod(String namespace, String name) {
      return Optional.ofNullable(pods.get(namespace + "/" + name));
    }

    @Override
    public List<V1Pod> listPods() {
      return List.copyOf(pods.values());
    }

    @Override
    public Map<String, String> namespaceLabels(String namespace) {
      return Map.of();
    }

    @Override
    public List<V1Namespace> listNamespaces() {
      return List.of();
    }

    @Override
    public List<V1PodDisruptionBudget> listPodDisruptionBudgets() {
      return List.copyOf(pdbs);
    }

    @Override
    public List<V1PriorityClass> listPriorityClasses() {
      return List.of();
    }

    @Override
    public List<V1Service> listServices(String namespace) {
      return List.of();
    }

    @Override
    public List<V1ReplicaSet> listReplicaSets(String namespace) {
      return List.of();
    }

    @Override
    public List<V1StatefulSet> listStatefulSets(String namespace) {
      return List.of();
    }

    @Override
    public List<V1ReplicationController> listReplicationControllers(String namespace) {
      return List.of();
    }

    @Override
    public List<Map<String, Object>> listCustomObjects(
        String apiVersion, String kind, String namespace) {
      return List.of();
    }

    @Override
    public void event(Object regarding, String type, String reason, String action, String message) {
      V1Pod p = (V1Pod) regarding;
      events.add(new Event(key(p), type, reason, action, message));
    }
  }

  /** A waiting pod that records its rejection. */
  static final class FakeWaitingPod implements WaitingPod {
    final PodInfo pod;
    String rejectedBy;
    String rejectMessage;

    FakeWaitingPod(PodInfo pod) {
      this.pod = pod;
    }

    @Override
    public PodInfo pod() {
      return pod;
    }

    @Override
    public String nodeName() {
      return pod.nodeName();
    }

    @Override
    public List<String> pendingPlugins() {
      return List.of("Permit");
    }

    @Override
    public void allow(String pluginName) {}

    @Override
    public void reject(String pluginName, String message) {
      rejectedBy = pluginName;
      rejectMessage = message;
    }
  }

  /** A framework handle over fixed nodes that runs its Filter plugins in order. */
  static final class FakeHandle implements FrameworkHandle, NodeInfoLister, PodNominator {
    final FakeClient client = new FakeClient();
    final List<NodeInfo> nodes = new ArrayList<>();
    final List<FilterPlugin> filters = new ArrayList<>();
    final List<PreFilterExtensions> extensions = new ArrayList<>();
    final Map<String, List<PodInfo>> nominated = new HashMap<>();
    final Map<String, WaitingPod> waiting = new HashMap<>();
    final List<V1Pod> activated = new ArrayList<>();
    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

    /** Adds the nodes and places every pod with a node name on its node (and in the client). */
    FakeHandle with(List<V1Node> nodeObjs, List<V1Pod> podObjs) {
      for (V1Node n : nodeObjs) {
        NodeInfo ni = new NodeInfo();
        ni.setNode(n);
        nodes.add(ni);
      }
      for (V1Pod p : podObjs) {
        client.add(p);
        String nodeName = p.getSpec().getNodeName();
        if (nodeName != null) {
          find(nodeName).addPod(PodInfo.of(p));
        }
      }
      return this;
    }

    FakeHandle filter(FilterPlugin f) {
      filters.add(f);
      return this;
    }

    @Override
    public String profileName() {
      return "default-scheduler";
    }

    @Override
    public NodeInfoLister snapshot() {
      return this;
    }

    @Override
    public ClusterClient client() {
      return client;
    }

    @Override
    public EventRecorder eventRecorder() {
      return client;
    }

    /** Set to run the dry run with another parallelizer than the sequential one. */
    Parallelizer parallelizer;

    @Override
    public Parallelizer parallelizer() {
      if (parallelizer != null) {
        return parallelizer;
      }
      return new Parallelizer() {
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
      };
    }

    @Override
    public Clock clock() {
      return clock;
    }

    @Override
    public PodNominator nominator() {
      return this;
    }

    @Override
    public void iterateOverWaitingPods(Consumer<WaitingPod> action) {
      waiting.values().forEach(action);
    }

    @Override
    public Optional<WaitingPod> getWaitingPod(String uid) {
      return Optional.ofNullable(waiting.get(uid));
    }

    @Override
    public boolean rejectWaitingPod(String uid) {
      WaitingPod w = waiting.get(uid);
      if (w != null) {
        w.reject("", "removed");
      }
      return w != null;
    }

    @Override
    public void activate(Collection<V1Pod> pods) {
      activated.addAll(pods);
    }

    @Override
    public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
      // first pass with the nominated pods of equal or higher priority, as kube-scheduler does
      List<PodInfo> add = new ArrayList<>();
      for (PodInfo p : nominatedPodsForNode(node.name())) {
        if (p.priority() >= pod.priority() && !p.uid().equals(pod.uid())) {
          add.add(p);
        }
      }
      if (!add.isEmpty()) {
        NodeInfo copy = node.snapshot();
        add.forEach(copy::addPod);
        Status s = runFilterPlugins(state, pod, copy);
        if (!s.isSuccess()) {
          return s;
        }
      }
      return runFilterPlugins(state, pod, node);
    }

    @Override
    public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
      for (FilterPlugin f : filters) {
        Status s = f.filter(state, pod, node);
        if (!s.isSuccess()) {
          return s.withPlugin(f.name());
        }
      }
      return Status.success();
    }

    @Override
    public Status runPreFilterExtensionAddPod(
        CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
      for (PreFilterExtensions e : extensions) {
        Status s = e.addPod(state, podToSchedule, podToAdd, node);
        if (!s.isSuccess()) {
          // the runtime's wrapping, for the only extensions these tests use
          return Status.error("running AddPod on PreFilter plugin \"test-plugin\": " + s.message());
        }
      }
      return Status.success();
    }

    @Override
    public Status runPreFilterExtensionRemovePod(
        CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
      for (PreFilterExtensions e : extensions) {
        Status s = e.removePod(state, podToSchedule, podToRemove, node);
        if (!s.isSuccess()) {
          return Status.error(
              "running RemovePod on PreFilter plugin \"test-plugin\": " + s.message());
        }
      }
      return Status.success();
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
      NodeInfo n = find(nodeName);
      if (n == null) {
        throw new SchedulingException("nodeinfo not found for node name \"" + nodeName + "\"");
      }
      return n;
    }

    @Override
    public NodeInfo find(String nodeName) {
      for (NodeInfo n : nodes) {
        if (n.name().equals(nodeName)) {
          return n;
        }
      }
      return null;
    }

    @Override
    public List<PodInfo> nominatedPodsForNode(String nodeName) {
      return nominated.getOrDefault(nodeName, List.of());
    }
  }

  /** A random source that returns scripted values from {@code nextInt(bound)}. */
  static final class ScriptedRandom extends java.util.Random {
    private final int[] values;
    private int next;

    ScriptedRandom(int... values) {
      this.values = values;
    }

    @Override
    public int nextInt(int bound) {
      int v = values[next++ % values.length];
      if (v >= bound) {
        throw new IllegalStateException("scripted " + v + " not below " + bound);
      }
      return v;
    }
  }
}
