package io.kubesched.testing;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A PreFilter plugin returning a fixed {@link PreFilterResult} and counting its calls (kube's
 * {@code FakePreFilterPlugin}): use {@link PreFilterResult#nodes(Set)} to narrow the nodes, {@link
 * PreFilterResult#of(io.kubesched.framework.Status)} to reject or skip.
 */
public final class FakePreFilterPlugin extends FakePlugin implements PreFilterPlugin {
  /** The default name, as upstream. */
  public static final String NAME = "FakePreFilter";

  private final PreFilterResult result;

  /** Creates the plugin named {@value #NAME} returning {@code result}. */
  public FakePreFilterPlugin(PreFilterResult result) {
    this(NAME, result);
  }

  /** Creates the plugin named {@code name} returning {@code result}. */
  public FakePreFilterPlugin(String name, PreFilterResult result) {
    super(name);
    this.result = Objects.requireNonNull(result, "result");
  }

  /** Returns the configured result. */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    count();
    return result;
  }
}
