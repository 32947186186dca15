package io.kubesched.preemption;

import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of choosing victims on one node.
 *
 * @param victims the pods to evict, most important first; empty when {@code status} is not success
 * @param numPdbViolations how many victims are evicted against their pod disruption budget
 * @param status success, or why preemption cannot help on the node
 */
public record VictimSelection(List<PodInfo> victims, int numPdbViolations, Status status) {
  /** Copies the victims. */
  public VictimSelection {
    victims = List.copyOf(victims);
    Objects.requireNonNull(status, "status must not be null");
  }

  /** Returns a failed selection carrying {@code status}. */
  public static VictimSelection failed(Status status) {
    return new VictimSelection(List.of(), 0, status);
  }
}
