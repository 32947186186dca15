package io.kubesched.plugins.nodename;

import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.Status;
import io.kubesched.plugins.PluginNames;
import java.util.List;
import java.util.Optional;

/**
 * {@code NodeName} is a plugin that lets a pod with {@code spec.nodeName} run only on the node of
 * that name.
 */
public final class NodeName
    implements FilterPlugin, CycleBoundFilter, EnqueueExtensions, SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.NODE_NAME;

  /** The reason for a node other than the requested one. */
  public static final String REASON = "node(s) didn't match the requested node name";

  private static final Status MISMATCH = Status.unresolvable(REASON);

  /** Creates the plugin. */
  public NodeName() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    return fits(pod, node) ? Status.success() : MISMATCH;
  }

  /** The Filter of one cycle: a pod that names no node passes every node without a look. */
  @Override
  public NodeCheck bindFilter(CycleState state, PodInfo pod) {
    String wanted = pod.nodeName();
    if (wanted == null || wanted.isEmpty()) {
      return new NodeCheck() {
        @Override
        public Status filter(NodeInfo node) {
          return Status.success();
        }

        @Override
        public void filterAll(
            NodeInfo[] nodes, int count, NodeColumns columns, int[] rows, Status[] out) {
          java.util.Arrays.fill(out, 0, count, Status.success());
        }

        @Override
        public boolean passesAllRows(NodeColumns columns) {
          return true;
        }
      };
    }
    return node -> wanted.equals(node.name()) ? Status.success() : MISMATCH;
  }

  /** Returns whether the pod names no node or names this one. */
  public static boolean fits(PodInfo pod, NodeInfo node) {
    String wanted = pod.nodeName();
    return wanted == null || wanted.isEmpty() || wanted.equals(node.name());
  }

  /** Registers node additions, without a hint function (always requeue). */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD));
  }

  /** Signs the pod by its {@code spec.nodeName}. */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    return Optional.of(String.valueOf(pod.nodeName()));
  }
}
