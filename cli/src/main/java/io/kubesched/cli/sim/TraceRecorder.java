package io.kubesched.cli.sim;

import io.kubesched.cli.report.SimulationReport;
import io.kubesched.core.SchedulingAttemptListener;
import io.kubesched.core.runtime.FitError;
import io.kubesched.core.runtime.NodePluginScores;
import io.kubesched.core.runtime.NodeToStatus;
import io.kubesched.core.runtime.ScheduleResult;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Keeps the last scheduling attempt of one pod, for {@code --explain}. */
final class TraceRecorder implements SchedulingAttemptListener {
  private final String podKey;
  private volatile SimulationReport.Explain last;

  TraceRecorder(String podKey) {
    this.podKey = podKey;
  }

  @Override
  public void onAttempt(
      PodInfo pod, List<NodeInfo> nodes, ScheduleResult result, FitError fitError) {
    if (podKey == null || !podKey.equals(pod.key())) {
      return;
    }
    NodeToStatus statuses =
        result != null
            ? result.filterStatuses()
            : fitError == null ? null : fitError.diagnosis().nodeToStatus();
    Map<String, NodePluginScores> scores = new HashMap<>();
    if (result != null) {
      for (NodePluginScores s : result.scores()) {
        scores.put(s.name(), s);
      }
    }
    List<SimulationReport.ExplainNode> out = new ArrayList<>();
    for (NodeInfo n : nodes) {
      String name = n.name();
      NodePluginScores s = scores.get(name);
      Status st = null;
      if (statuses != null && statuses.explicit().containsKey(name)) {
        st = statuses.explicit().get(name);
      } else if (s == null && fitError != null && statuses != null) {
        st = statuses.absentNodesStatus();
      }
      SimulationReport.FilterOutcome f =
          st == null || st.isSuccess()
              ? new SimulationReport.FilterOutcome("Success", null, List.of())
              : new SimulationReport.FilterOutcome(
                  st.code().toString(), st.plugin(), st.allReasons());
      out.add(
          new SimulationReport.ExplainNode(
              name, f, s == null ? null : s.scores(), s == null ? null : s.totalScore()));
    }
    last =
        new SimulationReport.Explain(
            pod.key(),
            result == null ? null : result.suggestedHost(),
            out,
            fitError == null ? null : fitError.getMessage());
  }

  SimulationReport.Explain explain() {
    if (podKey == null) {
      return null;
    }
    SimulationReport.Explain e = last;
    return e != null
        ? e
        : new SimulationReport.Explain(
            podKey,
            null,
            List.of(),
            "the pod was never attempted (not found among the pending pods)");
  }
}
