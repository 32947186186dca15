package io.kubesched.examples.customscheduler;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.examples.common.Objects;
import io.kubesched.examples.common.Simulator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A custom scheduler: the profile {@code my-scheduler} of {@code my-scheduler.yaml} adds the
 * out-of-tree {@link NodeNumber} plugin (found by ServiceLoader), RandomScore at weight 300 and the
 * ExtensionPointTracer at every extension point to the default plugins. Pods that name {@code
 * my-scheduler} in {@code spec.schedulerName} are scheduled by it; the others by {@code
 * default-scheduler}, in the same process.
 *
 * <p>Run: {@code mvn -B -ntp -pl examples -am compile exec:java
 * -Dexec.mainClass=io.kubesched.examples.customscheduler.CustomSchedulerExample}
 */
public final class CustomSchedulerExample {
  private CustomSchedulerExample() {}

  /** Schedules six pods, half with each scheduler, and returns pod name → node. */
  public static Map<String, String> run() {
    try (Simulator sim = new Simulator("my-scheduler.yaml")) {
      for (int i = 0; i < 4; i++) {
        sim.cluster().addNode(Objects.node("node-" + i, "8", "32Gi"));
      }
      for (int i = 0; i < 6; i++) {
        V1Pod p = Objects.pod("default", "web-" + i, "500m", "512Mi");
        if (i % 2 == 0) {
          p.getSpec().setSchedulerName("my-scheduler");
        }
        sim.cluster().addPod(p);
      }
      sim.run();
      Map<String, String> placements = new LinkedHashMap<>();
      for (int i = 0; i < 6; i++) {
        placements.put("web-" + i, Objects.nodeOf(sim, "default", "web-" + i));
      }
      return placements;
    }
  }

  /** Prints where each pod went. */
  public static void main(String[] args) {
    run().forEach((pod, node) -> System.out.println(pod + " -> " + node));
  }
}
