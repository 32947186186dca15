package io.kubesched.core.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code plugins} section of a profile: one {@link PluginSet} per extension point plus {@code
 * multiPoint}. Missing points are empty sets.
 */
public record Plugins(
    PluginSet preEnqueue,
    PluginSet queueSort,
    PluginSet preFilter,
    PluginSet filter,
    PluginSet postFilter,
    PluginSet preScore,
    PluginSet score,
    PluginSet reserve,
    PluginSet permit,
    PluginSet preBind,
    PluginSet bind,
    PluginSet postBind,
    PluginSet multiPoint) {

  /** Replaces missing sets with empty ones. */
  public Plugins {
    preEnqueue = orEmpty(preEnqueue);
    queueSort = orEmpty(queueSort);
    preFilter = orEmpty(preFilter);
    filter = orEmpty(filter);
    postFilter = orEmpty(postFilter);
    preScore = orEmpty(preScore);
    score = orEmpty(score);
    reserve = orEmpty(reserve);
    permit = orEmpty(permit);
    preBind = orEmpty(preBind);
    bind = orEmpty(bind);
    postBind = orEmpty(postBind);
    multiPoint = orEmpty(multiPoint);
  }

  private static PluginSet orEmpty(PluginSet s) {
    return s == null ? PluginSet.empty() : s;
  }

  /** Returns a value with every set empty. */
  public static Plugins empty() {
    return new Plugins(
        null, null, null, null, null, null, null, null, null, null, null, null, null);
  }

  /**
   * Returns the sets keyed by their YAML field names, in kube's order ({@code preEnqueue}, ...,
   * {@code postBind}, {@code multiPoint}).
   */
  public Map<String, PluginSet> byExtensionPoint() {
    Map<String, PluginSet> m = new LinkedHashMap<>();
    m.put("preEnqueue", preEnqueue);
    m.put("queueSort", queueSort);
    m.put("preFilter", preFilter);
    m.put("filter", filter);
    m.put("postFilter", postFilter);
    m.put("preScore", preScore);
    m.put("score", score);
    m.put("reserve", reserve);
    m.put("permit", permit);
    m.put("preBind", preBind);
    m.put("bind", bind);
    m.put("postBind", postBind);
    m.put("multiPoint", multiPoint);
    return m;
  }
}
