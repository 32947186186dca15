package io.kubesched.core.config;

import java.time.Duration;
import java.util.List;

/**
 * An HTTP extender ({@code extenders[]}).
 *
 * @param urlPrefix the base URL, without trailing slash
 * @param filterVerb the filter verb, or {@code ""}
 * @param preemptVerb the preempt verb, or {@code ""}
 * @param prioritizeVerb the prioritize verb, or {@code ""}
 * @param bindVerb the bind verb, or {@code ""}
 * @param weight the prioritize weight
 * @param enableHttps whether to use TLS
 * @param httpTimeout the request timeout (5 s by default)
 * @param nodeCacheCapable whether to send node names only
 * @param managedResources the extended resources the extender manages
 * @param ignorable whether its errors are ignored
 * @param tlsConfig the TLS settings, or {@code null} when none are given
 */
public record ExtenderConfig(
    String urlPrefix,
    String filterVerb,
    String preemptVerb,
    String prioritizeVerb,
    String bindVerb,
    long weight,
    boolean enableHttps,
    Duration httpTimeout,
    boolean nodeCacheCapable,
    List<ManagedResource> managedResources,
    boolean ignorable,
    ExtenderTlsConfig tlsConfig) {

  /** Copies the list. */
  public ExtenderConfig {
    managedResources = managedResources == null ? List.of() : List.copyOf(managedResources);
  }

  /** Creates an extender configuration without TLS settings. */
  public ExtenderConfig(
      String urlPrefix,
      String filterVerb,
      String preemptVerb,
      String prioritizeVerb,
      String bindVerb,
      long weight,
      boolean enableHttps,
      Duration httpTimeout,
      boolean nodeCacheCapable,
      List<ManagedResource> managedResources,
      boolean ignorable) {
    this(
        urlPrefix,
        filterVerb,
        preemptVerb,
        prioritizeVerb,
        bindVerb,
        weight,
        enableHttps,
        httpTimeout,
        nodeCacheCapable,
        managedResources,
        ignorable,
        null);
  }

  /**
   * A resource an extender manages.
   *
   * @param name the extended resource name
   * @param ignoredByScheduler whether NodeResourcesFit ignores it
   */
  public record ManagedResource(String name, boolean ignoredByScheduler) {}
}
