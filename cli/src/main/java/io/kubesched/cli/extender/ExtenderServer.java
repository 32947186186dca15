package io.kubesched.cli.extender;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.config.Profile;
import io.kubesched.core.extender.ExtenderWire;
import io.kubesched.core.runtime.ExecutorParallelizer;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.FrameworkContext;
import io.kubesched.core.runtime.NodePluginScores;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one profile of a {@link KubeSchedulerConfiguration} as a kube-scheduler HTTP extender
 * webhook ({@code POST /filter}, {@code /prioritize}, {@code /bind}), in the JSON of {@link
 * ExtenderWire}.
 *
 * <ul>
 *   <li><b>filter</b> runs the profile's PreFilter and Filter plugins for the request's pod on the
 *       request's nodes and answers with the nodes that passed, {@code FailedNodes} (Unschedulable,
 *       preemption may help) and {@code FailedAndUnresolvableNodes} (UnschedulableAndUnresolvable),
 *       each with the plugins' message; a plugin Error becomes the answer's {@code Error}.
 *   <li><b>prioritize</b> runs PreScore and Score and answers each node's weighted average of the
 *       profile's normalized scores, scaled from [0, 100] to the extender range [0, 10] (integer
 *       division).
 *   <li><b>bind</b> runs the profile's Bind plugins on the server's own cluster state: it needs the
 *       pod in that state (see below) and does not write to a real API server.
 * </ul>
 *
 * <p>The nodes are those of the request ({@code Nodes}, for extenders configured with {@code
 * nodeCacheCapable: false}). The server has no connection to a cluster; its only knowledge of the
 * cluster is the optional state given at start (nodes, bound pods, namespaces, disruption budgets
 * and other manifests, e.g. {@code kubectl get nodes,pods -A -o yaml}): the pods bound to a
 * request's node are taken from it, and {@code NodeNames} (node-cache-capable extenders) are
 * resolved against its nodes. Without a state, a request with {@code NodeNames} is answered with an
 * {@code Error}.
 *
 * <p>Requests are evaluated one at a time.
 */
public final class ExtenderServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ExtenderServer.class);

  /** The filter path. */
  public static final String FILTER = "/filter";

  /** The prioritize path. */
  public static final String PRIORITIZE = "/prioritize";

  /** The bind path. */
  public static final String BIND = "/bind";

  private final Framework framework;
  private final InMemoryCluster cluster;
  private final boolean hasState;
  private final AtomicReference<NodeInfoLister> current = new AtomicReference<>(Snapshot.empty());
  private final ReentrantLock lock = new ReentrantLock();
  private final ScheduledExecutorService timers;
  private final ExecutorService pool;
  private HttpServer server;

  /**
   * Builds the profile's framework.
   *
   * @param config the configuration
   * @param registry the plugins
   * @param profileName the profile to serve, or {@code null} for the first one
   * @param cluster the cluster state known to the server (may be empty)
   * @param hasState whether {@code cluster} holds a state given by the user (enables node names)
   * @throws IllegalArgumentException when the profile does not exist or cannot be built
   */
  public ExtenderServer(
      KubeSchedulerConfiguration config,
      PluginRegistry registry,
      String profileName,
      InMemoryCluster cluster,
      boolean hasState) {
    this(config, registry, profileName, cluster, hasState, FeatureGates.defaults());
  }

  /**
   * Builds the framework of profile {@code profileName} with {@code featureGates}; see {@link
   * #ExtenderServer(KubeSchedulerConfiguration, PluginRegistry, String, InMemoryCluster, boolean)}.
   */
  public ExtenderServer(
      KubeSchedulerConfiguration config,
      PluginRegistry registry,
      String profileName,
      InMemoryCluster cluster,
      boolean hasState,
      FeatureGates featureGates) {
    Profile profile = profile(config, profileName);
    this.cluster = Objects.requireNonNull(cluster, "cluster must not be null");
    this.hasState = hasState;
    this.timers = Executors.newSingleThreadScheduledExecutor(daemon("kubesched-extender-timers"));
    this.pool = Executors.newCachedThreadPool(daemon("kubesched-extender-http"));
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
      close();
      throw e;
    }
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

  /**
   * Starts serving on {@code address} (port 0 picks a free port).
   *
   * @throws IOException when the address cannot be bound
   */
  public synchronized void start(InetSocketAddress address) throws IOException {
    if (server != null) {
      throw new IllegalStateException("already started");
    }
    // kube-scheduler waits for every answer: do not let Nagle's algorithm delay small responses
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer s = HttpServer.create(address, 0);
    s.createContext(FILTER, ex -> serve(ex, this::filter));
    s.createContext(PRIORITIZE, ex -> serve(ex, this::prioritize));
    s.createContext(BIND, ex -> serve(ex, this::bind));
    s.setExecutor(pool);
    s.start();
    server = s;
  }

  /** Returns the bound address; the server must be started. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.stop(0);
      server = null;
    }
    pool.shutdownNow();
    timers.shutdownNow();
  }

  private interface Verb {
    String answer(String body);
  }

  private void serve(HttpExchange ex, Verb verb) throws IOException {
    try {
      if (!"POST".equals(ex.getRequestMethod())) {
        reply(ex, 405, "only POST is supported\n", "text/plain");
        return;
      }
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String answer;
      try {
        answer = verb.answer(body);
      } catch (IllegalArgumentException e) {
        reply(ex, 400, "invalid request: " + e.getMessage() + "\n", "text/plain");
        return;
      } catch (RuntimeException e) {
        log.atError()
            .setMessage("extender request failed")
            .addKeyValue("path", ex.getRequestURI().getPath())
            .setCause(e)
            .log();
        reply(ex, 500, "internal error: " + e + "\n", "text/plain");
        return;
      }
      reply(ex, 200, answer, "application/json");
    } finally {
      ex.close();
    }
  }

  private static void reply(HttpExchange ex, int code, String body, String type)
      throws IOException {
    byte[] out = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(code, out.length == 0 ? -1 : out.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(out);
    }
  }

  // ---------------------------------------------------------------- verbs

  /** The nodes a request is about, or the error to answer. */
  private record Nodes(List<V1Node> nodes, String error) {}

  private Nodes resolve(ExtenderWire.ExtenderArgs args) {
    if (args.nodes() != null) {
      return new Nodes(args.nodes(), null);
    }
    if (args.nodeNames() == null) {
      return new Nodes(List.of(), null);
    }
    if (!hasState) {
      return new Nodes(
          null,
          "kubesched extender has no node cache: configure the extender with nodeCacheCapable:"
              + " false, or start kubesched extender with --state");
    }
    List<V1Node> out = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (String name : args.nodeNames()) {
      Optional<V1Node> n = cluster.getNode(name);
      if (n.isPresent()) {
        out.add(n.get());
      } else {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      return new Nodes(null, "kubesched extender: unknown node(s) " + unknown);
    }
    return new Nodes(out, null);
  }

  /** The snapshot of {@code nodes} with the pods of the known state bound to them. */
  private Snapshot snapshot(List<V1Node> nodes) {
    Set<String> names = new HashSet<>();
    for (V1Node n : nodes) {
      names.add(n.getMetadata().getName());
    }
    List<V1Pod> pods = new ArrayList<>();
    if (hasState) {
      for (V1Pod p : cluster.listPods()) {
        String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
        if (node != null && names.contains(node)) {
          pods.add(p);
        }
      }
    }
    return Snapshot.of(nodes, pods);
  }

  private static PodInfo podInfo(ExtenderWire.ExtenderArgs args) {
    if (args.pod() == null || args.pod().getMetadata() == null) {
      throw new IllegalArgumentException("Pod: Required value");
    }
    return PodInfo.of(args.pod());
  }

  String filter(String body) {
    ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(body);
    PodInfo pod = podInfo(args);
    Nodes nodes = resolve(args);
    if (nodes.error() != null) {
      return ExtenderWire.encode(
          new ExtenderWire.FilterResult(null, null, null, null, nodes.error()));
    }
    Map<String, String> failed = new LinkedHashMap<>();
    Map<String, String> unresolvable = new LinkedHashMap<>();
    List<String> passed = new ArrayList<>();
    lock.lock();
    try {
      Snapshot snapshot = snapshot(nodes.nodes());
      current.set(snapshot);
      CycleState state = new CycleState();
      List<NodeInfo> all = snapshot.list();
      Framework.PreFilterOutcome pre = framework.runPreFilterPlugins(state, pod, all);
      Status s = pre.status();
      if (!s.isSuccess()) {
        if (!s.isRejected()) {
          return error(s.message());
        }
        for (NodeInfo n : all) {
          reject(n.name(), s, failed, unresolvable);
        }
      } else {
        Status absent =
            pre.allNodes()
                ? null
                : Status.unresolvable(
                    "node(s) didn't satisfy plugin(s) "
                        + goList(new TreeSet<>(pre.unschedulablePlugins())));
        for (NodeInfo n : all) {
          if (absent != null && !pre.nodeNames().contains(n.name())) {
            reject(n.name(), absent, failed, unresolvable);
            continue;
          }
          Status f = framework.runFilterPluginsWithNominatedPods(state, pod, n);
          if (f.isSuccess()) {
            passed.add(n.name());
          } else if (f.isRejected()) {
            reject(n.name(), f, failed, unresolvable);
          } else {
            return error(f.message());
          }
        }
      }
    } finally {
      current.set(Snapshot.empty());
      lock.unlock();
    }
    log.atDebug()
        .setMessage("filtered nodes for pod")
        .addKeyValue("pod", pod.key())
        .addKeyValue("passed", passed)
        .log();
    if (args.nodes() != null) {
      List<V1Node> out = new ArrayList<>();
      for (V1Node n : args.nodes()) {
        if (passed.contains(n.getMetadata().getName())) {
          out.add(n);
        }
      }
      return ExtenderWire.encode(
          new ExtenderWire.FilterResult(out, null, failed, unresolvable, ""));
    }
    return ExtenderWire.encode(
        new ExtenderWire.FilterResult(null, passed, failed, unresolvable, ""));
  }

  private static String error(String message) {
    return ExtenderWire.encode(new ExtenderWire.FilterResult(null, null, null, null, message));
  }

  private static void reject(
      String node, Status s, Map<String, String> failed, Map<String, String> unresolvable) {
    if (s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
      unresolvable.put(node, s.message());
    } else {
      failed.put(node, s.message());
    }
  }

  private static String goList(Set<String> names) {
    return "[" + String.join(" ", names) + "]";
  }

  String prioritize(String body) {
    ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(body);
    PodInfo pod = podInfo(args);
    Nodes nodes = resolve(args);
    if (nodes.error() != null) {
      // a HostPriorityList has no error field: kube-scheduler ignores a failed prioritize
      throw new IllegalArgumentException(nodes.error());
    }
    List<ExtenderWire.HostPriority> out = new ArrayList<>();
    lock.lock();
    try {
      Snapshot snapshot = snapshot(nodes.nodes());
      current.set(snapshot);
      List<NodeInfo> all = snapshot.list();
      if (!framework.hasScorePlugins() || all.isEmpty()) {
        for (NodeInfo n : all) {
          out.add(new ExtenderWire.HostPriority(n.name(), 0));
        }
        return ExtenderWire.encodePriorities(out);
      }
      CycleState state = new CycleState();
      Status pre = framework.runPreScorePlugins(state, pod, all);
      if (!pre.isSuccess()) {
        throw new IllegalStateException("PreScore: " + pre.message());
      }
      Framework.ScoreOutcome scored = framework.runScorePlugins(state, pod, all);
      if (!scored.status().isSuccess()) {
        throw new IllegalStateException("Score: " + scored.status().message());
      }
      Map<String, Integer> weights = framework.scoreWeights();
      for (NodePluginScores ns : scored.scores()) {
        long maxTotal = 0;
        for (String plugin : ns.scores().keySet()) {
          maxTotal += 100L * weights.getOrDefault(plugin, 1);
        }
        long score = maxTotal == 0 ? 0 : ns.totalScore() * 10 / maxTotal;
        out.add(new ExtenderWire.HostPriority(ns.name(), score));
      }
    } finally {
      current.set(Snapshot.empty());
      lock.unlock();
    }
    return ExtenderWire.encodePriorities(out);
  }

  String bind(String body) {
    ExtenderWire.BindingArgs args = ExtenderWire.decodeBindingArgs(body);
    Optional<V1Pod> pod = cluster.getPod(args.podNamespace(), args.podName());
    if (pod.isEmpty()) {
      return ExtenderWire.encodeBindingResult(
          "kubesched extender: pod "
              + args.podNamespace()
              + "/"
              + args.podName()
              + " is not in its state: the server has no cluster connection and binds only the"
              + " pods of --state, in memory");
    }
    lock.lock();
    try {
      Status s = framework.runBindPlugins(new CycleState(), PodInfo.of(pod.get()), args.node());
      return ExtenderWire.encodeBindingResult(s.isSuccess() ? "" : s.message());
    } finally {
      lock.unlock();
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
