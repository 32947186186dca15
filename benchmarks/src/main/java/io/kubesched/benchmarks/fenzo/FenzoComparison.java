package io.kubesched.benchmarks.fenzo;

import com.netflix.fenzo.ConstraintEvaluator;
import com.netflix.fenzo.SchedulingResult;
import com.netflix.fenzo.TaskAssignmentResult;
import com.netflix.fenzo.TaskRequest;
import com.netflix.fenzo.TaskScheduler;
import com.netflix.fenzo.VMAssignmentResult;
import com.netflix.fenzo.VMTaskFitnessCalculator;
import com.netflix.fenzo.VirtualMachineLease;
import com.netflix.fenzo.plugins.BinPackingFitnessCalculators;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubesched.benchmarks.workload.Templates;
import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.mesos.Protos;

/**
 * The {@code fenzo} sub-command: Netflix Fenzo 1.0.1 and kubesched side by side in one JVM on a
 * resource-only workload, {@code --tasks N} tasks (100m CPU, 500 MiB) onto {@code --hosts M} hosts
 * (4 CPU, 32 GiB), one thread each. Fenzo gets the tasks in {@code scheduleOnce} batches of {@code
 * --batch B} with the {@code cpuMemBinPacker} fitness (a full best-fit scan of every host); after
 * each batch the used hosts are offered again with what is left, as Mesos would. kubesched runs its
 * real {@link Scheduler} with the default profile, the pods queued before the clock starts and
 * binding on the scheduling thread, once with {@code percentageOfNodesToScore: 100} (a full scan,
 * the fair comparison) and once with the default (adaptive sampling).
 *
 * <p>Fenzo sizes its evaluation pool by {@code Runtime.availableProcessors()}; unless {@code
 * --any-cpus} is given, the command re-launches itself with {@code -XX:ActiveProcessorCount=1} so
 * that Fenzo uses one thread too.
 */
public final class FenzoComparison {
  private FenzoComparison() {}

  /** Runs the comparison and returns the exit code. */
  public static int run(String[] args, PrintStream out) throws IOException, InterruptedException {
    int tasks = 10_000;
    int hosts = 5_000;
    int batch = 1_000;
    boolean anyCpus = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--tasks" -> tasks = Integer.parseInt(args[++i]);
        case "--hosts" -> hosts = Integer.parseInt(args[++i]);
        case "--batch" -> batch = Integer.parseInt(args[++i]);
        case "--any-cpus" -> anyCpus = true;
        default -> {
          out.println("unknown option " + args[i]);
          return 2;
        }
      }
    }
    if (!anyCpus && Runtime.getRuntime().availableProcessors() > 1) {
      return relaunch(args);
    }
    out.printf(
        Locale.ROOT,
        "tasks=%d hosts=%d fenzoBatch=%d availableProcessors=%d%n",
        tasks,
        hosts,
        batch,
        Runtime.getRuntime().availableProcessors());
    // Warm-up, a tenth of the size, so that both sides are JIT-compiled.
    int wt = Math.max(100, tasks / 10);
    fenzo(wt, hosts, Math.min(batch, wt));
    kubesched(wt, hosts, 100);
    kubesched(wt, hosts, null);

    double f = fenzo(tasks, hosts, batch);
    double full = kubesched(tasks, hosts, 100);
    double sampled = kubesched(tasks, hosts, null);
    out.printf(Locale.ROOT, "%-44s %12s %8s%n", "scheduler", "tasks/s", "ratio");
    out.printf(
        Locale.ROOT,
        "%-44s %12.0f %8s%n",
        "fenzo 1.0.1 cpuMemBinPacker, batch " + batch,
        f,
        "1.00");
    out.printf(
        Locale.ROOT,
        "%-44s %12.0f %8.2f%n",
        "kubesched percentageOfNodesToScore=100",
        full,
        full / f);
    out.printf(
        Locale.ROOT, "%-44s %12.0f %8.2f%n", "kubesched default (adaptive)", sampled, sampled / f);
    return 0;
  }

  private static int relaunch(String[] args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      cmd.add(a);
    }
    cmd.add("-XX:ActiveProcessorCount=1");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.kubesched.benchmarks.Main");
    cmd.add("fenzo");
    cmd.addAll(List.of(args));
    cmd.add("--any-cpus");
    return new ProcessBuilder(cmd).inheritIO().start().waitFor();
  }

  // ------------------------------------------------------------------ Fenzo

  /** Returns Fenzo's tasks per second. */
  static double fenzo(int n, int m, int batch) {
    TaskScheduler scheduler =
        new TaskScheduler.Builder()
            .withLeaseOfferExpirySecs(1_000_000)
            .withLeaseRejectAction(lease -> {})
            .withFitnessCalculator(BinPackingFitnessCalculators.cpuMemBinPacker)
            .disableShortfallEvaluation()
            .build();
    List<TaskRequest> all = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      all.add(new Task("task-" + i, 0.1, 500));
    }
    List<VirtualMachineLease> leases = new ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      leases.add(new Lease("host-" + i, 4, 32 * 1024, 0));
    }
    Map<String, Integer> perHost = new HashMap<>();
    java.util.ArrayDeque<TaskRequest> pending = new java.util.ArrayDeque<>(all);
    long start = System.nanoTime();
    int assigned = 0;
    int idleRounds = 0;
    while (!pending.isEmpty() && idleRounds < 3) {
      List<TaskRequest> chunk = new ArrayList<>(batch);
      while (chunk.size() < batch && !pending.isEmpty()) {
        chunk.add(pending.poll());
      }
      SchedulingResult result = scheduler.scheduleOnce(chunk, leases);
      leases = new ArrayList<>();
      java.util.Set<String> done = new java.util.HashSet<>();
      for (VMAssignmentResult r : result.getResultMap().values()) {
        double cpu = 0;
        double mem = 0;
        for (VirtualMachineLease l : r.getLeasesUsed()) {
          cpu += l.cpuCores();
          mem += l.memoryMB();
        }
        for (TaskAssignmentResult t : r.getTasksAssigned()) {
          scheduler.getTaskAssigner().call(t.getRequest(), r.getHostname());
          cpu -= t.getRequest().getCPUs();
          mem -= t.getRequest().getMemory();
          done.add(t.getTaskId());
          perHost.merge(r.getHostname(), 1, Integer::sum);
        }
        // The rest of the host is offered again, as Mesos re-offers unused resources.
        leases.add(new Lease(r.getHostname(), cpu, mem, System.nanoTime()));
      }
      assigned += done.size();
      idleRounds = done.isEmpty() ? idleRounds + 1 : 0;
      for (int i = chunk.size() - 1; i >= 0; i--) {
        if (!done.contains(chunk.get(i).getId())) {
          pending.addFirst(chunk.get(i));
        }
      }
    }
    long nanos = System.nanoTime() - start;
    scheduler.shutdown();
    if (assigned != n) {
      throw new IllegalStateException("fenzo assigned " + assigned + " of " + n + " tasks");
    }
    for (int c : perHost.values()) {
      if (c * 0.1 > 4.0 + 1e-9) {
        throw new IllegalStateException("fenzo over-committed a host: " + c + " tasks");
      }
    }
    return n / (nanos / 1e9);
  }

  private record Task(String id, double cpus, double memory) implements TaskRequest {
    @Override
    public String getId() {
      return id;
    }

    @Override
    public String taskGroupName() {
      return "bench";
    }

    @Override
    public double getCPUs() {
      return cpus;
    }

    @Override
    public double getMemory() {
      return memory;
    }

    @Override
    public double getNetworkMbps() {
      return 0;
    }

    @Override
    public double getDisk() {
      return 0;
    }

    @Override
    public int getPorts() {
      return 0;
    }

    @Override
    public Map<String, Double> getScalarRequests() {
      return null;
    }

    @Override
    public Map<String, NamedResourceSetRequest> getCustomNamedResources() {
      return null;
    }

    @Override
    public List<? extends ConstraintEvaluator> getHardConstraints() {
      return null;
    }

    @Override
    public List<? extends VMTaskFitnessCalculator> getSoftConstraints() {
      return null;
    }

    @Override
    public void setAssignedResources(AssignedResources assignedResources) {}

    @Override
    public AssignedResources getAssignedResources() {
      return null;
    }
  }

  private static final AtomicInteger LEASE_IDS = new AtomicInteger();

  private record Lease(String host, double cpus, double memory, long offered, String id)
      implements VirtualMachineLease {
    Lease(String host, double cpus, double memory, long offered) {
      this(host, cpus, memory, offered, host + "-" + LEASE_IDS.incrementAndGet());
    }

    @Override
    public String getId() {
      return id;
    }

    @Override
    public long getOfferedTime() {
      return offered;
    }

    @Override
    public String hostname() {
      return host;
    }

    @Override
    public String getVMID() {
      return host;
    }

    @Override
    public double cpuCores() {
      return cpus;
    }

    @Override
    public double memoryMB() {
      return memory;
    }

    @Override
    public double networkMbps() {
      return 1000;
    }

    @Override
    public double diskMB() {
      return 100_000;
    }

    @Override
    public List<Range> portRanges() {
      return List.of();
    }

    @Override
    public Protos.Offer getOffer() {
      return null;
    }

    @Override
    public Map<String, Protos.Attribute> getAttributeMap() {
      return java.util.Collections.emptyMap();
    }

    @Override
    public Double getScalarValue(String name) {
      return null;
    }

    @Override
    public Map<String, Double> getScalarValues() {
      return java.util.Collections.emptyMap();
    }
  }

  // ------------------------------------------------------------------ kubesched

  /** Returns kubesched's pods per second; {@code pct} null keeps the adaptive default. */
  static double kubesched(int n, int m, Integer pct) {
    InMemoryCluster cluster = new InMemoryCluster();
    for (int i = 0; i < m; i++) {
      cluster.addNode(Templates.node(i, Templates.NodeLabels.NONE));
    }
    Map<String, Quantity> req =
        Map.of("cpu", Quantity.fromString("100m"), "memory", Quantity.fromString("500Mi"));
    for (int i = 0; i < n; i++) {
      cluster.addPod(
          new V1Pod()
              .metadata(new V1ObjectMeta().namespace("default").name("task-" + i).uid("task-" + i))
              .spec(
                  new V1PodSpec()
                      .addContainersItem(
                          new V1Container()
                              .name("c")
                              .image("pause")
                              .resources(new V1ResourceRequirements().requests(req)))));
    }
    AtomicInteger bound = new AtomicInteger();
    cluster.addListener(
        new ClusterListener() {
          @Override
          public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
            if (oldPod.getSpec().getNodeName() == null && pod.getSpec().getNodeName() != null) {
              bound.incrementAndGet();
            }
          }
        });
    PluginRegistry registry = PluginRegistry.discover();
    KubeSchedulerConfiguration config =
        pct == null
            ? ConfigurationLoader.defaults(registry)
            : ConfigurationLoader.parse(
                "apiVersion: kubescheduler.config.k8s.io/v1\n"
                    + "kind: KubeSchedulerConfiguration\n"
                    + "percentageOfNodesToScore: "
                    + pct
                    + "\n",
                registry);
    try (Scheduler scheduler =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(config)
            .registry(registry)
            .bindingExecutor(Runnable::run)
            .build()) {
      scheduler.start();
      long start = System.nanoTime();
      scheduler.startSchedulingLoop();
      while (bound.get() < n) {
        if (System.nanoTime() - start > 600_000_000_000L) {
          throw new IllegalStateException("kubesched bound " + bound.get() + " of " + n);
        }
        LockSupport.parkNanos(200_000L);
      }
      long nanos = System.nanoTime() - start;
      return n / (nanos / 1e9);
    }
  }
}
