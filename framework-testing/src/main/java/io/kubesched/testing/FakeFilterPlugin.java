package io.kubesched.testing;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.util.Map;

/**
 * A Filter plugin that fails the named nodes with a chosen code and accepts the others (kube's
 * {@code FakeFilterPlugin} with its {@code FailedNodeReturnCodeMap}). The reason of a failure is
 * {@code "injecting failure for pod <pod name>"}.
 */
public final class FakeFilterPlugin extends FakePlugin implements FilterPlugin {
  /** The default name, as upstream. */
  public static final String NAME = "FakeFilter";

  private final Map<String, Status.Code> failures;

  /** Creates the plugin named {@code name} failing each node of {@code failures} with its code. */
  public FakeFilterPlugin(String name, Map<String, Status.Code> failures) {
    super(name);
    this.failures = Map.copyOf(failures);
  }

  /** Returns a plugin named {@value #NAME} failing each node of {@code failures} with its code. */
  public static FakeFilterPlugin failing(Map<String, Status.Code> failures) {
    return new FakeFilterPlugin(NAME, failures);
  }

  /** Returns a plugin named {@code name} failing each node of {@code failures} with its code. */
  public static FakeFilterPlugin failing(String name, Map<String, Status.Code> failures) {
    return new FakeFilterPlugin(name, failures);
  }

  /** Returns the node's configured code (success when the node is not listed). */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    count();
    Status.Code code = node.name() == null ? null : failures.get(node.name());
    if (code == null || code == Status.Code.SUCCESS) {
      return Status.success();
    }
    if (code == Status.Code.ERROR) {
      return Status.error("injecting failure for pod " + pod.name());
    }
    return Status.of(code, "injecting failure for pod " + pod.name());
  }
}
