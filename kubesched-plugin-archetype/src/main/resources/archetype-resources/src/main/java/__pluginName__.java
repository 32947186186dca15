package ${package};

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.ScorePlugin;

/**
 * A Score plugin: nodes carrying the label {@code labelKey} score 100 (the maximum), the
 * others 0. Replace the body with your own logic; implement more extension points
 * ({@code FilterPlugin}, {@code PreScorePlugin}, ...) as you need them.
 */
public final class ${pluginName} implements ScorePlugin {
  /** The name used in configurations. */
  public static final String NAME = "${pluginName}";

  private final String labelKey;

  /** Creates the plugin with its decoded, validated arguments. */
  public ${pluginName}(${pluginName}Args args) {
    this.labelKey = args.labelKey();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return node.labels().containsKey(labelKey) ? MAX_NODE_SCORE : MIN_NODE_SCORE;
  }
}
