package io.kubesched.benchmarks;

import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.ExecutorParallelizer;
import io.kubesched.core.runtime.Framework;
import io.kubesched.core.runtime.FrameworkContext;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.runtime.WaitingPods;
import io.kubesched.framework.NodeInfoLister;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/** Builds the default profile's {@link Framework} over a snapshot, single-threaded. */
public final class DefaultProfile {
  private DefaultProfile() {}

  /** Returns the default-profile framework reading nodes from {@code snapshot}. */
  public static Framework create(InMemoryCluster cluster, Supplier<NodeInfoLister> snapshot) {
    PluginRegistry registry = PluginRegistry.discover();
    KubeSchedulerConfiguration cfg = ConfigurationLoader.defaults(registry);
    ScheduledExecutorService timers =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bench-timers");
              t.setDaemon(true);
              return t;
            });
    FrameworkContext ctx =
        new FrameworkContext(
            cluster,
            cluster,
            Clock.systemUTC(),
            ExecutorParallelizer.callerRuns(),
            null,
            snapshot,
            new WaitingPods(timers),
            null,
            null);
    return Framework.create(cfg.profiles().get(0), cfg.percentageOfNodesToScore(), registry, ctx);
  }
}
