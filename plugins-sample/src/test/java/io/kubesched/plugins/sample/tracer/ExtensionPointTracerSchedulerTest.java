package io.kubesched.plugins.sample.tracer;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tracer enabled with multiPoint shows the scheduling flow of one pod, in order. */
final class ExtensionPointTracerSchedulerTest {
  @Test
  void tracesEveryExtensionPointInOrder() {
    List<TraceEvent> events = new ArrayList<>();
    PluginRegistry registry = PluginRegistry.empty();
    PluginRegistry.discover()
        .providers()
        .forEach(
            (name, p) -> {
              if (!name.equals(ExtensionPointTracer.NAME)) {
                registry.register(p);
              }
            });
    registry.register(
        new PluginProvider<ExtensionPointTracerArgs>() {
          @Override
          public String name() {
            return ExtensionPointTracer.NAME;
          }

          @Override
          public Class<ExtensionPointTracerArgs> argsType() {
            return ExtensionPointTracerArgs.class;
          }

          @Override
          public ExtensionPointTracerArgs defaultArgs() {
            return ExtensionPointTracerArgs.defaults();
          }

          @Override
          public Class<? extends Plugin> pluginType() {
            return ExtensionPointTracer.class;
          }

          @Override
          public Plugin create(ExtensionPointTracerArgs args, FrameworkHandle h) {
            return new ExtensionPointTracer(events::add, System::nanoTime);
          }
        });
    SimulatedTime time = new SimulatedTime(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryCluster cluster = new InMemoryCluster(time.clock());
    String cfg =
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - plugins:
            multiPoint:
              enabled: [{name: ExtensionPointTracer}]
        """;
    try (Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(ConfigurationLoader.parse(cfg, registry))
            .registry(registry)
            .simulatedTime(time)
            .random(new Random(0))
            .build()) {
      s.start();
      cluster.addNode(MakeNode.node().name("n1").capacity("cpu", "4", "memory", "8Gi").obj());
      cluster.addNode(MakeNode.node().name("n2").capacity("cpu", "4", "memory", "8Gi").obj());
      cluster.addPod(MakePod.pod().name("p").req("cpu", "1").obj());
      s.runUntilIdle();
    }
    List<String> points =
        new ArrayList<>(
            new LinkedHashSet<>(events.stream().map(TraceEvent::extensionPoint).toList()));
    // Bind is not reached: DefaultBinder comes first in the expanded Bind list and binds.
    assertThat(points)
        .containsExactly(
            "PreEnqueue",
            "PreFilter",
            "Filter",
            "PreScore",
            "Score",
            "NormalizeScore",
            "Reserve",
            "Permit",
            "PreBind",
            "PostBind");
    assertThat(
            events.stream()
                .filter(e -> e.extensionPoint().equals("Filter"))
                .map(TraceEvent::node)
                .sorted()
                .toList())
        .containsExactly("n1", "n2");
  }
}
