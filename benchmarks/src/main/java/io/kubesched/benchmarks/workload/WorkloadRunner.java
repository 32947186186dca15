package io.kubesched.benchmarks.workload;

import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FeatureGates;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * Runs a {@link Workload} through the real engine: a {@link Scheduler} with the default profile
 * ({@code ConfigurationLoader.defaults}, optionally with {@code percentageOfNodesToScore} and
 * {@code parallelism} set) on an {@link InMemoryCluster}, on the real clock.
 *
 * <p>How the scheduler runs: its own scheduling loop thread pops pods ({@link
 * Scheduler#startSchedulingLoop()}); binding cycles run on one dedicated binding thread (kube binds
 * in a goroutine per pod; in memory a bind takes microseconds, so one thread keeps up and leaves
 * the other core to the scheduling loop); with {@code threads > 1} Filter and Score run on a pool
 * of that many workers with that parallelism, else on the scheduling thread itself. Timers (backoff
 * flushes) are the scheduler's own daemon thread.
 *
 * <p>Sequence, as scheduler_perf: create the nodes; create the initial pods and wait until the
 * scheduler has bound them all; then (clock started) create the measured pods and wait until the
 * last one is bound, sampling the number of bound measured pods every second; a churn workload
 * creates one churn pod per interval meanwhile. Finally the cluster's state is verified.
 */
public final class WorkloadRunner {
  /**
   * The run's settings.
   *
   * @param threads the Filter/Score parallelism; 1 runs them on the scheduling thread
   * @param pctToScore percentageOfNodesToScore; {@code null} keeps kube's adaptive default
   * @param timeout the longest wait for a phase (initial pods, measured pods)
   * @param featureGates the scheduler's feature gates (e.g. {@code OpportunisticBatching})
   */
  public record Options(
      int threads, Integer pctToScore, Duration timeout, FeatureGates featureGates) {
    /** Options with the default feature gates. */
    public Options(int threads, Integer pctToScore, Duration timeout) {
      this(threads, pctToScore, timeout, FeatureGates.defaults());
    }

    /** The defaults: one thread, adaptive percentage, 10 minutes, default gates. */
    public static Options defaults() {
      return new Options(1, null, Duration.ofMinutes(10));
    }
  }

  private WorkloadRunner() {}

  /** Runs {@code w} and returns its figures and verification. */
  public static WorkloadResult run(Workload w, Options o) {
    System.gc();
    List<MemoryPoolMXBean> heapPools = new ArrayList<>();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        heapPools.add(p);
        p.resetPeakUsage();
      }
    }
    ManagementFactory.getThreadMXBean().resetPeakThreadCount();

    InMemoryCluster cluster = new InMemoryCluster();
    for (String ns : List.of("sched-0", "sched-1")) {
      cluster.create(new V1Namespace().metadata(new V1ObjectMeta().name(ns)));
    }
    WorkloadObjects.createNodes(cluster, w);
    BindCounter counter = new BindCounter();
    cluster.addListener(counter);

    FeatureGates gates = gates(w, o.featureGates());
    PluginRegistry registry = PluginRegistry.discover();
    KubeSchedulerConfiguration config = configuration(registry, o, gates);
    AttemptRecorder attempts = new AttemptRecorder();
    ExecutorService binding = Executors.newSingleThreadExecutor(daemon("bench-binding"));
    ExecutorService workers =
        o.threads() > 1 ? Executors.newFixedThreadPool(o.threads(), daemon("bench-worker")) : null;
    ScheduledExecutorService sampler =
        Executors.newSingleThreadScheduledExecutor(daemon("bench-sampler"));
    Scheduler.Builder b =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(config)
            .registry(registry)
            .bindingExecutor(binding)
            .featureGates(gates)
            .metrics(attempts);
    if (workers != null) {
      b.workers(workers);
    }
    Scheduler scheduler = b.build();
    List<String> failures = new ArrayList<>();
    long startNanos = 0;
    long endNanos = 0;
    List<Double> samples = new ArrayList<>();
    AtomicInteger churnCreated = new AtomicInteger();
    try {
      scheduler.startSchedulingLoop();
      WorkloadObjects.prepareNamespace(cluster, w, w.initNamespace(), w.initPods());
      for (int i = 0; i < w.initPods(); i++) {
        WorkloadObjects.addPod(
            cluster, w, Templates.pod(w.initKind(), w.initNamespace(), BindCounter.INIT + i), i);
      }
      if (!await(counter.init::get, w.initPods(), o.timeout())) {
        failures.add(
            "only " + counter.init.get() + " of " + w.initPods() + " initial pods were bound");
      }
      if (w.steadyState() != null) {
        WorkloadObjects.createAllocatedClaims(
            cluster,
            w,
            w.initNamespace(),
            w.steadyState().fill().initClaims(w.nodes() * w.devicesPerNode(), w.measuredPods()),
            new Random(1));
      }
      WorkloadObjects.prepareNamespace(cluster, w, w.measuredNamespace(), w.measuredPods());
      List<V1Pod> measured = new ArrayList<>(w.measuredPods());
      for (int i = 0; w.steadyState() == null && i < w.measuredPods(); i++) {
        measured.add(
            Templates.pod(w.measuredKind(), w.measuredNamespace(), BindCounter.MEASURED + i));
      }
      int deletedBefore = counter.deleted.get();
      Map<String, Long> cpuBefore = cpuByRole();
      Map<String, Long> threadsBefore = ThreadCpu.millisByName();
      attempts.start();
      long[] last = {0, 0};
      startNanos = System.nanoTime();
      last[0] = startNanos;
      final long t0 = startNanos;
      sampler.scheduleAtFixedRate(
          () -> {
            long now = System.nanoTime();
            int bound = counter.measured.get();
            synchronized (samples) {
              samples.add((bound - last[1]) / ((now - last[0]) / 1e9));
            }
            last[0] = now;
            last[1] = bound;
          },
          1,
          1,
          TimeUnit.SECONDS);
      if (w.churnKind() != null) {
        sampler.scheduleAtFixedRate(
            () ->
                cluster.addPod(
                    Templates.pod(
                        w.churnKind(),
                        w.measuredNamespace(),
                        BindCounter.CHURN + churnCreated.getAndIncrement())),
            0,
            w.churnInterval().toMillis(),
            TimeUnit.MILLISECONDS);
      }
      for (int i = 0; i < measured.size(); i++) {
        WorkloadObjects.addPod(cluster, w, measured.get(i), i);
        // the cluster stores a copy: the template need not live on through the next collection
        measured.set(i, null);
      }
      measured = null;
      boolean done;
      int measuredCount;
      if (w.steadyState() == null) {
        done = await(counter.measured::get, w.measuredPods(), o.timeout());
        attempts.stop();
        endNanos = done ? counter.lastMeasuredBindNanos.get() : System.nanoTime();
        measuredCount = counter.measured.get();
      } else {
        SteadyRun run = steady(cluster, w, counter, startNanos, o.timeout());
        attempts.stop();
        done = run.lastBatchBound();
        endNanos = run.endNanos();
        measuredCount = run.boundInTime();
        deletedBefore += run.deleted();
      }
      Map<String, Long> cpuAfter = cpuByRole();
      Map<String, Long> threadCpuMs = ThreadCpu.difference(threadsBefore, ThreadCpu.millisByName());
      long cpuAfterNanos = System.nanoTime();
      sampler.shutdownNow();
      sampler.awaitTermination(10, TimeUnit.SECONDS);
      synchronized (samples) {
        long tail = endNanos - last[0];
        if (tail >= 100_000_000L) {
          samples.add((counter.measured.get() - last[1]) / (tail / 1e9));
        }
      }
      if (!done && w.steadyState() != null) {
        failures.add(
            "the last batch of "
                + w.measuredPods()
                + " steady-state pods was not bound within "
                + o.timeout());
      } else if (!done) {
        failures.add(
            "only "
                + counter.measured.get()
                + " of "
                + w.measuredPods()
                + " measured pods were bound within "
                + o.timeout());
      }
      int deleted = counter.deleted.get() - deletedBefore;
      scheduler.close();
      binding.shutdown();
      binding.awaitTermination(10, TimeUnit.SECONDS);
      failures.addAll(Verifier.verify(w, cluster.listNodes(), cluster.listPods()));
      failures.addAll(ObjectVerifier.verify(w, cluster));

      long peak = 0;
      for (MemoryPoolMXBean p : heapPools) {
        peak += p.getPeakUsage().getUsed();
      }
      System.gc();
      long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      // The cluster and the scheduler count as live: they stay reachable until here.
      Reference.reachabilityFence(cluster);
      Reference.reachabilityFence(scheduler);
      int nodes = w.totalNodes();
      double seconds = (endNanos - startNanos) / 1e9;
      double wall = Math.max(1, cpuAfterNanos - startNanos);
      int loopBusy = busy(cpuBefore, cpuAfter, "loop", wall);
      int bindBusy = busy(cpuBefore, cpuAfter, "bind", wall);
      int createBusy = busy(cpuBefore, cpuAfter, "create", wall);
      double[] thr = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      long[] lat = attempts.sorted();
      int pct = o.pctToScore() == null ? 0 : o.pctToScore();
      return new WorkloadResult(
          w.name(),
          nodes,
          w.initPods(),
          w.steadyState() == null ? w.measuredPods() : measuredCount,
          o.threads(),
          pct,
          numFeasibleNodesToFind(pct, w.totalNodes()),
          measuredCount / seconds,
          percentile(thr, 50),
          percentile(thr, 90),
          percentile(thr, 99),
          thr.length,
          percentile(lat, 50) / 1e6,
          percentile(lat, 90) / 1e6,
          percentile(lat, 99) / 1e6,
          lat.length,
          peak >> 20,
          live >> 20,
          ManagementFactory.getThreadMXBean().getPeakThreadCount(),
          seconds,
          deleted,
          loopBusy,
          bindBusy,
          createBusy,
          threadCpuMs,
          List.copyOf(failures));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } finally {
      sampler.shutdownNow();
      scheduler.close();
      binding.shutdownNow();
      if (workers != null) {
        workers.shutdownNow();
      }
    }
  }

  /**
   * What a steady-state measurement did.
   *
   * @param boundInTime the measured pods bound before the duration ended
   * @param endNanos when the duration ended
   * @param lastBatchBound whether the batch in flight at the end got bound afterwards
   * @param deleted the pods the measurement deleted itself
   */
  private record SteadyRun(int boundInTime, long endNanos, boolean lastBatchBound, int deleted) {}

  /**
   * Upstream's steady-state {@code createPods}: creates a batch of {@code measuredPods} pods, waits
   * until all are bound, deletes them with their claims and starts again, until the workload's
   * duration has passed since {@code startNanos}; then lets the batch in flight finish (within
   * {@code timeout}) so that the end state can be verified.
   */
  private static SteadyRun steady(
      InMemoryCluster cluster, Workload w, BindCounter counter, long startNanos, Duration timeout)
      throws InterruptedException {
    int batch = w.measuredPods();
    long deadline = startNanos + w.steadyState().duration().toNanos();
    int created = 0;
    int deleted = 0;
    while (true) {
      List<V1Pod> pods = new ArrayList<>(batch);
      for (int i = 0; i < batch; i++) {
        V1Pod p =
            Templates.pod(w.measuredKind(), w.measuredNamespace(), BindCounter.MEASURED + created);
        WorkloadObjects.addPod(cluster, w, p, created++);
        pods.add(p);
      }
      if (!counter.awaitMeasured(created, deadline)) {
        int boundInTime = counter.measured.get();
        boolean last = counter.awaitMeasured(created, System.nanoTime() + timeout.toNanos());
        return new SteadyRun(boundInTime, deadline, last, deleted);
      }
      for (V1Pod p : pods) {
        WorkloadObjects.deletePodAndClaims(cluster, p);
        deleted++;
      }
    }
  }

  /**
   * Returns {@code base} with the gates the workload needs ({@code DynamicResourceAllocation} for
   * DRA workloads, as upstream's {@code featureGates} of those test cases) set over it.
   */
  static FeatureGates gates(Workload w, FeatureGates base) {
    if (!w.setup().dra()) {
      return base;
    }
    Map<String, Boolean> explicit = new LinkedHashMap<>(base.explicit());
    explicit.put(FeatureGates.DYNAMIC_RESOURCE_ALLOCATION, true);
    return FeatureGates.of(explicit);
  }

  private static KubeSchedulerConfiguration configuration(
      PluginRegistry registry, Options o, FeatureGates gates) {
    if (o.pctToScore() == null && o.threads() <= 1) {
      return ConfigurationLoader.defaults(registry, gates);
    }
    StringBuilder yaml =
        new StringBuilder(
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
    if (o.pctToScore() != null) {
      yaml.append("percentageOfNodesToScore: ").append(o.pctToScore()).append('\n');
    }
    if (o.threads() > 1) {
      yaml.append("parallelism: ").append(o.threads()).append('\n');
    }
    return ConfigurationLoader.parse(yaml.toString(), "<workload>", registry, gates);
  }

  /** kube's {@code numFeasibleNodesToFind} with the default minimum of 100 nodes. */
  static int numFeasibleNodesToFind(int pct, int numAllNodes) {
    if (numAllNodes < 100 || pct >= 100) {
      return numAllNodes;
    }
    int p = pct;
    if (p <= 0) {
      p = Math.max(5, 50 - numAllNodes / 125);
    }
    return Math.max(100, numAllNodes * p / 100);
  }

  /**
   * Returns the CPU time (ns) used so far by the scheduling loop ({@code loop}), the binding thread
   * ({@code bind}) and this thread, which creates the pods ({@code create}).
   */
  private static Map<String, Long> cpuByRole() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Map<String, Long> out = new HashMap<>();
    out.put("create", mx.getCurrentThreadCpuTime());
    for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (t == null) {
        continue;
      }
      String role =
          t.getThreadName().startsWith("kubesched-scheduler")
              ? "loop"
              : t.getThreadName().startsWith("bench-binding") ? "bind" : null;
      if (role != null) {
        out.merge(role, Math.max(0, mx.getThreadCpuTime(t.getThreadId())), Long::sum);
      }
    }
    return out;
  }

  /** Returns the percentage of {@code wallNanos} the role's thread spent on a CPU. */
  private static int busy(
      Map<String, Long> before, Map<String, Long> after, String role, double wallNanos) {
    long used = after.getOrDefault(role, 0L) - before.getOrDefault(role, 0L);
    return (int) Math.round(100.0 * used / wallNanos);
  }

  private static boolean await(IntSupplier value, int target, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (value.getAsInt() < target) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      LockSupport.parkNanos(1_000_000L);
    }
    return true;
  }

  /** Returns the {@code p}th percentile (nearest rank) of sorted values, 0 when empty. */
  static double percentile(double[] sorted, int p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  static double percentile(long[] sorted, int p) {
    return percentile(Arrays.stream(sorted).asDoubleStream().toArray(), p);
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
