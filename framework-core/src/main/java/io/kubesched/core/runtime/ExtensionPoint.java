package io.kubesched.core.runtime;

import io.kubesched.core.config.PluginSet;
import io.kubesched.core.config.Plugins;
import io.kubesched.framework.BindPlugin;
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
import java.util.function.Function;

/**
 * The extension points a profile configures, in kube-scheduler's order of processing ({@code
 * getExtensionPoints}), with their plugin interface and their set in {@link Plugins}.
 */
public enum ExtensionPoint {
  /** PreFilter. */
  PRE_FILTER("PreFilter", PreFilterPlugin.class, Plugins::preFilter),
  /** Filter. */
  FILTER("Filter", FilterPlugin.class, Plugins::filter),
  /** PostFilter. */
  POST_FILTER("PostFilter", PostFilterPlugin.class, Plugins::postFilter),
  /** Reserve (and Unreserve). */
  RESERVE("Reserve", ReservePlugin.class, Plugins::reserve),
  /** PreScore. */
  PRE_SCORE("PreScore", PreScorePlugin.class, Plugins::preScore),
  /** Score. */
  SCORE("Score", ScorePlugin.class, Plugins::score),
  /** PreBind. */
  PRE_BIND("PreBind", PreBindPlugin.class, Plugins::preBind),
  /** Bind. */
  BIND("Bind", BindPlugin.class, Plugins::bind),
  /** PostBind. */
  POST_BIND("PostBind", PostBindPlugin.class, Plugins::postBind),
  /** Permit. */
  PERMIT("Permit", PermitPlugin.class, Plugins::permit),
  /** PreEnqueue. */
  PRE_ENQUEUE("PreEnqueue", PreEnqueuePlugin.class, Plugins::preEnqueue),
  /** QueueSort. */
  QUEUE_SORT("QueueSort", QueueSortPlugin.class, Plugins::queueSort);

  private final String label;
  private final Class<? extends Plugin> type;
  private final Function<Plugins, PluginSet> set;

  ExtensionPoint(String label, Class<? extends Plugin> type, Function<Plugins, PluginSet> set) {
    this.label = label;
    this.type = type;
    this.set = set;
  }

  /** Returns kube's name of the point, e.g. {@code PreFilter}; also the metrics label. */
  public String label() {
    return label;
  }

  /** Returns the plugin interface of the point. */
  public Class<? extends Plugin> type() {
    return type;
  }

  /** Returns the interface's simple name, as kube's error messages print it. */
  public String typeName() {
    return type.getSimpleName();
  }

  /** Returns the point's set in {@code plugins}. */
  public PluginSet set(Plugins plugins) {
    return set.apply(plugins);
  }
}
