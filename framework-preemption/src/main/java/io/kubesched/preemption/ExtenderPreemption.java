package io.kubesched.preemption;

import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreemptionExtender;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets the preemption-capable extenders narrow the dry run's candidates (kube's {@code
 * Evaluator.callExtenders}): each interested extender gets the current node-to-victims map and
 * returns the nodes it accepts with their victims, which the next extender receives. An error, or
 * an accepted node without victims, fails preemption unless the extender is ignorable (then the
 * error or the node is skipped). An empty map stops the chain.
 */
final class ExtenderPreemption {
  private static final Logger log = LoggerFactory.getLogger(ExtenderPreemption.class);

  private ExtenderPreemption() {}

  /**
   * The candidates after the extenders, or the error status that ends preemption.
   *
   * @param candidates the remaining candidates, in the order the extenders left them
   * @param status success, or the error
   */
  record Outcome(List<Candidate> candidates, Status status) {}

  static Outcome call(
      List<? extends PreemptionExtender> extenders,
      PodInfo pod,
      List<Candidate> candidates,
      NodeInfoLister nodeInfos) {
    if (extenders.isEmpty() || candidates.isEmpty()) {
      return new Outcome(candidates, Status.success());
    }
    Map<String, PreemptionExtender.Victims> victims = new LinkedHashMap<>();
    for (Candidate c : candidates) {
      victims.put(c.name(), new PreemptionExtender.Victims(c.victims(), c.numPdbViolations()));
    }
    boolean changed = false;
    for (PreemptionExtender e : extenders) {
      if (!e.supportsPreemption() || !e.isInterested(pod)) {
        continue;
      }
      Map<String, PreemptionExtender.Victims> result;
      try {
        result = new LinkedHashMap<>(e.processPreemption(pod, victims, nodeInfos));
      } catch (SchedulingException ex) {
        if (e.isIgnorable()) {
          log.atInfo()
              .setMessage("skipped extender as it returned error and has ignorable flag set")
              .addKeyValue("pod", pod.key())
              .addKeyValue("extender", e.name())
              .addKeyValue("err", ex.getMessage())
              .log();
          continue;
        }
        return new Outcome(List.of(), Status.error(ex));
      }
      for (String node : List.copyOf(result.keySet())) {
        PreemptionExtender.Victims v = result.get(node);
        if (v == null || v.pods().isEmpty()) {
          if (e.isIgnorable()) {
            result.remove(node);
            log.atInfo()
                .setMessage("ignored node for which the extender didn't report victims")
                .addKeyValue("node", node)
                .addKeyValue("extender", e.name())
                .log();
            continue;
          }
          return new Outcome(
              List.of(), Status.error("expected at least one victim pod on node \"" + node + "\""));
        }
      }
      victims = result;
      changed = true;
      if (victims.isEmpty()) {
        break;
      }
    }
    if (!changed) {
      return new Outcome(candidates, Status.success());
    }
    List<Candidate> out = new ArrayList<>(victims.size());
    victims.forEach(
        (node, v) -> out.add(new Candidate(node, v.pods(), (int) v.numPdbViolations())));
    return new Outcome(out, Status.success());
  }
}
