package io.kubesched.cli.sim;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubesched.cli.manifest.Manifests;
import io.kubesched.cli.manifest.WorkloadExpander;
import io.kubesched.cli.report.SimulationReport;
import io.kubesched.core.Scheduler;
import io.kubesched.core.SchedulingAttemptListener;
import io.kubesched.core.cluster.CoreEvent;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Quantities;
import io.kubesched.framework.Resource;
import io.kubesched.framework.ResourceNames;
import io.kubesched.framework.SchedulerConstants;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the real scheduler over an in-memory cluster built from manifests, on simulated time, until
 * no pod can make progress, and reports the outcome.
 */
public final class Simulation {
  /** The instant simulated time starts at, so that runs are reproducible. */
  public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final Manifests manifests;
  private final KubeSchedulerConfiguration configuration;
  private final PluginRegistry registry;
  private final long seed;
  private final String explainPod;
  private final Consumer<String> progress;
  private final FeatureGates featureGates;

  /**
   * Prepares a simulation.
   *
   * @param explainPod {@code namespace/name} of the pod to trace, or {@code null}
   * @param progress receives progress lines for long runs (may ignore them)
   */
  public Simulation(
      Manifests manifests,
      KubeSchedulerConfiguration configuration,
      PluginRegistry registry,
      long seed,
      String explainPod,
      Consumer<String> progress) {
    this(manifests, configuration, registry, seed, explainPod, progress, FeatureGates.defaults());
  }

  /**
   * Prepares a simulation with feature gates.
   *
   * @param explainPod {@code namespace/name} of the pod to trace, or {@code null}
   * @param progress receives progress lines for long runs (may ignore them)
   * @param featureGates the gates the scheduler's plugins read
   */
  public Simulation(
      Manifests manifests,
      KubeSchedulerConfiguration configuration,
      PluginRegistry registry,
      long seed,
      String explainPod,
      Consumer<String> progress,
      FeatureGates featureGates) {
    this.featureGates = featureGates;
    this.manifests = manifests;
    this.configuration = configuration;
    this.registry = registry;
    this.seed = seed;
    this.explainPod = explainPod;
    this.progress = progress;
  }

  private static final int PROGRESS_THRESHOLD = 2000;
  private static final int PROGRESS_EVERY = 1000;
  private long attempts;
  private int total;

  private SchedulingAttemptListener progressReporting(TraceRecorder trace) {
    return (pod, nodes, result, fitError) -> {
      trace.onAttempt(pod, nodes, result, fitError);
      attempts++;
      if (total > PROGRESS_THRESHOLD && attempts % PROGRESS_EVERY == 0) {
        progress.accept("  " + attempts + " scheduling attempts for " + total + " pods");
      }
    };
  }

  /** Runs the simulation and returns its report. */
  public SimulationReport run() {
    SimulatedTime time = new SimulatedTime(START);
    InMemoryCluster cluster = new InMemoryCluster(time.clock());
    WorkloadExpander.Expansion expansion = WorkloadExpander.expand(manifests);
    createAll(cluster, manifests.namespaces());
    createAll(cluster, manifests.priorityClasses());
    createAll(cluster, manifests.podDisruptionBudgets());
    createAll(cluster, manifests.services());
    createAll(cluster, manifests.deployments());
    createAll(cluster, manifests.replicaSets());
    createAll(cluster, expansion.replicaSets());
    createAll(cluster, manifests.statefulSets());
    createAll(cluster, manifests.replicationControllers());
    createAll(cluster, manifests.jobs());
    createAll(cluster, manifests.daemonSets());
    createAll(cluster, manifests.storageClasses());
    createAll(cluster, manifests.csiDrivers());
    createAll(cluster, manifests.csiNodes());
    createAll(cluster, manifests.csiStorageCapacities());
    createAll(cluster, manifests.persistentVolumes());
    createAll(cluster, manifests.persistentVolumeClaims());
    createAll(cluster, expansion.persistentVolumeClaims());
    createAll(cluster, manifests.draObjects());
    VolumeControllers volumeControllers = new VolumeControllers(cluster);
    volumeControllers.syncAll();
    cluster.addListener(volumeControllers);
    for (Map<String, Object> o : manifests.customObjects()) {
      cluster.createCustomObject(o);
    }
    for (V1Node n : manifests.nodes()) {
      cluster.addNode(n);
    }
    cluster.addListener(new ResourceClaimController(cluster));
    List<V1Pod> all = new ArrayList<>(manifests.pods());
    all.addAll(expansion.pods());
    List<String> pending = new ArrayList<>();
    Map<String, SimulationReport.PodResult> rejected = new LinkedHashMap<>();
    Set<String> profiles = new LinkedHashSet<>();
    configuration.profiles().forEach(pr -> profiles.add(pr.schedulerName()));
    List<V1Pod> unassigned = new ArrayList<>();
    List<String> bound = new ArrayList<>();
    Set<String> nodeNames = new LinkedHashSet<>();
    manifests.nodes().forEach(n -> nodeNames.add(n.getMetadata().getName()));
    Map<V1Pod, Duration> createLater = new LinkedHashMap<>();
    Map<V1Pod, Duration> deleteLater = new LinkedHashMap<>();
    for (V1Pod p : all) {
      if (p.getMetadata().getNamespace() == null || p.getMetadata().getNamespace().isEmpty()) {
        p.getMetadata().setNamespace("default");
      }
      if (isTerminal(p)) {
        // kube-scheduler's pod informer does not see Succeeded and Failed pods
        continue;
      }
      if (!scripted(p, createLater, deleteLater, rejected)) {
        continue;
      }
      if (createLater.containsKey(p)) {
        continue;
      }
      if (p.getSpec() != null
          && p.getSpec().getNodeName() != null
          && !p.getSpec().getNodeName().isEmpty()) {
        String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
        if (!nodeNames.contains(p.getSpec().getNodeName())) {
          manifests
              .warnings()
              .add(
                  "pod "
                      + key
                      + " is bound to node \""
                      + p.getSpec().getNodeName()
                      + "\", which is not in the input: it takes no room on any node of the"
                      + " simulation");
        }
        if (addPod(cluster, p, rejected)) {
          bound.add(key);
        }
      } else {
        unassigned.add(p);
      }
    }
    TraceRecorder trace = new TraceRecorder(explainPod);
    Scheduler.Builder builder =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(configuration)
            .registry(registry)
            .clock(time.clock())
            .simulatedTime(time)
            .random(new Random(seed))
            .attemptListener(progressReporting(trace))
            .featureGates(featureGates);
    Scheduler built;
    try {
      built = builder.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new SimulationSetupException(e.getMessage(), e);
    }
    try (Scheduler scheduler = built) {
      scheduler.start();
      for (V1Pod p : unassigned) {
        String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
        pending.add(key);
        if (!addPod(cluster, p, rejected)) {
          continue;
        }
        String schedulerName =
            p.getSpec() == null || p.getSpec().getSchedulerName() == null
                ? SchedulerConstants.DEFAULT_SCHEDULER_NAME
                : p.getSpec().getSchedulerName();
        if (!profiles.contains(schedulerName)) {
          rejected.put(
              key,
              new SimulationReport.PodResult(
                  p.getMetadata().getNamespace(),
                  p.getMetadata().getName(),
                  null,
                  "Unschedulable",
                  "not scheduled: no profile of the configuration has schedulerName \""
                      + schedulerName
                      + "\"",
                  null));
        }
      }
      createLater.forEach(
          (p, d) ->
              time.scheduler()
                  .schedule(
                      () -> {
                        if (p.getSpec() == null || p.getSpec().getNodeName() == null) {
                          pending.add(
                              p.getMetadata().getNamespace() + "/" + p.getMetadata().getName());
                        }
                        addPod(cluster, p, rejected);
                      },
                      d.toNanos(),
                      TimeUnit.NANOSECONDS));
      deleteLater.forEach(
          (p, d) ->
              time.scheduler()
                  .schedule(
                      () -> deleteAndRecreate(cluster, p, pending, rejected),
                      d.toNanos(),
                      TimeUnit.NANOSECONDS));
      total = pending.size();
      if (total > PROGRESS_THRESHOLD) {
        progress.accept(
            "simulating " + total + " pods on " + manifests.nodes().size() + " nodes...");
      }
      scheduler.runUntilIdle();
      if (total > PROGRESS_THRESHOLD) {
        progress.accept("done after " + attempts + " scheduling attempts");
      }
      return report(cluster, scheduler, pending, bound, rejected, trace);
    }
  }

  /**
   * Reads the {@link ScriptedEvents} annotations of {@code p} into the maps; a pod with an invalid
   * one is refused (reported as an Error with a warning) and {@code false} returned.
   */
  private boolean scripted(
      V1Pod p,
      Map<V1Pod, Duration> createLater,
      Map<V1Pod, Duration> deleteLater,
      Map<String, SimulationReport.PodResult> rejected) {
    Duration create;
    Duration delete;
    try {
      create = ScriptedEvents.delay(p, ScriptedEvents.CREATE_AFTER);
      delete = ScriptedEvents.delay(p, ScriptedEvents.DELETE_AFTER);
    } catch (IllegalArgumentException e) {
      String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
      String message = "Pod \"" + p.getMetadata().getName() + "\" is invalid: " + e.getMessage();
      rejected.put(
          key,
          new SimulationReport.PodResult(
              p.getMetadata().getNamespace(),
              p.getMetadata().getName(),
              null,
              "Error",
              message,
              null));
      manifests.warnings().add("pod " + key + " was refused: " + message);
      return false;
    }
    if (create != null) {
      createLater.put(p, create);
    }
    if (delete != null) {
      deleteLater.put(p, delete);
    }
    return true;
  }

  /** Deletes {@code p} if it still exists and creates the replacement its controller would. */
  private void deleteAndRecreate(
      InMemoryCluster cluster,
      V1Pod p,
      List<String> pending,
      Map<String, SimulationReport.PodResult> rejected) {
    V1Pod current =
        cluster.getPod(p.getMetadata().getNamespace(), p.getMetadata().getName()).orElse(null);
    if (current == null) {
      return;
    }
    cluster.deletePod(current);
    String deletedKey = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    if (pending.contains(deletedKey)) {
      String node = current.getSpec() == null ? null : current.getSpec().getNodeName();
      rejected.put(
          deletedKey,
          new SimulationReport.PodResult(
              p.getMetadata().getNamespace(),
              p.getMetadata().getName(),
              null,
              "Error",
              "pod was deleted ("
                  + ScriptedEvents.DELETE_AFTER
                  + ": "
                  + p.getMetadata().getAnnotations().get(ScriptedEvents.DELETE_AFTER)
                  + (node == null || node.isEmpty() ? "" : ", it ran on " + node)
                  + ")",
              null));
    }
    V1Pod replacement = ScriptedEvents.replacement(current);
    if (replacement != null) {
      String key =
          replacement.getMetadata().getNamespace() + "/" + replacement.getMetadata().getName();
      if (!pending.contains(key)) {
        pending.add(key);
      }
      addPod(cluster, replacement, rejected);
    }
  }

  /** Thrown when the scheduler cannot be built from the configuration (a profile is invalid). */
  public static final class SimulationSetupException extends RuntimeException {
    SimulationSetupException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static boolean isTerminal(V1Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /**
   * Creates {@code p} in the cluster; a pod the API server would refuse (an unknown PriorityClass,
   * say) is reported as an Error with the API server's message.
   */
  private boolean addPod(
      InMemoryCluster cluster, V1Pod p, Map<String, SimulationReport.PodResult> rejected) {
    try {
      ResourceClaimController.createClaims(cluster, p);
      cluster.addPod(p);
      return true;
    } catch (RuntimeException e) {
      String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
      rejected.put(
          key,
          new SimulationReport.PodResult(
              p.getMetadata().getNamespace(),
              p.getMetadata().getName(),
              null,
              "Error",
              e.getMessage(),
              null));
      manifests.warnings().add("pod " + key + " was refused: " + e.getMessage());
      return false;
    }
  }

  private static <T extends KubernetesObject> void createAll(
      InMemoryCluster cluster, List<T> objects) {
    for (T o : objects) {
      if (o.getMetadata() != null
          && o.getMetadata().getNamespace() == null
          && !(o instanceof io.kubernetes.client.openapi.models.V1Namespace)
          && !(o instanceof io.kubernetes.client.openapi.models.V1PriorityClass)
          && !(o instanceof io.kubernetes.client.openapi.models.V1DeviceClass)
          && !(o instanceof io.kubernetes.client.openapi.models.V1ResourceSlice)) {
        o.getMetadata().setNamespace("default");
      }
      cluster.create(o);
    }
  }

  private SimulationReport report(
      InMemoryCluster cluster,
      Scheduler scheduler,
      List<String> pending,
      List<String> bound,
      Map<String, SimulationReport.PodResult> rejected,
      TraceRecorder trace) {
    List<SimulationReport.PodResult> pods = new ArrayList<>();
    Set<String> waiting = new LinkedHashSet<>();
    scheduler.waitingPods().iterate(w -> waiting.add(w.pod().key()));
    for (String key : pending) {
      SimulationReport.PodResult refused = rejected.get(key);
      if (refused != null) {
        pods.add(refused);
        continue;
      }
      int slash = key.indexOf('/');
      String ns = key.substring(0, slash);
      String name = key.substring(slash + 1);
      V1Pod pod = cluster.getPod(ns, name).orElse(null);
      if (pod == null) {
        pods.add(new SimulationReport.PodResult(ns, name, null, "Error", "pod was deleted", null));
        continue;
      }
      String node = pod.getSpec().getNodeName();
      String nominated = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
      if (nominated != null && nominated.isEmpty()) {
        nominated = null;
      }
      if (node != null && !node.isEmpty()) {
        pods.add(new SimulationReport.PodResult(ns, name, node, "Scheduled", null, null));
        continue;
      }
      V1PodCondition cond = scheduledCondition(pod);
      String status;
      String message = cond == null ? null : cond.getMessage();
      if (message == null
          && featureGates != null
          && featureGates.enabled(
              io.kubesched.framework.FeatureGates.DYNAMIC_RESOURCE_ALLOCATION)) {
        // held back by DynamicResources' PreEnqueue: say which claim is missing
        message =
            io.kubesched.plugins.dynamicresources.DynamicResources.claimProblem(cluster, pod)
                .orElse(null);
      }
      if (waiting.contains(key)) {
        status = "Waiting";
      } else if (pod.getSpec().getSchedulingGates() != null
          && !pod.getSpec().getSchedulingGates().isEmpty()) {
        status = "SchedulingGated";
      } else if (cond != null && "SchedulerError".equals(cond.getReason())) {
        status = "Error";
      } else {
        status = "Unschedulable";
      }
      pods.add(new SimulationReport.PodResult(ns, name, null, status, message, nominated));
    }
    List<SimulationReport.NodeResult> nodes = new ArrayList<>();
    Map<String, List<PodInfo>> byNode = new LinkedHashMap<>();
    for (V1Node n : cluster.listNodes()) {
      byNode.put(n.getMetadata().getName(), new ArrayList<>());
    }
    for (V1Pod p : cluster.listPods()) {
      if (isTerminal(p)) {
        continue;
      }
      String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
      if (node != null && byNode.containsKey(node)) {
        byNode.get(node).add(PodInfo.of(p));
      }
    }
    for (V1Node n : cluster.listNodes()) {
      String name = n.getMetadata().getName();
      Resource alloc =
          n.getStatus() == null ? Resource.zero() : Resource.of(n.getStatus().getAllocatable());
      Resource.Builder req = Resource.builder();
      List<String> podKeys = new ArrayList<>();
      for (PodInfo p : byNode.get(name)) {
        req.add(p.requests());
        podKeys.add(p.key());
      }
      Resource requested = req.build();
      Map<String, String> allocatable = new LinkedHashMap<>();
      allocatable.put("cpu", Quantities.format(ResourceNames.CPU, alloc.milliCpu()));
      allocatable.put("memory", Quantities.format(ResourceNames.MEMORY, alloc.memory()));
      allocatable.put("pods", Long.toString(alloc.allowedPodNumber()));
      alloc.scalarResources().forEach((k, v) -> allocatable.put(k, Quantities.format(k, v)));
      Map<String, String> used = new LinkedHashMap<>();
      used.put("cpu", Quantities.format(ResourceNames.CPU, requested.milliCpu()));
      used.put("memory", Quantities.format(ResourceNames.MEMORY, requested.memory()));
      requested.scalarResources().forEach((k, v) -> used.put(k, Quantities.format(k, v)));
      nodes.add(
          new SimulationReport.NodeResult(
              name,
              podKeys,
              allocatable,
              used,
              percent(requested.milliCpu(), alloc.milliCpu()),
              percent(requested.memory(), alloc.memory())));
    }
    List<String> evicted = new ArrayList<>();
    Map<String, String> preemptedBy = new LinkedHashMap<>();
    for (CoreEvent e : cluster.events()) {
      if ("Preempted".equals(e.reason())) {
        String key = e.regardingNamespace() + "/" + e.regardingName();
        evicted.add(key);
        preemptedBy.put(key, e.message());
      }
    }
    List<SimulationReport.PodResult> existing = new ArrayList<>();
    for (String key : bound) {
      int slash = key.indexOf('/');
      String ns = key.substring(0, slash);
      String name = key.substring(slash + 1);
      V1Pod pod = cluster.getPod(ns, name).orElse(null);
      if (pod != null) {
        existing.add(
            new SimulationReport.PodResult(
                ns, name, pod.getSpec().getNodeName(), "Bound", null, null));
      } else {
        existing.add(
            new SimulationReport.PodResult(
                ns, name, null, "Evicted", preemptedBy.getOrDefault(key, "pod was deleted"), null));
      }
    }
    List<SimulationReport.ClaimResult> claims = new ArrayList<>();
    for (var c : cluster.listPersistentVolumeClaims(null)) {
      claims.add(
          new SimulationReport.ClaimResult(
              c.getMetadata().getNamespace(),
              c.getMetadata().getName(),
              c.getSpec() == null ? null : c.getSpec().getVolumeName(),
              c.getStatus() == null ? null : c.getStatus().getPhase()));
    }
    return new SimulationReport(
        pods,
        nodes,
        evicted,
        trace.explain(),
        manifests.warnings(),
        existing,
        claims,
        claimResults(cluster));
  }

  private static double percent(long used, long total) {
    return total <= 0 ? 0 : 100.0 * used / total;
  }

  private static V1PodCondition scheduledCondition(V1Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    for (V1PodCondition c : pod.getStatus().getConditions()) {
      if (SchedulerConstants.POD_SCHEDULED.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  private static List<SimulationReport.ResourceClaimResult> claimResults(InMemoryCluster cluster) {
    List<SimulationReport.ResourceClaimResult> out = new ArrayList<>();
    for (io.kubernetes.client.openapi.models.ResourceV1ResourceClaim c :
        cluster.listResourceClaims(null)) {
      List<String> devices = new ArrayList<>();
      List<String> reservedFor = new ArrayList<>();
      var status = c.getStatus();
      if (status != null
          && status.getAllocation() != null
          && status.getAllocation().getDevices() != null
          && status.getAllocation().getDevices().getResults() != null) {
        for (var r : status.getAllocation().getDevices().getResults()) {
          devices.add(
              r.getRequest() + ": " + r.getDriver() + "/" + r.getPool() + "/" + r.getDevice());
        }
      }
      if (status != null && status.getReservedFor() != null) {
        for (var r : status.getReservedFor()) {
          reservedFor.add(c.getMetadata().getNamespace() + "/" + r.getName());
        }
      }
      out.add(
          new SimulationReport.ResourceClaimResult(
              c.getMetadata().getNamespace(), c.getMetadata().getName(), devices, reservedFor));
    }
    return out;
  }
}
