package io.kubesched.cli;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubesched.cli.extender.ExtenderServer;
import io.kubesched.cli.extender.HttpLimits;
import io.kubesched.cli.extender.ServerTls;
import io.kubesched.cli.manifest.ManifestException;
import io.kubesched.cli.manifest.ManifestLoader;
import io.kubesched.cli.manifest.Manifests;
import io.kubesched.core.cluster.Cluster;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.GoDuration;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.kubernetes.KubernetesCluster;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FeatureGates;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kubesched extender}: serve a profile's Filter, Prioritize, Bind and preemption check as an
 * HTTP extender webhook for the stock kube-scheduler (see {@link ExtenderServer}).
 */
@Command(
    name = "extender",
    mixinStandardHelpOptions = true,
    description = {
      "Serve a profile of a KubeSchedulerConfiguration as an HTTP extender webhook for the stock"
          + " kube-scheduler: POST /filter runs the profile's PreFilter and Filter plugins,"
          + " /prioritize its PreScore and Score plugins (each node's weighted average score,"
          + " scaled from 0..100 to the extender range 0..10), /bind its Bind plugins, /preempt"
          + " keeps the candidate nodes where the pod fits once the proposed victims are gone."
          + " GET /healthz, /readyz and /metrics (Prometheus) serve operators.",
      "",
      "Point kube-scheduler at it with an extenders entry of its configuration:",
      "  extenders:",
      "  - urlPrefix: https://HOST:PORT",
      "    filterVerb: filter",
      "    prioritizeVerb: prioritize",
      "    preemptVerb: preempt",
      "    weight: 1",
      "    nodeCacheCapable: true",
      "    ignorable: false",
      "    tlsConfig: {caFile: ..., certFile: ..., keyFile: ...}",
      "",
      "Cluster state: with --kubeconfig (or --in-cluster) the server watches the cluster's nodes,"
          + " pods, namespaces, disruption budgets, services and workloads, so the plugins see"
          + " the pods running on each node, and answers node names (nodeCacheCapable: true)"
          + " from its cache; /bind creates the Binding in the API server. With --state it reads"
          + " manifests once instead (e.g. `kubectl get nodes,pods,namespaces -A -o yaml`) and"
          + " binds in its memory only. With neither, every node looks empty to the plugins,"
          + " node names and /preempt are refused: configure nodeCacheCapable: false.",
      "",
      "Exposure: the server listens on 127.0.0.1 unless --bind-address says otherwise, speaks"
          + " TLS with --tls-cert-file and --tls-private-key-file and then, with --client-ca-file,"
          + " accepts only clients presenting a certificate signed by that CA. Request bodies are"
          + " capped (--max-request-bytes, 413 beyond), slow clients are disconnected"
          + " (--read-header-timeout, --read-timeout, --write-timeout), and at most --workers"
          + " requests are evaluated at once (503 beyond). Malformed requests get a 400 naming"
          + " the field.",
      ""
    })
public final class ExtenderCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      required = true,
      description = "The KubeSchedulerConfiguration whose profile is served.")
  Path config;

  @Option(
      names = "--port",
      paramLabel = "N",
      required = true,
      description = "The TCP port to listen on (0: a free port, printed at start).")
  int port;

  @Option(
      names = {"--bind-address", "--address"},
      paramLabel = "HOST",
      defaultValue = "127.0.0.1",
      description =
          "The address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface)."
              + " --address is an alias.")
  String address;

  @Option(
      names = "--profile",
      paramLabel = "NAME",
      description = "The schedulerName of the profile to serve (default: the first profile).")
  String profile;

  @Option(
      names = "--state",
      paramLabel = "FILE",
      description =
          "Manifests of the cluster state (nodes, bound pods, namespaces, PDBs...), read once;"
              + " repeatable. Not with --kubeconfig.")
  List<Path> state = List.of();

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description = "Watch the cluster of this kubeconfig file for the cluster state.")
  Path kubeconfig;

  @Option(
      names = "--in-cluster",
      description =
          "Watch the cluster the server runs in (its service account) for the cluster state.")
  boolean inCluster;

  @Option(
      names = "--sync-timeout",
      paramLabel = "DURATION",
      defaultValue = "2m",
      description =
          "How long to wait at start for the first listing of the cluster (default:"
              + " ${DEFAULT-VALUE}); /readyz and the verbs answer 503 until then.")
  String syncTimeout;

  @Option(
      names = "--tls-cert-file",
      paramLabel = "FILE",
      description = "The server certificate (PEM, followed by any intermediates); enables TLS.")
  Path tlsCertFile;

  @Option(
      names = "--tls-private-key-file",
      paramLabel = "FILE",
      description = "The private key of --tls-cert-file (PEM: PKCS#8, PKCS#1 RSA or SEC 1 EC).")
  Path tlsKeyFile;

  @Option(
      names = "--client-ca-file",
      paramLabel = "FILE",
      description =
          "Require clients to present a certificate signed by a CA of this PEM file (TLS only).")
  Path clientCaFile;

  @Option(
      names = "--max-request-bytes",
      paramLabel = "N",
      defaultValue = "" + HttpLimits.DEFAULT_MAX_REQUEST_BYTES,
      description =
          "The largest request body accepted, in bytes (default: ${DEFAULT-VALUE}, 256 MiB: 15,000"
              + " full Node objects); larger ones are answered with 413 without being read.")
  long maxRequestBytes;

  @Option(
      names = "--workers",
      paramLabel = "N",
      description =
          "How many requests are read and evaluated at once (default: the number of processors,"
              + " at least 2); more are answered with 503 at once.")
  Integer workers;

  @Option(
      names = "--read-header-timeout",
      paramLabel = "DURATION",
      defaultValue = "10s",
      description = "Time allowed for a request's headers, TLS handshake included (default: 10s).")
  String readHeaderTimeout;

  @Option(
      names = "--read-timeout",
      paramLabel = "DURATION",
      defaultValue = "60s",
      description = "Time allowed for a request's body (default: 60s).")
  String readTimeout;

  @Option(
      names = "--write-timeout",
      paramLabel = "DURATION",
      defaultValue = "60s",
      description = "Time allowed for the client to read a response (default: 60s).")
  String writeTimeout;

  @Mixin FeatureGatesOption featureGates;

  @Option(
      names = {"-v", "--verbose"},
      description = "Log on standard error: -v for INFO, -vv for DEBUG (each request).")
  boolean[] verbose = new boolean[0];

  private final CountDownLatch stop = new CountDownLatch(1);

  /** Makes a running {@link #call()} return (for tests and embedding). */
  public void stop() {
    stop.countDown();
  }

  @Override
  public Integer call() throws InterruptedException {
    Main.configureLogging(verbose.length);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    FeatureGates gates = featureGates.parse(err);
    if (gates == null) {
      return Main.EXIT_USAGE;
    }
    String usage = checkFlags();
    if (usage != null) {
      err.println(usage);
      err.flush();
      return Main.EXIT_USAGE;
    }
    HttpLimits limits;
    SSLContext tls = null;
    Duration sync;
    try {
      limits = limits();
      sync = duration("--sync-timeout", syncTimeout);
      if (tlsCertFile != null) {
        tls = ServerTls.context(tlsCertFile, tlsKeyFile, clientCaFile);
      }
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.flush();
      return Main.EXIT_USAGE;
    }
    PluginRegistry registry = PluginRegistry.discover();
    KubeSchedulerConfiguration cfg = Main.loadConfiguration(config, registry, err, gates);
    if (cfg == null) {
      return Main.EXIT_USAGE;
    }
    boolean live = kubeconfig != null || inCluster;
    Cluster cluster;
    KubernetesCluster kube = null;
    if (live) {
      try {
        kube =
            new KubernetesCluster(client(), Clock.systemUTC(), KubernetesCluster.DEFAULT_COMPONENT);
        // what the profile's plugins read besides the core kinds, as `run` watches it
        kube.watchCustomResources(registry.customResources(cfg));
        if (gates.enabled(FeatureGates.DYNAMIC_RESOURCE_ALLOCATION)) {
          kube.enableDynamicResources();
        }
      } catch (IOException | RuntimeException e) {
        err.println(
            (kubeconfig != null ? "--kubeconfig: \"" + kubeconfig + "\": " : "--in-cluster: ")
                + e.getMessage());
        err.flush();
        return Main.EXIT_USAGE;
      }
      cluster = kube;
    } else {
      InMemoryCluster mem = new InMemoryCluster();
      if (!state.isEmpty()) {
        try {
          load(ManifestLoader.load(state), mem, err);
        } catch (ManifestException e) {
          e.problems().forEach(err::println);
          err.flush();
          return Main.EXIT_USAGE;
        }
      }
      cluster = mem;
    }
    AtomicBoolean synced = new AtomicBoolean(!live);
    ExtenderServer server;
    try {
      server =
          new ExtenderServer(
              cfg,
              registry,
              profile,
              cluster,
              live || !state.isEmpty(),
              gates,
              new ExtenderServer.Settings(limits, tls, clientCaFile != null, synced::get));
    } catch (IllegalArgumentException e) {
      err.println(config + ": " + e.getMessage());
      err.flush();
      closeQuietly(kube);
      return Main.EXIT_USAGE;
    }
    try (server) {
      try {
        server.start(new InetSocketAddress(address, port));
      } catch (IOException e) {
        err.println("cannot listen on " + address + ":" + port + ": " + e.getMessage());
        err.flush();
        return 1;
      }
      out.println(
          "serving profile \""
              + server.profileName()
              + "\" as an extender on "
              + (tls == null ? "http" : "https")
              + "://"
              + hostForUrl(address)
              + ":"
              + server.address().getPort()
              + " (POST /filter, /prioritize, /bind, /preempt; GET /healthz, /readyz, /metrics)");
      out.flush();
      if (kube != null) {
        try {
          kube.start(sync);
        } catch (TimeoutException e) {
          err.println("the cluster state did not sync within " + syncTimeout);
          err.flush();
          return 1;
        }
        synced.set(true);
        out.println("cluster state synced: " + kube.listNodes().size() + " node(s)");
        out.flush();
      }
      stop.await();
    } finally {
      closeQuietly(kube);
    }
    return 0;
  }

  private static String hostForUrl(String host) {
    return host.contains(":") ? "[" + host + "]" : host;
  }

  private static void closeQuietly(KubernetesCluster kube) {
    if (kube != null) {
      kube.close();
    }
  }

  /** Checks the flags that go together; returns the usage error or null. */
  private String checkFlags() {
    if (port < 0 || port > 65535) {
      return "--port: must be between 0 and 65535, got " + port;
    }
    if (kubeconfig != null && inCluster) {
      return "--kubeconfig and --in-cluster: give one of them";
    }
    if ((kubeconfig != null || inCluster) && !state.isEmpty()) {
      return "--state: not allowed with --kubeconfig or --in-cluster (the state comes from the"
          + " cluster)";
    }
    if ((tlsCertFile == null) != (tlsKeyFile == null)) {
      return "--tls-cert-file and --tls-private-key-file: give both or neither";
    }
    if (clientCaFile != null && tlsCertFile == null) {
      return "--client-ca-file: needs --tls-cert-file and --tls-private-key-file";
    }
    if (maxRequestBytes <= 0) {
      return "--max-request-bytes: must be positive, got " + maxRequestBytes;
    }
    if (workers != null && workers <= 0) {
      return "--workers: must be positive, got " + workers;
    }
    return null;
  }

  private HttpLimits limits() {
    HttpLimits l = HttpLimits.defaults().withMaxRequestBytes(maxRequestBytes);
    if (workers != null) {
      l = l.withWorkers(workers);
    }
    return l.withTimeouts(
        duration("--read-header-timeout", readHeaderTimeout),
        duration("--read-timeout", readTimeout),
        duration("--write-timeout", writeTimeout));
  }

  private static Duration duration(String flag, String value) {
    Duration d;
    try {
      d = GoDuration.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(flag + ": invalid duration \"" + value + "\"");
    }
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(flag + ": must be positive, got \"" + value + "\"");
    }
    return d;
  }

  private ApiClient client() throws IOException {
    ClientBuilder builder;
    if (kubeconfig != null) {
      KubeConfig kc;
      try (Reader r = Files.newBufferedReader(kubeconfig, StandardCharsets.UTF_8)) {
        kc = KubeConfig.loadKubeConfig(r);
      }
      kc.setFile(kubeconfig.toAbsolutePath().toFile());
      builder = ClientBuilder.kubeconfig(kc);
    } else {
      builder = ClientBuilder.cluster();
    }
    // Informers hold watches open: no read timeout.
    return builder.setReadTimeout(Duration.ZERO).build();
  }

  private static void load(Manifests m, InMemoryCluster cluster, PrintWriter err) {
    m.warnings().forEach(w -> err.println("warning: " + w));
    createAll(cluster, m.namespaces());
    createAll(cluster, m.priorityClasses());
    createAll(cluster, m.podDisruptionBudgets());
    createAll(cluster, m.services());
    createAll(cluster, m.replicaSets());
    createAll(cluster, m.statefulSets());
    createAll(cluster, m.replicationControllers());
    for (V1Node n : m.nodes()) {
      cluster.addNode(n);
    }
    for (java.util.Map<String, Object> o : m.customObjects()) {
      cluster.createCustomObject(o);
    }
    for (V1Pod p : m.pods()) {
      if (p.getMetadata().getNamespace() == null || p.getMetadata().getNamespace().isEmpty()) {
        p.getMetadata().setNamespace("default");
      }
      cluster.addPod(p);
    }
    err.flush();
  }

  private static <T extends KubernetesObject> void createAll(
      InMemoryCluster cluster, List<T> objects) {
    for (T o : objects) {
      if (o.getMetadata() != null
          && o.getMetadata().getNamespace() == null
          && !(o instanceof io.kubernetes.client.openapi.models.V1Namespace)
          && !(o instanceof io.kubernetes.client.openapi.models.V1PriorityClass)) {
        o.getMetadata().setNamespace("default");
      }
      cluster.create(o);
    }
  }
}
