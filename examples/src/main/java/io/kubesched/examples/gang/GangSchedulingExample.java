package io.kubesched.examples.gang;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.examples.common.Objects;
import io.kubesched.examples.common.Simulator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gang scheduling with the Coscheduling plugin on two 4-CPU nodes: group {@code train-a} (3 pods of
 * 1 CPU, minMember 3) fits and is bound whole; group {@code train-b} (4 pods of 3 CPU, minMember 4)
 * cannot fit and binds nothing — the members that found a node wait at Permit and are released when
 * a sibling fits nowhere.
 *
 * <p>Run: {@code mvn -B -ntp -pl examples -am compile exec:java
 * -Dexec.mainClass=io.kubesched.examples.gang.GangSchedulingExample}
 */
public final class GangSchedulingExample {
  private GangSchedulingExample() {}

  /** Runs the example and returns pod name → node ({@code null} when not bound). */
  public static Map<String, String> run() {
    try (Simulator sim = new Simulator("gang-scheduler.yaml")) {
      sim.cluster().addNode(Objects.node("node-0", "4", "16Gi"));
      sim.cluster().addNode(Objects.node("node-1", "4", "16Gi"));
      podGroup(sim, "train-a", 3, "2026-01-01T00:00:00Z");
      podGroup(sim, "train-b", 4, "2026-01-01T00:00:01Z");
      Map<String, String> placements = new LinkedHashMap<>();
      for (int i = 0; i < 3; i++) {
        addMember(sim, "train-a", i, "1");
      }
      for (int i = 0; i < 4; i++) {
        addMember(sim, "train-b", i, "3");
      }
      sim.run();
      for (String g : List.of("train-a", "train-b")) {
        for (int i = 0; i < (g.equals("train-a") ? 3 : 4); i++) {
          placements.put(g + "-" + i, Objects.nodeOf(sim, "ml", g + "-" + i));
        }
      }
      return placements;
    }
  }

  private static void podGroup(Simulator sim, String name, int minMember, String created) {
    sim.cluster()
        .createCustomObject(
            Map.of(
                "apiVersion",
                "scheduling.x-k8s.io/v1alpha1",
                "kind",
                "PodGroup",
                "metadata",
                Map.of("namespace", "ml", "name", name, "creationTimestamp", created),
                "spec",
                Map.of("minMember", minMember, "scheduleTimeoutSeconds", 10)));
  }

  private static void addMember(Simulator sim, String group, int i, String cpu) {
    V1Pod p = Objects.pod("ml", group + "-" + i, cpu, "1Gi");
    p.getMetadata().putLabelsItem("scheduling.x-k8s.io/pod-group", group);
    sim.cluster().addPod(p);
  }

  /** Prints where each pod went. */
  public static void main(String[] args) {
    run()
        .forEach(
            (pod, node) -> System.out.println(pod + " -> " + (node == null ? "<pending>" : node)));
  }
}
