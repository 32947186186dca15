package io.kubesched.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubesched.core.Scheduler;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.config.Profile;
import io.kubesched.core.kubernetes.KubernetesCluster;
import io.kubesched.core.kubernetes.LeaseLeaderElector;
import io.kubesched.core.metrics.PrometheusSchedulerMetrics;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FeatureGates;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kubesched run}: a real scheduler for a Kubernetes cluster. It watches the cluster through
 * the API server, schedules the pods whose {@code spec.schedulerName} matches a profile of the
 * configuration and binds them, until SIGTERM or Ctrl-C; {@code /healthz} and Prometheus {@code
 * /metrics} are served on {@code --metrics-port}.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Run a scheduler against a Kubernetes cluster: it schedules and binds the pods whose"
          + " spec.schedulerName matches a profile of the configuration, until SIGTERM or Ctrl-C.",
      "The API server is found from --kubeconfig, else clientConnection.kubeconfig of the"
          + " configuration, else $KUBECONFIG, ~/.kube/config or the in-cluster service account.",
      "GET /healthz and GET /metrics (Prometheus text format) are served on --metrics-port.",
      ""
    })
public final class RunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      required = true,
      description = "The KubeSchedulerConfiguration (its profiles, plugins and queue settings).")
  Path config;

  @Option(
      names = "--kubeconfig",
      paramLabel = "PATH",
      description = "The kubeconfig file of the cluster (default: see above).")
  Path kubeconfig;

  @Option(
      names = "--leader-elect",
      description =
          "Run as one of several replicas: only the holder of the coordination.k8s.io/v1 Lease"
              + " leaderElection.resourceNamespace/resourceName (default"
              + " kube-system/kube-scheduler) schedules; the timings are the configuration's"
              + " leaderElection (15s/10s/2s). Without this option the command schedules at once"
              + " and leaderElection.leaderElect of the configuration is ignored. Losing the lease"
              + " stops the command with exit code 1.")
  boolean leaderElect;

  @Option(
      names = "--metrics-port",
      paramLabel = "N",
      defaultValue = "10251",
      description =
          "The port of /healthz and /metrics (0: a free port; default: ${DEFAULT-VALUE}).")
  int metricsPort;

  @Option(
      names = "--metrics-address",
      paramLabel = "HOST",
      defaultValue = "0.0.0.0",
      description = "The address of /healthz and /metrics (default: ${DEFAULT-VALUE}).")
  String metricsAddress;

  @Option(
      names = "--sync-timeout",
      paramLabel = "SECONDS",
      defaultValue = "60",
      description =
          "How long to wait for the first listing of the cluster (default: ${DEFAULT-VALUE}).")
  long syncTimeoutSeconds;

  @Mixin FeatureGatesOption featureGates;

  @Option(
      names = {"-v", "--verbose"},
      description = "Log on standard error: -v for INFO, -vv for DEBUG.")
  boolean[] verbose = new boolean[0];

  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch started = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile int boundMetricsPort = -1;
  private final AtomicInteger exitCode = new AtomicInteger();

  /** Makes a running {@link #call()} stop the scheduler and return 0 (for tests and embedding). */
  public void stop() {
    stop.countDown();
  }

  /**
   * Waits until the scheduler runs (the cluster was listed and the metrics server listens).
   *
   * @return {@code false} when it did not start within the timeout
   */
  public boolean awaitStarted(long timeout, TimeUnit unit) throws InterruptedException {
    return started.await(timeout, unit);
  }

  /** Returns the port /healthz and /metrics listen on, or -1 before the start. */
  public int metricsPort() {
    return boundMetricsPort;
  }

  @Override
  public Integer call() throws InterruptedException {
    if (verbose.length < 2) {
      // client-java logs the normal interruption of its informer threads on stop as errors.
      System.setProperty(
          "org.slf4j.simpleLogger.log.io.kubernetes.client.informer.cache.Controller", "off");
      System.setProperty(
          "org.slf4j.simpleLogger.log.io.kubernetes.client.informer.cache.ProcessorListener",
          "off");
    }
    Main.configureLogging(verbose.length);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    FeatureGates gates = featureGates.parse(err);
    if (gates == null) {
      return Main.EXIT_USAGE;
    }
    if (metricsPort < 0 || metricsPort > 65535) {
      err.println("--metrics-port: must be between 0 and 65535, got " + metricsPort);
      err.flush();
      return Main.EXIT_USAGE;
    }
    PluginRegistry registry = PluginRegistry.discover();
    KubeSchedulerConfiguration cfg = Main.loadConfiguration(config, registry, err, gates);
    if (cfg == null) {
      return Main.EXIT_USAGE;
    }
    LeaseLeaderElector.Timing timing = null;
    if (leaderElect) {
      KubeSchedulerConfiguration.LeaderElection le = cfg.leaderElection();
      if (!"leases".equals(le.resourceLock())) {
        err.println(
            config
                + ": leaderElection.resourceLock: only \"leases\" is supported, got \""
                + le.resourceLock()
                + "\"");
        err.flush();
        return Main.EXIT_USAGE;
      }
      try {
        timing =
            new LeaseLeaderElector.Timing(le.leaseDuration(), le.renewDeadline(), le.retryPeriod());
      } catch (IllegalArgumentException e) {
        err.println(config + ": leaderElection: " + e.getMessage());
        err.flush();
        return Main.EXIT_USAGE;
      }
    }
    ApiClient client;
    try {
      client = client(cfg);
    } catch (IOException | RuntimeException e) {
      err.println("cannot configure the API client: " + e.getMessage());
      err.flush();
      return Main.EXIT_USAGE;
    }
    // One registry per run (not the client's static default one): the scheduler's metrics and
    // the JVM's, served together on /metrics.
    PrometheusRegistry prometheus = new PrometheusRegistry();
    PrometheusSchedulerMetrics metrics = new PrometheusSchedulerMetrics(prometheus);
    JvmMetrics.builder().register(prometheus);
    try (KubernetesCluster cluster =
        new KubernetesCluster(client, Clock.systemUTC(), KubernetesCluster.DEFAULT_COMPONENT)) {
      if (gates.enabled(FeatureGates.DYNAMIC_RESOURCE_ALLOCATION)) {
        cluster.enableDynamicResources();
      }
      try {
        cluster.start(Duration.ofSeconds(syncTimeoutSeconds));
      } catch (TimeoutException e) {
        err.println(e.getMessage());
        err.flush();
        return 1;
      }
      HttpServer http;
      try {
        http = metricsServer(prometheus);
      } catch (IOException e) {
        err.println(
            "cannot listen on " + metricsAddress + ":" + metricsPort + ": " + e.getMessage());
        err.flush();
        return 1;
      }
      // On SIGTERM/Ctrl-C: stop, then hold the JVM until the lease is released and the
      // scheduler closed (at most 10 s).
      Thread hook =
          new Thread(
              () -> {
                stop.countDown();
                try {
                  finished.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "kubesched-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      ScheduledExecutorService electionLoop = null;
      LeaseLeaderElector elector = null;
      try (Scheduler scheduler =
          Scheduler.builder()
              .cluster(cluster)
              .configuration(cfg)
              .registry(registry)
              .metrics(metrics)
              .featureGates(gates)
              .build()) {
        boundMetricsPort = http.getAddress().getPort();
        out.println(
            "scheduling the pods of "
                + cfg.profiles().stream().map(Profile::schedulerName).toList()
                + " on "
                + client.getBasePath()
                + "; /healthz and /metrics on http://"
                + metricsAddress
                + ":"
                + boundMetricsPort);
        if (timing == null) {
          scheduler.startSchedulingLoop();
        } else {
          electionLoop =
              Executors.newSingleThreadScheduledExecutor(
                  r -> {
                    Thread t = new Thread(r, "kubesched-leader-election");
                    t.setDaemon(true);
                    return t;
                  });
          elector =
              new LeaseLeaderElector(
                  client,
                  cfg.leaderElection().resourceNamespace(),
                  cfg.leaderElection().resourceName(),
                  identity(),
                  timing,
                  Clock.systemUTC(),
                  electionLoop);
          out.println(
              "waiting for the lease "
                  + cfg.leaderElection().resourceNamespace()
                  + "/"
                  + cfg.leaderElection().resourceName()
                  + " as "
                  + elector.identity());
          if (!elector.tryAcquireOrRenew()) {
            out.println(
                "the lease is held by "
                    + (elector.observedHolder() == null ? "nobody" : elector.observedHolder())
                    + ": standing by");
          }
          elector.run(
              () -> {
                out.println("became the leader: scheduling");
                out.flush();
                scheduler.startSchedulingLoop();
              },
              () -> {
                err.println("leader election lost: stopping");
                err.flush();
                exitCode.set(1);
                stop.countDown();
              });
        }
        out.flush();
        started.countDown();
        try {
          stop.await();
        } finally {
          if (elector != null) {
            elector.close();
          }
          if (electionLoop != null) {
            electionLoop.shutdownNow();
          }
        }
      } finally {
        http.stop(0);
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
          // shutting down: the hook is running
        }
      }
    } finally {
      finished.countDown();
    }
    out.println("stopped");
    out.flush();
    return exitCode.get();
  }

  /** Returns kube's leader identity: the host name, an underscore and a random UUID. */
  private static String identity() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "localhost";
    }
    return host + "_" + UUID.randomUUID();
  }

  private ApiClient client(KubeSchedulerConfiguration cfg) throws IOException {
    Path file = kubeconfig;
    if (file == null
        && cfg.clientConnection() != null
        && cfg.clientConnection().kubeconfig() != null
        && !cfg.clientConnection().kubeconfig().isEmpty()) {
      file = Path.of(cfg.clientConnection().kubeconfig());
    }
    ClientBuilder builder;
    if (file != null) {
      KubeConfig kc;
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        kc = KubeConfig.loadKubeConfig(r);
      }
      kc.setFile(file.toAbsolutePath().toFile());
      builder = ClientBuilder.kubeconfig(kc);
    } else {
      builder = ClientBuilder.standard();
    }
    // Informers hold watches open: no read timeout.
    return builder.setReadTimeout(Duration.ZERO).build();
  }

  /**
   * Starts the server of /healthz and /metrics; /metrics is the Prometheus client's handler (text
   * format 0.0.4 by default, OpenMetrics or protobuf when the scraper asks for them).
   */
  private HttpServer metricsServer(PrometheusRegistry registry) throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(metricsAddress, metricsPort), 0);
    http.createContext("/healthz", ex -> reply(ex, 200, "text/plain; charset=utf-8", "ok"));
    http.createContext("/metrics", new MetricsHandler(registry));
    http.createContext("/", ex -> reply(ex, 404, "text/plain; charset=utf-8", "not found\n"));
    http.start();
    return http;
  }

  private static void reply(HttpExchange ex, int code, String type, String body)
      throws IOException {
    try {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", type);
      ex.sendResponseHeaders(code, bytes.length);
      try (OutputStream o = ex.getResponseBody()) {
        o.write(bytes);
      }
    } finally {
      ex.close();
    }
  }
}
