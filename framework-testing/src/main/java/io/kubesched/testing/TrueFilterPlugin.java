package io.kubesched.testing;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;

/** A Filter plugin that accepts every node and counts its calls (kube's {@code TrueFilter}). */
public final class TrueFilterPlugin extends FakePlugin implements FilterPlugin {
  /** The default name, as upstream. */
  public static final String NAME = "TrueFilter";

  /** Creates the plugin named {@value #NAME}. */
  public TrueFilterPlugin() {
    this(NAME);
  }

  /** Creates the plugin named {@code name}. */
  public TrueFilterPlugin(String name) {
    super(name);
  }

  /** Returns success. */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    count();
    return Status.success();
  }
}
