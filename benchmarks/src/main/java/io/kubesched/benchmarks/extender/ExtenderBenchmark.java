package io.kubesched.benchmarks.extender;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.benchmarks.ClusterFixtures;
import io.kubesched.benchmarks.DefaultProfile;
import io.kubesched.cli.extender.ExtenderServer;
import io.kubesched.cli.extender.HttpLimits;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.extender.ExtenderWire;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code extender} sub-command: {@code kubesched extender}'s server (in this JVM, on the
 * loopback) answering filter + prioritize for one pod over {@code --nodes N} nodes, from {@code
 * --clients C} concurrent HTTP clients, once with {@code NodeNames} (node-cache-capable) and once
 * with full {@code Nodes}; side by side, the same profile's in-process PreFilter + Filter +
 * PreScore + Score of the same pod over the same nodes, on one thread. Then a saturation run: twice
 * the clients against a server with half the workers, where every request must get 200 or 503 (no
 * connection error, no other status).
 *
 * <p>Reported per mode: pairs (filter + prioritize) per second, p50/p99 latency of one pair, and
 * the bytes the server's connection threads allocated per pair (their {@code
 * getThreadAllocatedBytes}).
 */
public final class ExtenderBenchmark {
  private ExtenderBenchmark() {}

  /** Runs the benchmark and returns the exit code. */
  public static int run(String[] args, PrintStream out) throws Exception {
    int nodes = 5_000;
    int clients = 8;
    int seconds = 20;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--nodes" -> nodes = Integer.parseInt(args[++i]);
        case "--clients" -> clients = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        default -> {
          out.println("unknown option " + args[i]);
          return 2;
        }
      }
    }
    List<V1Node> all = ClusterFixtures.nodes(nodes);
    V1Pod pod = ClusterFixtures.pod("default", "bench");
    out.printf(
        Locale.ROOT,
        "nodes=%d clients=%d seconds=%d availableProcessors=%d maxHeap=%dMiB%n",
        nodes,
        clients,
        seconds,
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20);

    double inProcess = inProcess(all, pod, seconds / 2);
    out.printf(Locale.ROOT, "in-process Filter+Score: %.1f pods/s (1 thread)%n", inProcess);

    InMemoryCluster cluster = new InMemoryCluster();
    all.forEach(cluster::addNode);
    PluginRegistry registry = PluginRegistry.discover();
    List<String> names = all.stream().map(n -> n.getMetadata().getName()).toList();
    String byName = ExtenderWire.encode(new ExtenderWire.ExtenderArgs(pod, null, names));
    String whole = ExtenderWire.encode(new ExtenderWire.ExtenderArgs(pod, all, null));
    out.printf(
        Locale.ROOT,
        "request bodies: NodeNames %d KiB, Nodes %d KiB%n",
        byName.length() >> 10,
        whole.length() >> 10);
    // as many workers as clients: the throughput runs get no 503
    HttpLimits limits = HttpLimits.defaults().withWorkers(clients);
    try (ExtenderServer server = server(cluster, registry, limits)) {
      String url = "http://127.0.0.1:" + server.address().getPort();
      for (String[] mode :
          List.of(new String[] {"NodeNames", byName}, new String[] {"Nodes", whole})) {
        load(url, mode[1], clients, Math.max(2, seconds / 4)); // warm-up
        Result r = load(url, mode[1], clients, seconds);
        out.printf(
            Locale.ROOT,
            "extender %-9s: %.1f pairs/s, p50 %.1f ms, p99 %.1f ms, %.1f MiB allocated per pair,"
                + " %d ok, %d 503, %d errors; ratio to in-process %.2f%n",
            mode[0],
            r.perSecond(),
            r.p50Millis(),
            r.p99Millis(),
            r.bytesPerPair() / (1 << 20),
            r.ok(),
            r.busy(),
            r.errors(),
            r.perSecond() / inProcess);
      }
    }
    // twice the clients the workers can take
    try (ExtenderServer server = server(cluster, registry, limits)) {
      String url = "http://127.0.0.1:" + server.address().getPort();
      Result r = load(url, whole, 2 * clients, seconds);
      out.printf(
          Locale.ROOT,
          "saturation (%d clients, %d workers, Nodes): %d ok, %d 503, %d errors, %.1f pairs/s,"
              + " heap used after %d MiB%n",
          2 * clients,
          limits.workers(),
          r.ok(),
          r.busy(),
          r.errors(),
          r.perSecond(),
          (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
      return r.errors() == 0 ? 0 : 1;
    }
  }

  private static ExtenderServer server(
      InMemoryCluster cluster, PluginRegistry registry, HttpLimits limits) throws Exception {
    ExtenderServer s =
        new ExtenderServer(
            ConfigurationLoader.defaults(registry),
            registry,
            null,
            cluster,
            true,
            FeatureGates.defaults(),
            ExtenderServer.Settings.defaults().withLimits(limits));
    s.start(new InetSocketAddress("127.0.0.1", 0));
    return s;
  }

  /** The same profile's PreFilter, Filter, PreScore and Score over a prebuilt snapshot. */
  private static double inProcess(List<V1Node> nodes, V1Pod pod, int seconds) {
    Snapshot snapshot = Snapshot.of(nodes, List.of());
    Framework fw = DefaultProfile.create(new InMemoryCluster(), () -> snapshot);
    PodInfo p = PodInfo.of(pod);
    long end = System.nanoTime() + Duration.ofSeconds(Math.max(2, seconds)).toNanos();
    long warm = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    while (System.nanoTime() < warm) {
      once(fw, snapshot, p);
    }
    long start = System.nanoTime();
    int n = 0;
    while (System.nanoTime() < end || n == 0) {
      once(fw, snapshot, p);
      n++;
    }
    return n / ((System.nanoTime() - start) / 1e9);
  }

  private static void once(Framework fw, Snapshot snapshot, PodInfo pod) {
    CycleState state = new CycleState();
    List<NodeInfo> feasible = new ArrayList<>();
    if (!fw.runPreFilterPlugins(state, pod, snapshot.list()).status().isSuccess()) {
      throw new IllegalStateException("PreFilter failed");
    }
    for (NodeInfo n : snapshot.list()) {
      if (fw.runFilterPluginsWithNominatedPods(state, pod, n).isSuccess()) {
        feasible.add(n);
      }
    }
    fw.runPreScorePlugins(state, pod, feasible);
    fw.runScorePlugins(state, pod, feasible);
  }

  private record Result(
      double perSecond,
      double p50Millis,
      double p99Millis,
      double bytesPerPair,
      long ok,
      long busy,
      long errors) {}

  /** {@code clients} threads posting filter then prioritize with {@code body} for a while. */
  private static Result load(String url, String body, int clients, int seconds)
      throws InterruptedException {
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    AtomicLong ok = new AtomicLong();
    AtomicLong busy = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    Map<Integer, long[]> latencies = new ConcurrentHashMap<>();
    long allocatedBefore = serverAllocated();
    long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    CountDownLatch done = new CountDownLatch(clients);
    long start = System.nanoTime();
    for (int c = 0; c < clients; c++) {
      int id = c;
      Thread t =
          new Thread(
              () -> {
                long[] lat = new long[1 << 16];
                int k = 0;
                try {
                  while (System.nanoTime() < end && k < lat.length) {
                    long t0 = System.nanoTime();
                    int a = post(http, url + "/filter", body, errors);
                    int b = a == 200 ? post(http, url + "/prioritize", body, errors) : a;
                    if (a == 200 && b == 200) {
                      ok.incrementAndGet();
                      lat[k++] = System.nanoTime() - t0;
                    } else if (a == 503 || b == 503) {
                      busy.incrementAndGet();
                    } else if (a > 0 && b > 0) {
                      errors.incrementAndGet();
                    }
                  }
                } finally {
                  latencies.put(id, Arrays.copyOf(lat, k));
                  done.countDown();
                }
              },
              "bench-client-" + c);
      t.start();
    }
    done.await();
    double elapsed = (System.nanoTime() - start) / 1e9;
    long[] all = latencies.values().stream().flatMapToLong(Arrays::stream).sorted().toArray();
    double p50 = all.length == 0 ? 0 : all[all.length / 2] / 1e6;
    double p99 = all.length == 0 ? 0 : all[Math.min(all.length - 1, all.length * 99 / 100)] / 1e6;
    double bytes = ok.get() == 0 ? 0 : (serverAllocated() - allocatedBefore) / (double) ok.get();
    return new Result(ok.get() / elapsed, p50, p99, bytes, ok.get(), busy.get(), errors.get());
  }

  /** Returns the status, or -1 after counting a transport error. */
  private static int post(HttpClient http, String url, String body, AtomicLong errors) {
    try {
      return http.send(
              HttpRequest.newBuilder(URI.create(url))
                  .timeout(Duration.ofSeconds(60))
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (Exception e) {
      errors.incrementAndGet();
      return -1;
    }
  }

  /** The bytes allocated so far by the server's connection threads. */
  private static long serverAllocated() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("kubesched-http-conn")) {
        long b = mx.getThreadAllocatedBytes(t.getId());
        sum += Math.max(0, b);
      }
    }
    return sum;
  }
}
