package io.kubesched.cli.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders a {@link SimulationReport} as aligned plain-text tables for a terminal. */
public final class TableReport {
  private TableReport() {}

  /** Returns the report as text: placements, nodes, summary, and the explain trace if any. */
  public static String render(SimulationReport r) {
    StringBuilder sb = new StringBuilder();
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"POD", "NODE", "STATUS", "REASON"});
    for (SimulationReport.PodResult p : r.pods()) {
      String reason = p.message() == null ? "" : p.message();
      if (p.nominatedNode() != null) {
        reason = (reason.isEmpty() ? "" : reason + " ") + "(nominated: " + p.nominatedNode() + ")";
      }
      rows.add(
          new String[] {
            p.namespace() + "/" + p.name(),
            p.node() == null ? "<pending>" : p.node(),
            p.status(),
            reason
          });
    }
    table(sb, rows);
    sb.append('\n');
    rows = new ArrayList<>();
    rows.add(new String[] {"NODE", "PODS", "CPU REQUESTED", "MEMORY REQUESTED"});
    for (SimulationReport.NodeResult n : r.nodes()) {
      rows.add(
          new String[] {
            n.name(),
            n.pods().size() + "/" + n.allocatable().getOrDefault("pods", "?"),
            usage(n.requested(), n.allocatable(), "cpu", n.cpuPercent()),
            usage(n.requested(), n.allocatable(), "memory", n.memoryPercent())
          });
    }
    table(sb, rows);
    sb.append('\n');
    if (!r.claims().isEmpty()) {
      rows = new ArrayList<>();
      rows.add(new String[] {"CLAIM", "VOLUME", "PHASE"});
      for (SimulationReport.ClaimResult c : r.claims()) {
        rows.add(
            new String[] {
              c.namespace() + "/" + c.name(),
              c.volume() == null || c.volume().isEmpty() ? "<unbound>" : c.volume(),
              c.phase() == null ? "" : c.phase()
            });
      }
      table(sb, rows);
      sb.append('\n');
    }
    Map<String, Long> counts = new java.util.LinkedHashMap<>();
    for (String s : SimulationReport.STATUSES) {
      counts.put(s, 0L);
    }
    for (SimulationReport.PodResult p : r.pods()) {
      counts.merge(p.status(), 1L, Long::sum);
    }
    List<String> parts = new ArrayList<>();
    counts.forEach(
        (k, v) -> {
          if (v > 0 || k.equals("Scheduled") || k.equals("Unschedulable")) {
            parts.add(v + " " + k.toLowerCase(Locale.ROOT));
          }
        });
    sb.append(r.pods().size()).append(" pods: ").append(String.join(", ", parts));
    sb.append("; ").append(r.evicted().size()).append(" evicted");
    if (!r.evicted().isEmpty()) {
      sb.append(" (").append(String.join(", ", r.evicted())).append(')');
    }
    sb.append("; ").append(r.nodes().size()).append(" nodes\n");
    if (r.explain() != null) {
      sb.append('\n').append(explain(r.explain()));
    }
    return sb.toString();
  }

  private static String usage(
      Map<String, String> requested, Map<String, String> allocatable, String res, double pct) {
    return HumanQuantity.of(res, requested.getOrDefault(res, "0"))
        + "/"
        + HumanQuantity.of(res, allocatable.getOrDefault(res, "0"))
        + String.format(Locale.ROOT, " (%.0f%%)", pct);
  }

  /** Returns the explain trace as text. */
  public static String explain(SimulationReport.Explain e) {
    StringBuilder sb = new StringBuilder();
    sb.append("Scheduling trace of ").append(e.pod()).append(": ");
    sb.append(e.selectedNode() == null ? "no node selected" : "selected " + e.selectedNode());
    sb.append('\n');
    if (e.message() != null) {
      sb.append("  ").append(e.message()).append('\n');
    }
    for (SimulationReport.ExplainNode n : e.nodes()) {
      sb.append("  ").append(n.name()).append(": ");
      if (!"Success".equals(n.filter().code())) {
        sb.append("rejected");
        if (n.filter().plugin() != null) {
          sb.append(" by ").append(n.filter().plugin());
        }
        sb.append(" (").append(n.filter().code()).append(")");
        if (!n.filter().reasons().isEmpty()) {
          sb.append(": ").append(String.join(", ", n.filter().reasons()));
        }
      } else if (n.scores() == null) {
        sb.append("feasible, not scored");
      } else {
        sb.append("feasible, total ").append(n.total());
        List<String> s = new ArrayList<>();
        n.scores().forEach((k, v) -> s.add(k + "=" + v));
        sb.append(" [").append(String.join(" ", s)).append(']');
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private static void table(StringBuilder sb, List<String[]> rows) {
    int cols = rows.get(0).length;
    int[] w = new int[cols];
    for (String[] row : rows) {
      for (int i = 0; i < cols; i++) {
        w[i] = Math.max(w[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < cols; i++) {
        line.append(row[i]);
        if (i < cols - 1) {
          line.append(" ".repeat(w[i] - row[i].length() + 2));
        }
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
