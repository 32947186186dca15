package io.kubesched.testing;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;

/**
 * A Filter plugin that rejects every node as {@code Unschedulable} with {@link #REASON} and counts
 * its calls (kube's {@code FalseFilter}).
 */
public final class FalseFilterPlugin extends FakePlugin implements FilterPlugin {
  /** The default name, as upstream. */
  public static final String NAME = "FalseFilter";

  /** The rejection reason, upstream's {@code ErrReasonFake}. */
  public static final String REASON = "Nodes failed the fake plugin";

  /** Creates the plugin named {@value #NAME}. */
  public FalseFilterPlugin() {
    this(NAME);
  }

  /** Creates the plugin named {@code name}. */
  public FalseFilterPlugin(String name) {
    super(name);
  }

  /** Returns {@code Unschedulable} with {@link #REASON}. */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    count();
    return Status.unschedulable(REASON);
  }
}
