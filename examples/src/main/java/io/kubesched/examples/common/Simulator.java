package io.kubesched.examples.common;

import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;

/**
 * The embedding pattern every example uses: an {@link InMemoryCluster} on simulated time, the
 * plugins found on the class path, a configuration, and the real {@link Scheduler}.
 */
public final class Simulator implements AutoCloseable {
  private final SimulatedTime time = new SimulatedTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final InMemoryCluster cluster = new InMemoryCluster(time.clock());
  private final Scheduler scheduler;

  /**
   * Creates a simulator running the configuration in class-path resource {@code configResource}.
   */
  public Simulator(String configResource) {
    PluginRegistry registry = PluginRegistry.discover();
    KubeSchedulerConfiguration cfg =
        configResource == null
            ? ConfigurationLoader.defaults(registry)
            : ConfigurationLoader.parse(resource(configResource), registry);
    scheduler =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(cfg)
            .registry(registry)
            .clock(time.clock())
            .simulatedTime(time)
            .random(new Random(0))
            .build();
    scheduler.start();
  }

  /** Returns the cluster: add nodes and pods to it. */
  public InMemoryCluster cluster() {
    return cluster;
  }

  /** Returns the simulated time. */
  public SimulatedTime time() {
    return time;
  }

  /** Schedules until no pod can make progress. */
  public void run() {
    scheduler.runUntilIdle();
  }

  @Override
  public void close() {
    scheduler.close();
  }

  private static String resource(String name) {
    try (InputStream in = Simulator.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException("no class-path resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
