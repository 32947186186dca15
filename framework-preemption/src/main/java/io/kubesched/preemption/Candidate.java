package io.kubesched.preemption;

import io.kubesched.framework.PodInfo;
import java.util.List;
import java.util.Objects;

/**
 * A node on which the preemptor would fit once {@code victims} are evicted (kube's {@code
 * preemption.Candidate} with its {@code extenderv1.Victims}).
 *
 * @param name the node name
 * @param victims the pods to evict, most important first; never {@code null}
 * @param numPdbViolations how many victims are evicted against their pod disruption budget
 */
public record Candidate(String name, List<PodInfo> victims, int numPdbViolations) {
  /** Copies the victims. */
  public Candidate {
    Objects.requireNonNull(name, "name must not be null");
    victims = List.copyOf(victims);
  }
}
