package io.kubesched.core.runtime;

import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PostBindPlugin;
import io.kubesched.framework.PostFilterPlugin;
import io.kubesched.framework.PreBindPlugin;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.ScorePlugin;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The assembled plugins of one profile: every built plugin, the enabled plugins of each extension
 * point in run order (MultiPoint expanded), the Score weights and the events each plugin
 * registered.
 *
 * <p>An immutable value built once by {@link ProfileAssembler}, which checks the profile (exactly
 * one QueueSort plugin, at least one Bind plugin, a weight for every Score plugin); {@link
 * Framework} only reads it. Every collection it returns is unmodifiable.
 */
public final class ProfilePlugins {
  private final Map<String, Plugin> plugins;
  private final Map<ExtensionPoint, List<Plugin>> points;
  private final Map<String, Integer> scoreWeights;
  private final Map<String, List<ClusterEventWithHint>> enqueueExtensions;

  private final QueueSortPlugin queueSort;
  private final List<PreEnqueuePlugin> preEnqueue;
  private final List<PreFilterPlugin> preFilter;
  private final List<FilterPlugin> filter;
  private final List<PostFilterPlugin> postFilter;
  private final List<PreScorePlugin> preScore;
  private final List<ScorePlugin> score;
  private final List<ReservePlugin> reserve;
  private final List<PermitPlugin> permit;
  private final List<PreBindPlugin> preBind;
  private final List<BindPlugin> bind;
  private final List<PostBindPlugin> postBind;

  /**
   * Copies the assembly's results.
   *
   * @param plugins every built plugin by its configured name, in registry order
   * @param points the plugins of every extension point, in run order; each must implement the
   *     point's interface, and QueueSort must hold exactly one plugin
   * @param scoreWeights the weight of every weighted Score plugin, by name
   * @param enqueueExtensions the events each plugin registered, by plugin name, in order
   */
  ProfilePlugins(
      Map<String, Plugin> plugins,
      Map<ExtensionPoint, List<Plugin>> points,
      Map<String, Integer> scoreWeights,
      Map<String, List<ClusterEventWithHint>> enqueueExtensions) {
    this.plugins = Collections.unmodifiableMap(new LinkedHashMap<>(plugins));
    EnumMap<ExtensionPoint, List<Plugin>> copy = new EnumMap<>(ExtensionPoint.class);
    for (ExtensionPoint p : ExtensionPoint.values()) {
      copy.put(p, List.copyOf(points.getOrDefault(p, List.of())));
    }
    this.points = Collections.unmodifiableMap(copy);
    this.scoreWeights = Collections.unmodifiableMap(new LinkedHashMap<>(scoreWeights));
    this.enqueueExtensions = Collections.unmodifiableMap(new LinkedHashMap<>(enqueueExtensions));

    List<Plugin> queueSorts = copy.get(ExtensionPoint.QUEUE_SORT);
    this.queueSort = queueSorts.isEmpty() ? null : (QueueSortPlugin) queueSorts.get(0);
    this.preEnqueue = typed(ExtensionPoint.PRE_ENQUEUE, PreEnqueuePlugin.class);
    this.preFilter = typed(ExtensionPoint.PRE_FILTER, PreFilterPlugin.class);
    this.filter = typed(ExtensionPoint.FILTER, FilterPlugin.class);
    this.postFilter = typed(ExtensionPoint.POST_FILTER, PostFilterPlugin.class);
    this.preScore = typed(ExtensionPoint.PRE_SCORE, PreScorePlugin.class);
    this.score = typed(ExtensionPoint.SCORE, ScorePlugin.class);
    this.reserve = typed(ExtensionPoint.RESERVE, ReservePlugin.class);
    this.permit = typed(ExtensionPoint.PERMIT, PermitPlugin.class);
    this.preBind = typed(ExtensionPoint.PRE_BIND, PreBindPlugin.class);
    this.bind = typed(ExtensionPoint.BIND, BindPlugin.class);
    this.postBind = typed(ExtensionPoint.POST_BIND, PostBindPlugin.class);
  }

  private <T> List<T> typed(ExtensionPoint p, Class<T> type) {
    List<T> out = new ArrayList<>();
    for (Plugin pg : points.get(p)) {
      out.add(type.cast(pg));
    }
    return List.copyOf(out);
  }

  /** Returns every built plugin by its configured name. */
  public Map<String, Plugin> plugins() {
    return plugins;
  }

  /** Returns the plugins run at {@code point}, in order. */
  public List<Plugin> at(ExtensionPoint point) {
    return points.get(Objects.requireNonNull(point, "point must not be null"));
  }

  /** Returns the names of the plugins run at {@code point}, in order. */
  public List<String> names(ExtensionPoint point) {
    List<String> out = new ArrayList<>();
    for (Plugin p : at(point)) {
      out.add(p.name());
    }
    return out;
  }

  /** Returns the plugin names of every point that has any, by kube's point name. */
  public Map<String, List<String>> list() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (ExtensionPoint p : ExtensionPoint.values()) {
      List<String> names = names(p);
      if (!names.isEmpty()) {
        out.put(p.label(), names);
      }
    }
    return out;
  }

  /** Returns the weight of every Score plugin (and weighted MultiPoint plugin), by name. */
  public Map<String, Integer> scoreWeights() {
    return scoreWeights;
  }

  /** Returns the events each plugin registered (and the extenders' pseudo-plugin), by name. */
  public Map<String, List<ClusterEventWithHint>> enqueueExtensions() {
    return enqueueExtensions;
  }

  /** Returns the QueueSort plugin. */
  public QueueSortPlugin queueSort() {
    return queueSort;
  }

  /** Returns the PreEnqueue plugins, in order. */
  public List<PreEnqueuePlugin> preEnqueue() {
    return preEnqueue;
  }

  /** Returns the PreFilter plugins, in order. */
  public List<PreFilterPlugin> preFilter() {
    return preFilter;
  }

  /** Returns the Filter plugins, in order. */
  public List<FilterPlugin> filter() {
    return filter;
  }

  /** Returns the PostFilter plugins, in order. */
  public List<PostFilterPlugin> postFilter() {
    return postFilter;
  }

  /** Returns the PreScore plugins, in order. */
  public List<PreScorePlugin> preScore() {
    return preScore;
  }

  /** Returns the Score plugins, in order. */
  public List<ScorePlugin> score() {
    return score;
  }

  /** Returns the Reserve plugins, in order. */
  public List<ReservePlugin> reserve() {
    return reserve;
  }

  /** Returns the Permit plugins, in order. */
  public List<PermitPlugin> permit() {
    return permit;
  }

  /** Returns the PreBind plugins, in order. */
  public List<PreBindPlugin> preBind() {
    return preBind;
  }

  /** Returns the Bind plugins, in order. */
  public List<BindPlugin> bind() {
    return bind;
  }

  /** Returns the PostBind plugins, in order. */
  public List<PostBindPlugin> postBind() {
    return postBind;
  }

  /**
   * Closes every plugin that is {@link AutoCloseable} (kube's {@code Close}); all are tried, and
   * the first failure is rethrown with the others suppressed.
   */
  void close() {
    RuntimeException first = null;
    for (Map.Entry<String, Plugin> e : plugins.entrySet()) {
      if (e.getValue() instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception ex) {
          RuntimeException wrapped =
              new IllegalStateException(e.getKey() + " failed to close: " + ex.getMessage(), ex);
          if (first == null) {
            first = wrapped;
          } else {
            first.addSuppressed(wrapped);
          }
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public String toString() {
    return "ProfilePlugins" + list();
  }
}
