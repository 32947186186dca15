package io.kubesched.plugins.sample;

import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.CoreEvent;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.PluginProvider;
import java.time.Instant;
import java.util.List;
import java.util.Random;

/** The real scheduler on an in-memory cluster and simulated time, for the samples' tests. */
public final class SampleScheduler implements AutoCloseable {
  public final SimulatedTime time = new SimulatedTime(Instant.parse("2026-01-01T00:00:00Z"));
  public final InMemoryCluster cluster = new InMemoryCluster(time.clock());
  public final Scheduler scheduler;

  /** Starts a scheduler running {@code configYaml}. */
  public SampleScheduler(String configYaml) {
    this(configYaml, List.of());
  }

  /**
   * Starts a scheduler running {@code configYaml} with test plugins besides the discovered ones.
   */
  public SampleScheduler(String configYaml, List<PluginProvider<?>> extra) {
    PluginRegistry registry = PluginRegistry.discover();
    extra.forEach(registry::register);
    scheduler =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(ConfigurationLoader.parse(configYaml, registry))
            .registry(registry)
            .simulatedTime(time)
            .random(new Random(0))
            .build();
    scheduler.start();
  }

  /** Returns the node {@code ns/name} is bound to, or {@code null}. */
  public String nodeOf(String ns, String name) {
    return cluster.getPod(ns, name).map(p -> p.getSpec().getNodeName()).orElse(null);
  }

  /** Returns the names of the pods that got a {@code Scheduled} event. */
  public List<String> scheduledEvents() {
    return cluster.events().stream()
        .filter(e -> "Scheduled".equals(e.reason()))
        .map(CoreEvent::regardingName)
        .toList();
  }

  @Override
  public void close() {
    scheduler.close();
  }
}
