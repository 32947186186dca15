package io.kubesched.cli;

import io.kubesched.core.config.GoDuration;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.config.KubeSchedulerConfiguration.ClientConnection;
import io.kubesched.core.config.KubeSchedulerConfiguration.LeaderElection;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * kube-scheduler's command-line flags on {@code kubesched run}, so that the command lines of the
 * field's manifests and guides work unchanged: the client flags ({@code --kubeconfig}, {@code
 * --master}, {@code --kube-api-qps}, {@code --kube-api-burst}, {@code --kube-api-content-type}),
 * the leader-election flags, {@code --write-config-to}, and the flags of kube's secure serving and
 * delegated authentication/authorization, which are accepted with a one-line notice (kubesched
 * serves {@code /healthz} and {@code /metrics} over plain HTTP).
 *
 * <p>As in kube-scheduler, a leader-election flag overrides the configuration's {@code
 * leaderElection} field only when it is given. The client flags also override {@code
 * clientConnection} when given (kube-scheduler ignores them when {@code --config} is given).
 */
final class KubeSchedulerFlags {
  @Option(
      names = "--kubeconfig",
      paramLabel = "PATH",
      description = "Path to a kubeconfig file of the cluster (default: see above).")
  Path kubeconfig;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description = "The address of the Kubernetes API server (overrides any value in kubeconfig).")
  String master;

  @Option(
      names = "--kube-api-qps",
      paramLabel = "QPS",
      description =
          "QPS to use while talking with the API server (default: clientConnection.qps, 50);"
              + " every request takes a token of a client-side token bucket, as in client-go.")
  Float qps;

  @Option(
      names = "--kube-api-burst",
      paramLabel = "N",
      description =
          "Burst to use while talking with the API server (default: clientConnection.burst, 100).")
  Integer burst;

  @Option(
      names = "--kube-api-content-type",
      paramLabel = "TYPE",
      description =
          "Content type of requests sent to the API server (accepted; kubesched's client speaks"
              + " application/json).")
  String contentType;

  @Option(
      names = "--leader-elect",
      arity = "0..1",
      paramLabel = "BOOL",
      description =
          "Start a leader election client and gain leadership before scheduling (default:"
              + " leaderElection.leaderElect of the configuration, true).")
  Boolean leaderElect;

  @Option(
      names = "--leader-elect-lease-duration",
      paramLabel = "DURATION",
      description = "How long a standby waits before taking over an unrenewed lease (15s).")
  String leaseDuration;

  @Option(
      names = "--leader-elect-renew-deadline",
      paramLabel = "DURATION",
      description = "How long the leader tries to renew before it stops leading (10s).")
  String renewDeadline;

  @Option(
      names = "--leader-elect-retry-period",
      paramLabel = "DURATION",
      description = "How long clients wait between attempts to acquire or renew (2s).")
  String retryPeriod;

  @Option(
      names = "--leader-elect-resource-lock",
      paramLabel = "KIND",
      description = "The type of the lock object; only 'leases' is supported.")
  String resourceLock;

  @Option(
      names = "--leader-elect-resource-name",
      paramLabel = "NAME",
      description = "The name of the Lease (kube-scheduler).")
  String resourceName;

  @Option(
      names = "--leader-elect-resource-namespace",
      paramLabel = "NAMESPACE",
      description = "The namespace of the Lease (kube-system).")
  String resourceNamespace;

  @Option(
      names = "--write-config-to",
      paramLabel = "FILE",
      description = "Write the configuration values (with every default) to this file and exit.")
  Path writeConfigTo;

  @Option(
      names = "--secure-port",
      paramLabel = "PORT",
      description = "Accepted for kube-scheduler's command lines; see --metrics-port.")
  Integer securePort;

  @Option(
      names = "--bind-address",
      paramLabel = "IP",
      description = "Accepted for kube-scheduler's command lines; see --metrics-address.")
  String bindAddress;

  @Option(
      names = "--profiling",
      arity = "0..1",
      paramLabel = "BOOL",
      description = "Accepted for kube-scheduler's command lines; kubesched serves no pprof.")
  Boolean profiling;

  @Option(
      names = "--authentication-kubeconfig",
      paramLabel = "PATH",
      description = "Accepted for kube-scheduler's command lines; not read.")
  String authenticationKubeconfig;

  @Option(
      names = "--authorization-kubeconfig",
      paramLabel = "PATH",
      description = "Accepted for kube-scheduler's command lines; not read.")
  String authorizationKubeconfig;

  /** Prints one line for each accepted kube-scheduler flag that kubesched does not act on. */
  void printNotices(PrintWriter err, String metricsAddress, int metricsPort) {
    String http = "plain HTTP on " + metricsAddress + ":" + metricsPort;
    if (securePort != null) {
      err.println(
          "--secure-port: kubesched serves /healthz and /metrics over "
              + http
              + " (--metrics-address, --metrics-port), not HTTPS");
    }
    if (bindAddress != null) {
      err.println(
          "--bind-address: kubesched serves /healthz and /metrics over "
              + http
              + " (set --metrics-address instead)");
    }
    if (profiling != null) {
      err.println("--profiling: kubesched serves no pprof endpoints");
    }
    if (authenticationKubeconfig != null) {
      err.println(
          "--authentication-kubeconfig: not read; /healthz and /metrics are served without"
              + " authentication over "
              + http);
    }
    if (authorizationKubeconfig != null) {
      err.println(
          "--authorization-kubeconfig: not read; /healthz and /metrics are served without"
              + " authorization over "
              + http);
    }
    if (contentType != null && !contentType.startsWith("application/json")) {
      err.println(
          "--kube-api-content-type: kubesched's client sends application/json, not " + contentType);
    }
    err.flush();
  }

  /**
   * Returns {@code cfg} with the flags given applied over {@code leaderElection} and {@code
   * clientConnection}.
   *
   * @throws IllegalArgumentException with pflag's message when a duration is invalid
   */
  KubeSchedulerConfiguration applyTo(KubeSchedulerConfiguration cfg) {
    LeaderElection le = cfg.leaderElection();
    LeaderElection newLe =
        new LeaderElection(
            leaderElect != null ? leaderElect : le.leaderElect(),
            duration("--leader-elect-lease-duration", leaseDuration, le.leaseDuration()),
            duration("--leader-elect-renew-deadline", renewDeadline, le.renewDeadline()),
            duration("--leader-elect-retry-period", retryPeriod, le.retryPeriod()),
            resourceLock != null ? resourceLock : le.resourceLock(),
            resourceName != null ? resourceName : le.resourceName(),
            resourceNamespace != null ? resourceNamespace : le.resourceNamespace());
    ClientConnection cc = cfg.clientConnection();
    ClientConnection newCc =
        new ClientConnection(
            kubeconfig != null ? kubeconfig.toString() : cc.kubeconfig(),
            cc.acceptContentTypes(),
            contentType != null ? contentType : cc.contentType(),
            qps != null ? qps : cc.qps(),
            burst != null ? burst : cc.burst());
    return new KubeSchedulerConfiguration(
        cfg.parallelism(),
        cfg.percentageOfNodesToScore(),
        cfg.podInitialBackoff(),
        cfg.podMaxBackoff(),
        cfg.profiles(),
        cfg.extenders(),
        newLe,
        newCc,
        cfg.enableProfiling(),
        cfg.enableContentionProfiling(),
        cfg.delayCacheUntilActive());
  }

  private static Duration duration(String flag, String value, Duration dflt) {
    if (value == null) {
      return dflt;
    }
    try {
      return GoDuration.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid argument \"" + value + "\" for \"" + flag + "\" flag: time: " + e.getMessage(),
          e);
    }
  }
}
