package io.kubesched.cli;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.cli.extender.ExtenderServer;
import io.kubesched.cli.manifest.ManifestException;
import io.kubesched.cli.manifest.ManifestLoader;
import io.kubesched.cli.manifest.Manifests;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FeatureGates;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kubesched extender}: serve a profile's Filter, Prioritize and Bind as an HTTP extender
 * webhook for the stock kube-scheduler (see {@link ExtenderServer}).
 */
@Command(
    name = "extender",
    mixinStandardHelpOptions = true,
    description = {
      "Serve a profile of a KubeSchedulerConfiguration as an HTTP extender webhook for the stock"
          + " kube-scheduler: POST /filter runs the profile's PreFilter and Filter plugins,"
          + " /prioritize its PreScore and Score plugins (each node's weighted average score,"
          + " scaled from 0..100 to the extender range 0..10), /bind its Bind plugins.",
      "",
      "Point kube-scheduler at it with an extenders entry of its configuration:",
      "  extenders:",
      "  - urlPrefix: http://HOST:PORT",
      "    filterVerb: filter",
      "    prioritizeVerb: prioritize",
      "    weight: 1",
      "    nodeCacheCapable: false",
      "    ignorable: false",
      "",
      "The server has no connection to the cluster. It evaluates the request's pod against the"
          + " Node objects of the request (nodeCacheCapable: false); it knows the pods running on"
          + " those nodes, the namespaces, disruption budgets and other objects only from the"
          + " optional --state manifests (e.g. `kubectl get nodes,pods,namespaces -A -o yaml`),"
          + " read once at start. Node names (nodeCacheCapable: true) are resolved against the"
          + " nodes of --state; without --state such requests are answered with an Error."
          + " Without --state every node looks empty to the plugins (no running pods: no"
          + " requested resources, used ports or pods to (anti-)affine with).",
      "/bind binds, in the server's memory only, a pod of --state (it cannot create a Binding in"
          + " the API server): leave bindVerb unset to let kube-scheduler bind.",
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
      names = "--address",
      paramLabel = "HOST",
      defaultValue = "0.0.0.0",
      description = "The address to listen on (default: 0.0.0.0).")
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
          "Manifests of the cluster state (nodes, bound pods, namespaces, PDBs...);"
              + " repeatable.")
  List<Path> state = List.of();

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
    if (port < 0 || port > 65535) {
      err.println("--port: must be between 0 and 65535, got " + port);
      err.flush();
      return Main.EXIT_USAGE;
    }
    PluginRegistry registry = PluginRegistry.discover();
    KubeSchedulerConfiguration cfg = Main.loadConfiguration(config, registry, err, gates);
    if (cfg == null) {
      return Main.EXIT_USAGE;
    }
    InMemoryCluster cluster = new InMemoryCluster();
    if (!state.isEmpty()) {
      try {
        load(ManifestLoader.load(state), cluster, err);
      } catch (ManifestException e) {
        e.problems().forEach(err::println);
        err.flush();
        return Main.EXIT_USAGE;
      }
    }
    ExtenderServer server;
    try {
      server = new ExtenderServer(cfg, registry, profile, cluster, !state.isEmpty(), gates);
    } catch (IllegalArgumentException e) {
      err.println(config + ": " + e.getMessage());
      err.flush();
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
              + "\" as an extender on http://"
              + address
              + ":"
              + server.address().getPort()
              + " (POST /filter, /prioritize, /bind)");
      out.flush();
      stop.await();
    }
    return 0;
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
