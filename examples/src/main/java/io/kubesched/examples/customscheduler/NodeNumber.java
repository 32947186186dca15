package io.kubesched.examples.customscheduler;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import java.util.List;

/**
 * {@code NodeNumber} is an out-of-tree Score plugin, the classic first plugin: it prefers nodes
 * whose name ends with the same digit as the pod's name ({@code web-3} likes {@code node-3}).
 *
 * <p>It lives in the examples module, is found by {@link java.util.ServiceLoader} through {@code
 * META-INF/services/io.kubesched.framework.PluginProvider}, and is enabled by the example's
 * configuration: discovery makes it available, the profile enables it.
 */
public final class NodeNumber implements PreScorePlugin, ScorePlugin {
  /** The plugin name. */
  public static final String NAME = "NodeNumber";

  private static final StateKey<Digit> KEY = StateKey.of("PreScore" + NAME, Digit.class);

  private record Digit(char value) implements StateData {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    String name = pod.name();
    char last = name.isEmpty() ? ' ' : name.charAt(name.length() - 1);
    if (!Character.isDigit(last)) {
      return Status.skip();
    }
    state.write(KEY, new Digit(last));
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    char want = state.get(KEY).value();
    String n = node.name();
    return !n.isEmpty() && n.charAt(n.length() - 1) == want ? MAX_NODE_SCORE : MIN_NODE_SCORE;
  }
}
