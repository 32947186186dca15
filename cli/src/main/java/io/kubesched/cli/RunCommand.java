package io.kubesched.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubesched.core.Scheduler;
import io.kubesched.core.config.ConfigurationWriter;
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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
      "GET /healthz and GET /metrics (Prometheus text format) are served over plain HTTP on"
          + " --metrics-address:--metrics-port (default 127.0.0.1:10251).",
      "kube-scheduler's flags are accepted (docs/running.md); leader election is on unless"
          + " --leader-elect=false or leaderElection.leaderElect: false.",
      ""
    })
public final class RunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "The KubeSchedulerConfiguration (its profiles, plugins and queue settings; default:"
              + " kube's default configuration).")
  Path config;

  @Mixin KubeSchedulerFlags kube;

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
      defaultValue = "127.0.0.1",
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
      names = {"-v", "--v", "--verbose"},
      arity = "0..1",
      fallbackValue = Verbosity.BARE,
      paramLabel = "N",
      description =
          "Log on standard error: -v for INFO, -vv for DEBUG; or klog's --v=N / -v=N: 0-2 INFO,"
              + " 3-4 DEBUG, 5 and more TRACE (default: ERROR).")
  List<String> verbosity = new ArrayList<>();

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
    int level;
    try {
      level = Verbosity.slf4jLevel(verbosity);
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println(e.getMessage());
      spec.commandLine().getErr().flush();
      return Main.EXIT_USAGE;
    }
    if (level < Verbosity.DEBUG) {
      // client-java logs the normal interruption of its informer threads on stop as errors.
      System.setProperty(
          "org.slf4j.simpleLogger.log.io.kubernetes.client.informer.cache.Controller", "off");
      System.setProperty(
          "org.slf4j.simpleLogger.log.io.kubernetes.client.informer.cache.ProcessorListener",
          "off");
    }
    Verbosity.configureLogging(level);
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
    KubeSchedulerConfiguration loaded = Main.loadConfiguration(config, registry, err, gates);
    if (loaded == null) {
      return Main.EXIT_USAGE;
    }
    KubeSchedulerConfiguration cfg;
    try {
      cfg = kube.applyTo(loaded);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.flush();
      return Main.EXIT_USAGE;
    }
    if (kube.writeConfigTo != null) {
      try {
        Files.writeString(kube.writeConfigTo, ConfigurationWriter.toYaml(cfg));
      } catch (IOException e) {
        err.println("cannot write " + kube.writeConfigTo + ": " + e.getMessage());
        err.flush();
        return 1;
      }
      out.println("wrote the configuration to " + kube.writeConfigTo);
      out.flush();
      return 0;
    }
    kube.printNotices(err, metricsAddress, metricsPort);
    String where = config == null ? "--leader-elect" : config.toString();
    LeaseLeaderElector.Timing timing = null;
    if (cfg.leaderElection().leaderElect()) {
      KubeSchedulerConfiguration.LeaderElection le = cfg.leaderElection();
      if (!"leases".equals(le.resourceLock())) {
        err.println(
            where
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
        err.println(where + ": leaderElection: " + e.getMessage());
        err.flush();
        return Main.EXIT_USAGE;
      }
    }
    ApiClient client;
    try {
      client =
          ApiClients.build(
              cfg.clientConnection(),
              kube.master,
              System.getenv(),
              Path.of(System.getProperty("user.home", ".")));
    } catch (ApiClients.ClientConfigException | RuntimeException e) {
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
        new KubernetesCluster(client, Clock.systemUTC(), cfg.profiles().get(0).schedulerName())) {
      cluster.watchCustomResources(registry.customResources(cfg));
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
      // SIGTERM and SIGINT stop the scheduler like stop(): the command returns 0, as
      // kube-scheduler exits 0 on SIGTERM (the JVM's default would exit 143 and 130).
      Signals signals = Signals.install(this::stop);
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
        signals.restore();
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
