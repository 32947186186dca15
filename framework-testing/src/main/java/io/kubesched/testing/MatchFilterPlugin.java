package io.kubesched.testing;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;

/**
 * A Filter plugin that accepts only the node whose name equals the pod's name and rejects the
 * others as {@code Unschedulable} with {@link FalseFilterPlugin#REASON} (kube's {@code
 * MatchFilter}).
 */
public final class MatchFilterPlugin extends FakePlugin implements FilterPlugin {
  /** The default name, as upstream. */
  public static final String NAME = "MatchFilter";

  /** Creates the plugin named {@value #NAME}. */
  public MatchFilterPlugin() {
    this(NAME);
  }

  /** Creates the plugin named {@code name}. */
  public MatchFilterPlugin(String name) {
    super(name);
  }

  /** Returns success when the node is named like the pod. */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    count();
    if (pod.name().equals(node.name())) {
      return Status.success();
    }
    return Status.unschedulable(FalseFilterPlugin.REASON);
  }
}
