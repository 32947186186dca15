package io.kubesched.cli.extender;

import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.cluster.Cluster;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.config.Profile;
import io.kubesched.core.extender.ExtenderWire;
import io.kubesched.core.runtime.ExecutorParallelizer;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.FrameworkContext;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.NodeInfoLister;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * Serves one profile of a {@link KubeSchedulerConfiguration} as a kube-scheduler HTTP extender
 * webhook, in the JSON of {@link ExtenderWire} (keys matched case-insensitively, so the PascalCase
 * kube-scheduler sends and lower-case both work):
 *
 * <ul>
 *   <li>{@code POST /filter} runs the profile's PreFilter and Filter plugins for the request's pod
 *       on the request's nodes and answers with the nodes that passed, {@code FailedNodes}
 *       (Unschedulable: preemption may help) and {@code FailedAndUnresolvableNodes}
 *       (UnschedulableAndUnresolvable), each with the plugins' message; a plugin Error becomes the
 *       answer's {@code Error}.
 *   <li>{@code POST /prioritize} runs PreScore and Score and answers each node's weighted average
 *       of the profile's normalized scores, scaled from [0, 100] to the extender range [0, 10]
 *       (integer division), as kube-scheduler expects ({@code MaxExtenderPriority}).
 *   <li>{@code POST /bind} runs the profile's Bind plugins for a pod of the server's cluster state
 *       (with a live cluster, DefaultBinder creates the Binding in the API server).
 *   <li>{@code POST /preempt} keeps the candidate nodes where the pod fits once the proposed
 *       victims are gone, by the profile's PreFilter (with RemovePod) and Filter plugins.
 *   <li>{@code GET /healthz} answers {@code ok}; {@code GET /readyz} answers {@code ok} once the
 *       cluster state is synced (503 before, when the verbs answer 503 too); {@code GET /metrics}
 *       the {@link ExtenderMetrics}.
 * </ul>
 *
 * <p>The request's nodes are its {@code Nodes} (extenders configured with {@code nodeCacheCapable:
 * false}) or its {@code NodeNames} resolved against the cluster state ({@code nodeCacheCapable:
 * true}), which needs a node cache. The pods bound to a node are always taken from the cluster
 * state: a live cluster watched through {@code KubernetesCluster}, or manifests loaded at start.
 *
 * <p>The transport is a {@link BoundedHttpServer} with the given {@link HttpLimits}, plain or TLS;
 * malformed requests are answered with 400 naming the field. Evaluations run one at a time.
 */
public final class ExtenderServer implements AutoCloseable {
  /** The filter path. */
  public static final String FILTER = "/filter";

  /** The prioritize path. */
  public static final String PRIORITIZE = "/prioritize";

  /** The bind path. */
  public static final String BIND = "/bind";

  /** The preempt path. */
  public static final String PREEMPT = "/preempt";

  /**
   * How the server is exposed.
   *
   * @param limits the HTTP limits
   * @param tls the TLS context (see {@link ServerTls}), or {@code null} for plain HTTP
   * @param clientAuth whether clients must present a certificate trusted by {@code tls}
   * @param ready whether the cluster state is synced (the verbs answer 503 before)
   */
  public record Settings(
      HttpLimits limits, SSLContext tls, boolean clientAuth, BooleanSupplier ready) {
    /** Checks the settings. */
    public Settings {
      Objects.requireNonNull(limits, "limits");
      Objects.requireNonNull(ready, "ready");
    }

    /** Plain HTTP with {@link HttpLimits#defaults()}, always ready. */
    public static Settings defaults() {
      return new Settings(HttpLimits.defaults(), null, false, () -> true);
    }

    /** Returns a copy serving TLS with {@code context}, requiring client certificates or not. */
    public Settings withTls(SSLContext context, boolean requireClientCertificates) {
      return new Settings(limits, context, requireClientCertificates, ready);
    }

    /** Returns a copy whose readiness is {@code r}. */
    public Settings withReady(BooleanSupplier r) {
      return new Settings(limits, tls, clientAuth, r);
    }

    /** Returns a copy with {@code l}. */
    public Settings withLimits(HttpLimits l) {
      return new Settings(l, tls, clientAuth, ready);
    }
  }

  private final Framework framework;
  private final ClusterSnapshot view;
  private final ExtenderVerbs verbs;
  private final ExtenderMetrics metrics;
  private final BoundedHttpServer http;
  private final BooleanSupplier ready;
  private final ScheduledExecutorService timers;

  /**
   * Builds the profile's framework with default feature gates and {@link Settings#defaults()}.
   *
   * @param config the configuration
   * @param registry the plugins
   * @param profileName the profile to serve, or {@code null} for the first one
   * @param cluster the cluster state known to the server (may be empty)
   * @param nodeCache whether {@code cluster} holds the cluster's nodes (enables node names and
   *     preempt)
   * @throws IllegalArgumentException when the profile does not exist or cannot be built
   */
  public ExtenderServer(
      KubeSchedulerConfiguration config,
      PluginRegistry registry,
      String profileName,
      Cluster cluster,
      boolean nodeCache) {
    this(
        config,
        registry,
        profileName,
        cluster,
        nodeCache,
        FeatureGates.defaults(),
        Settings.defaults());
  }

  /**
   * Builds the framework of profile {@code profileName} with {@code featureGates}, exposed as
   * {@code settings} say; see {@link #ExtenderServer(KubeSchedulerConfiguration, PluginRegistry,
   * String, Cluster, boolean)}.
   */
  public ExtenderServer(
      KubeSchedulerConfiguration config,
      PluginRegistry registry,
      String profileName,
      Cluster cluster,
      boolean nodeCache,
      FeatureGates featureGates,
      Settings settings) {
    Profile profile = profile(config, profileName);
    Objects.requireNonNull(cluster, "cluster must not be null");
    this.ready = settings.ready();
    this.timers =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "kubesched-extender-timers");
              t.setDaemon(true);
              return t;
            });
    AtomicReference<NodeInfoLister> current = new AtomicReference<>(Snapshot.empty());
    FrameworkContext ctx =
        new FrameworkContext(
            cluster,
            cluster,
            Clock.systemUTC(),
            ExecutorParallelizer.callerRuns(),
            null,
            current::get,
            new WaitingPods(timers),
            null,
            null,
            featureGates);
    try {
      this.framework = Framework.create(profile, config.percentageOfNodesToScore(), registry, ctx);
    } catch (RuntimeException e) {
      timers.shutdownNow();
      throw e;
    }
    this.view = new ClusterSnapshot(cluster);
    this.verbs = new ExtenderVerbs(framework, cluster, view, nodeCache, current);
    this.metrics = new ExtenderMetrics(new PrometheusRegistry());
    Map<String, BoundedHttpServer.Route> routes = new LinkedHashMap<>();
    routes.put(FILTER, verb(verbs::filter));
    routes.put(PRIORITIZE, verb(verbs::prioritize));
    routes.put(BIND, verb(verbs::bind));
    routes.put(PREEMPT, verb(verbs::preempt));
    Set<String> get = Set.of("GET", "HEAD");
    routes.put(
        "/healthz",
        new BoundedHttpServer.Route(get, false, r -> BoundedHttpServer.Response.text(200, "ok")));
    routes.put("/readyz", new BoundedHttpServer.Route(get, false, r -> readyz()));
    routes.put("/metrics", new BoundedHttpServer.Route(get, false, r -> metrics.scrape()));
    this.http =
        new BoundedHttpServer(
            routes, settings.limits(), settings.tls(), settings.clientAuth(), metrics);
  }

  private BoundedHttpServer.Route verb(Function<String, String> answer) {
    return new BoundedHttpServer.Route(
        Set.of("POST"),
        true,
        r -> {
          if (!ready.getAsBoolean()) {
            return notReady();
          }
          return BoundedHttpServer.Response.json(
              answer.apply(new String(r.body(), StandardCharsets.UTF_8)));
        });
  }

  private BoundedHttpServer.Response readyz() {
    return ready.getAsBoolean() ? BoundedHttpServer.Response.text(200, "ok") : notReady();
  }

  private static BoundedHttpServer.Response notReady() {
    return BoundedHttpServer.Response.text(503, "the cluster state is not synced yet\n");
  }

  private static Profile profile(KubeSchedulerConfiguration config, String name) {
    if (config.profiles().isEmpty()) {
      throw new IllegalArgumentException("the configuration has no profile");
    }
    if (name == null) {
      return config.profiles().get(0);
    }
    List<String> names = new ArrayList<>();
    for (Profile p : config.profiles()) {
      if (p.schedulerName().equals(name)) {
        return p;
      }
      names.add(p.schedulerName());
    }
    throw new IllegalArgumentException(
        "no profile named \"" + name + "\"; the configuration has " + names);
  }

  /** Returns the name of the served profile. */
  public String profileName() {
    return framework.profileName();
  }

  /** Returns the server's metrics. */
  public ExtenderMetrics metrics() {
    return metrics;
  }

  /**
   * Starts serving on {@code address} (port 0 picks a free port).
   *
   * @throws IOException when the address cannot be bound
   */
  public void start(InetSocketAddress address) throws IOException {
    http.start(address);
  }

  /** Returns the bound address; the server must be started. */
  public InetSocketAddress address() {
    return http.address();
  }

  @Override
  public void close() {
    http.close();
    view.close();
    timers.shutdownNow();
  }
}
