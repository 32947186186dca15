package io.kubesched.cli.report;

import java.util.Locale;

/**
 * Renders a {@link SimulationReport} as one self-contained HTML page (inline CSS, no scripts, no
 * network fetches): a utilisation chart per node, the placements, and the explain trace.
 */
public final class HtmlReport {
  private HtmlReport() {}

  /** Returns the page. */
  public static String render(SimulationReport r) {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>kubesched simulation</title>\n<style>\n")
        .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}")
        .append("h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}")
        .append("table{border-collapse:collapse;font-size:.9em}")
        .append("td,th{border-bottom:1px solid #ddd;padding:.3em .7em;text-align:left;")
        .append("vertical-align:top}")
        .append(".bar{width:220px;background:#eee;height:12px;border-radius:3px;")
        .append("display:inline-block;vertical-align:middle}")
        .append(".fill{height:12px;border-radius:3px}.cpu{background:#3b82f6}")
        .append(".mem{background:#10b981}.Scheduled{color:#15803d}.Unschedulable{color:#b91c1c}")
        .append(".Error{color:#b91c1c}.Waiting,.SchedulingGated{color:#a16207}")
        .append(
            ".summary{font-weight:600}td:first-child{white-space:nowrap}\n</style>\n</head>\n<body>\n")
        .append("<h1>kubesched simulation</h1>\n");
    long scheduled = r.pods().stream().filter(p -> "Scheduled".equals(p.status())).count();
    sb.append("<p class=\"summary\">")
        .append(r.pods().size())
        .append(" pods, ")
        .append(scheduled)
        .append(" scheduled, ")
        .append(r.pods().size() - scheduled)
        .append(" not scheduled, ")
        .append(r.evicted().size())
        .append(" evicted, ")
        .append(r.nodes().size())
        .append(" nodes</p>\n");
    sb.append("<h2>Node utilisation</h2>\n<table>\n<tr><th>Node</th><th>Pods</th>")
        .append("<th>CPU requested</th><th></th><th>Memory requested</th><th></th></tr>\n");
    for (SimulationReport.NodeResult n : r.nodes()) {
      sb.append("<tr><td>")
          .append(esc(n.name()))
          .append("</td><td>")
          .append(n.pods().size())
          .append(" / ")
          .append(esc(n.allocatable().getOrDefault("pods", "-")))
          .append("</td><td>")
          .append(esc(n.requested().getOrDefault("cpu", "0")))
          .append(" / ")
          .append(esc(n.allocatable().getOrDefault("cpu", "0")))
          .append("</td><td>")
          .append(bar("cpu", n.cpuPercent()))
          .append("</td><td>")
          .append(esc(HumanQuantity.of("memory", n.requested().getOrDefault("memory", "0"))))
          .append(" / ")
          .append(esc(HumanQuantity.of("memory", n.allocatable().getOrDefault("memory", "0"))))
          .append("</td><td>")
          .append(bar("mem", n.memoryPercent()))
          .append("</td></tr>\n");
    }
    sb.append("</table>\n<h2>Placements</h2>\n<table>\n")
        .append("<tr><th>Pod</th><th>Node</th><th>Status</th><th>Message</th></tr>\n");
    for (SimulationReport.PodResult p : r.pods()) {
      sb.append("<tr><td>")
          .append(esc(p.namespace() + "/" + p.name()))
          .append("</td><td>")
          .append(p.node() == null ? "&lt;pending&gt;" : esc(p.node()))
          .append("</td><td class=\"")
          .append(esc(p.status()))
          .append("\">")
          .append(esc(p.status()))
          .append("</td><td>")
          .append(p.message() == null ? "" : esc(p.message()));
      if (p.nominatedNode() != null) {
        sb.append(" (nominated: ").append(esc(p.nominatedNode())).append(')');
      }
      sb.append("</td></tr>\n");
    }
    sb.append("</table>\n");
    if (!r.evicted().isEmpty()) {
      sb.append("<h2>Evicted by preemption</h2>\n<ul>\n");
      for (String e : r.evicted()) {
        sb.append("<li>").append(esc(e)).append("</li>\n");
      }
      sb.append("</ul>\n");
    }
    if (r.explain() != null) {
      explain(sb, r.explain());
    }
    sb.append("</body>\n</html>\n");
    return sb.toString();
  }

  /**
   * The explain trace as a table: a row per node with its filter verdict (the rejecting plugin,
   * code and reasons), each Score plugin's normalised score and the weighted total.
   */
  private static void explain(StringBuilder sb, SimulationReport.Explain e) {
    sb.append("<h2>Scheduling trace of ")
        .append(esc(e.pod()))
        .append("</h2>\n<p>")
        .append(e.selectedNode() == null ? "No node selected." : "Selected ")
        .append(e.selectedNode() == null ? "" : esc(e.selectedNode()) + ".");
    if (e.message() != null) {
      sb.append(' ').append(esc(e.message()));
    }
    sb.append("</p>\n");
    java.util.Set<String> plugins = new java.util.LinkedHashSet<>();
    for (SimulationReport.ExplainNode n : e.nodes()) {
      if (n.scores() != null) {
        plugins.addAll(n.scores().keySet());
      }
    }
    sb.append("<table>\n<tr><th>Node</th><th>Filter</th>");
    for (String p : plugins) {
      sb.append("<th>").append(esc(p)).append("</th>");
    }
    sb.append("<th>Total</th></tr>\n");
    for (SimulationReport.ExplainNode n : e.nodes()) {
      boolean feasible = "Success".equals(n.filter().code());
      sb.append("<tr><td>").append(esc(n.name())).append("</td><td class=\"");
      sb.append(feasible ? "Scheduled\">feasible" : "Unschedulable\">rejected");
      if (!feasible) {
        if (n.filter().plugin() != null) {
          sb.append(" by ").append(esc(n.filter().plugin()));
        }
        sb.append(" (").append(esc(n.filter().code())).append(')');
        if (!n.filter().reasons().isEmpty()) {
          sb.append(": ").append(esc(String.join(", ", n.filter().reasons())));
        }
      }
      sb.append("</td>");
      for (String p : plugins) {
        Long v = n.scores() == null ? null : n.scores().get(p);
        sb.append("<td>").append(v == null ? "" : v).append("</td>");
      }
      sb.append("<td>")
          .append(n.scores() == null ? (feasible ? "not scored" : "") : n.total())
          .append("</td></tr>\n");
    }
    sb.append("</table>\n");
  }

  private static String bar(String cls, double pct) {
    double w = Math.max(0, Math.min(100, pct));
    return String.format(
        Locale.ROOT,
        "<span class=\"bar\" title=\"%.0f%%\"><span class=\"fill %s\" style=\"display:block;"
            + "width:%.1f%%\"></span></span> %.0f%%",
        pct,
        cls,
        w,
        pct);
  }

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
