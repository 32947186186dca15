package io.kubesched.examples.reservation;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.examples.common.Objects;
import io.kubesched.examples.common.Simulator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Capacity held back for a pod being recreated: {@code db/db-0} (5 CPU) ran on the 8-CPU {@code
 * node-0} and is being recreated; the node carries {@code reserve.cpu/<old-uid>: 5000m} and {@code
 * reserve.owner/<old-uid>: db/db-0}. Three 2-CPU batch pods arrive first and try to take the node;
 * only one fits beside the reservation. The recreated {@code db-0} (a new UID, the same name) then
 * gets its place back.
 *
 * <p>Run: {@code mvn -B -ntp -pl examples -am compile exec:java
 * -Dexec.mainClass=io.kubesched.examples.reservation.ReservationExample}
 */
public final class ReservationExample {
  private ReservationExample() {}

  /**
   * Runs the example and returns pod name → node.
   *
   * @param withReservationPlugin {@code false} runs the default plugins only, for comparison
   */
  public static Map<String, String> run(boolean withReservationPlugin) {
    try (Simulator sim =
        new Simulator(withReservationPlugin ? "reservation-scheduler.yaml" : null)) {
      V1Node big = Objects.node("node-0", "8", "32Gi");
      big.getMetadata().putAnnotationsItem("reserve.cpu/0f3c-old-uid", "5000m");
      big.getMetadata().putAnnotationsItem("reserve.owner/0f3c-old-uid", "db/db-0");
      sim.cluster().addNode(big);
      sim.cluster().addNode(Objects.node("node-1", "2", "8Gi"));
      for (int i = 0; i < 3; i++) {
        sim.cluster().addPod(Objects.pod("batch", "batch-" + i, "2", "1Gi"));
      }
      sim.run();
      V1Pod db = Objects.pod("db", "db-0", "5", "8Gi");
      db.getMetadata().setUid("7a1d-new-uid");
      sim.cluster().addPod(db);
      sim.run();
      Map<String, String> placements = new LinkedHashMap<>();
      for (int i = 0; i < 3; i++) {
        placements.put("batch-" + i, Objects.nodeOf(sim, "batch", "batch-" + i));
      }
      placements.put("db-0", Objects.nodeOf(sim, "db", "db-0"));
      return placements;
    }
  }

  /** Prints where each pod went, with and without the plugin. */
  public static void main(String[] args) {
    System.out.println("with ResourceReservation:");
    run(true)
        .forEach(
            (pod, node) ->
                System.out.println("  " + pod + " -> " + (node == null ? "<pending>" : node)));
    System.out.println("default plugins only:");
    run(false)
        .forEach(
            (pod, node) ->
                System.out.println("  " + pod + " -> " + (node == null ? "<pending>" : node)));
  }
}
