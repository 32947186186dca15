package io.kubesched.core.config;

import java.time.Duration;
import java.util.List;

/**
 * A {@code kubescheduler.config.k8s.io/v1} {@code KubeSchedulerConfiguration} after defaulting,
 * merging into the default plugins and validation.
 *
 * @param parallelism the number of workers for Filter and Score (16)
 * @param percentageOfNodesToScore the global percentage, 0 for adaptive
 * @param podInitialBackoff the initial backoff (1 s)
 * @param podMaxBackoff the maximum backoff (10 s)
 * @param profiles the profiles, at least one
 * @param extenders the HTTP extenders shared by all profiles
 * @param leaderElection the leader-election settings
 * @param clientConnection the API client settings
 * @param enableProfiling whether profiling is enabled
 * @param enableContentionProfiling whether contention profiling is enabled
 * @param delayCacheUntilActive whether to wait for leadership before filling the cache
 */
public record KubeSchedulerConfiguration(
    int parallelism,
    int percentageOfNodesToScore,
    Duration podInitialBackoff,
    Duration podMaxBackoff,
    List<Profile> profiles,
    List<ExtenderConfig> extenders,
    LeaderElection leaderElection,
    ClientConnection clientConnection,
    boolean enableProfiling,
    boolean enableContentionProfiling,
    boolean delayCacheUntilActive) {

  /** Copies the lists. */
  public KubeSchedulerConfiguration {
    profiles = List.copyOf(profiles);
    extenders = extenders == null ? List.of() : List.copyOf(extenders);
  }

  /**
   * Leader election settings ({@code leaderElection}).
   *
   * @param leaderElect whether to elect a leader
   * @param leaseDuration the lease duration (15 s)
   * @param renewDeadline the renew deadline (10 s)
   * @param retryPeriod the retry period (2 s)
   * @param resourceLock the lock kind ({@code leases})
   * @param resourceName the lock name ({@code kube-scheduler})
   * @param resourceNamespace the lock namespace ({@code kube-system})
   */
  public record LeaderElection(
      boolean leaderElect,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod,
      String resourceLock,
      String resourceName,
      String resourceNamespace) {}

  /**
   * API client settings ({@code clientConnection}).
   *
   * @param kubeconfig the kubeconfig path, or {@code ""}
   * @param acceptContentTypes the accepted content types
   * @param contentType the content type ({@code application/vnd.kubernetes.protobuf})
   * @param qps the queries per second (50)
   * @param burst the burst (100)
   */
  public record ClientConnection(
      String kubeconfig, String acceptContentTypes, String contentType, float qps, int burst) {}
}
