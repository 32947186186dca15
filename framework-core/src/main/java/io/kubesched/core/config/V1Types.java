package io.kubesched.core.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The {@code kubescheduler.config.k8s.io/v1} wire types, before defaulting: every optional field is
 * nullable, component names are the YAML keys, so that {@link ArgsCodec} decodes them strictly.
 */
final class V1Types {
  private V1Types() {}

  /** {@code KubeSchedulerConfiguration} without {@code apiVersion}/{@code kind}. */
  record Configuration(
      Integer parallelism,
      LeaderElection leaderElection,
      ClientConnection clientConnection,
      Boolean enableProfiling,
      Boolean enableContentionProfiling,
      Integer percentageOfNodesToScore,
      Long podInitialBackoffSeconds,
      Long podMaxBackoffSeconds,
      List<Profile> profiles,
      List<Extender> extenders,
      Boolean delayCacheUntilActive) {
    static final Configuration EMPTY =
        new Configuration(
            null, null, null, null, null, null, null, null, List.of(), List.of(), null);
  }

  /** {@code componentbaseconfigv1alpha1.LeaderElectionConfiguration}. */
  record LeaderElection(
      Boolean leaderElect,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod,
      String resourceLock,
      String resourceName,
      String resourceNamespace) {}

  /** {@code componentbaseconfigv1alpha1.ClientConnectionConfiguration}. */
  record ClientConnection(
      String kubeconfig, String acceptContentTypes, String contentType, Float qps, Integer burst) {}

  /** {@code KubeSchedulerProfile}. */
  record Profile(
      String schedulerName,
      Integer percentageOfNodesToScore,
      Plugins plugins,
      List<PluginConfig> pluginConfig) {
    static final Profile EMPTY = new Profile(null, null, null, List.of());
  }

  /** {@code Plugins}. */
  record Plugins(
      PluginSet preEnqueue,
      PluginSet queueSort,
      PluginSet preFilter,
      PluginSet filter,
      PluginSet postFilter,
      PluginSet preScore,
      PluginSet score,
      PluginSet reserve,
      PluginSet permit,
      PluginSet preBind,
      PluginSet bind,
      PluginSet postBind,
      PluginSet multiPoint) {}

  /** {@code PluginSet}. */
  record PluginSet(List<Plugin> enabled, List<Plugin> disabled) {}

  /** {@code Plugin}. */
  record Plugin(String name, Integer weight) {}

  /** {@code PluginConfig}; the args stay as parsed until the provider is known. */
  record PluginConfig(String name, Map<String, Object> args) {}

  /** {@code Extender}. */
  record Extender(
      String urlPrefix,
      String filterVerb,
      String preemptVerb,
      String prioritizeVerb,
      Long weight,
      String bindVerb,
      Boolean enableHTTPS,
      ExtenderTlsConfig tlsConfig,
      Duration httpTimeout,
      Boolean nodeCacheCapable,
      List<ManagedResource> managedResources,
      Boolean ignorable) {}

  /** {@code ExtenderManagedResource}. */
  record ManagedResource(String name, Boolean ignoredByScheduler) {}
}
