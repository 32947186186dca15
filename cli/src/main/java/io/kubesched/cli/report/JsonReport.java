package io.kubesched.cli.report;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Renders a {@link SimulationReport} as JSON with a stable key order. */
public final class JsonReport {
  private JsonReport() {}

  /** Returns the report as pretty-printed JSON. */
  public static String render(SimulationReport r) {
    Gson gson =
        new GsonBuilder().serializeNulls().setPrettyPrinting().disableHtmlEscaping().create();
    return gson.toJson(toMap(r));
  }

  static Map<String, Object> toMap(SimulationReport r) {
    Map<String, Object> root = new LinkedHashMap<>();
    List<Object> pods = new ArrayList<>();
    List<SimulationReport.PodResult> all = new ArrayList<>(r.pods());
    all.addAll(r.existing());
    for (SimulationReport.PodResult p : all) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("namespace", p.namespace());
      m.put("name", p.name());
      m.put("node", p.node());
      m.put("status", p.status());
      m.put("message", p.message());
      m.put("nominatedNode", p.nominatedNode());
      pods.add(m);
    }
    root.put("pods", pods);
    List<Object> nodes = new ArrayList<>();
    for (SimulationReport.NodeResult n : r.nodes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", n.name());
      m.put("pods", n.pods());
      m.put("allocatable", n.allocatable());
      m.put("requested", n.requested());
      nodes.add(m);
    }
    root.put("nodes", nodes);
    root.put("evicted", r.evicted());
    root.put("explain", r.explain() == null ? null : explain(r.explain()));
    root.put("warnings", r.warnings());
    List<Object> claims = new ArrayList<>();
    for (SimulationReport.ClaimResult c : r.claims()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("namespace", c.namespace());
      m.put("name", c.name());
      m.put("volume", c.volume());
      m.put("phase", c.phase());
      claims.add(m);
    }
    root.put("claims", claims);
    if (!r.resourceClaims().isEmpty()) {
      List<Object> resourceClaims = new ArrayList<>();
      for (SimulationReport.ResourceClaimResult c : r.resourceClaims()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("namespace", c.namespace());
        m.put("name", c.name());
        m.put("devices", c.devices());
        m.put("reservedFor", c.reservedFor());
        resourceClaims.add(m);
      }
      root.put("resourceClaims", resourceClaims);
    }
    return root;
  }

  private static Map<String, Object> explain(SimulationReport.Explain e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pod", e.pod());
    m.put("selectedNode", e.selectedNode());
    List<Object> nodes = new ArrayList<>();
    for (SimulationReport.ExplainNode n : e.nodes()) {
      Map<String, Object> nm = new LinkedHashMap<>();
      nm.put("name", n.name());
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("code", n.filter().code());
      f.put("plugin", n.filter().plugin());
      f.put("reasons", n.filter().reasons());
      nm.put("filter", f);
      if (n.scores() != null) {
        nm.put("scores", n.scores());
        nm.put("total", n.total());
      }
      nodes.add(nm);
    }
    m.put("nodes", nodes);
    m.put("message", e.message());
    return m;
  }
}
