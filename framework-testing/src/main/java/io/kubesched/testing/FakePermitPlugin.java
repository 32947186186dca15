package io.kubesched.testing;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.util.Objects;

/**
 * A Permit plugin returning a fixed {@link PermitResult} and counting its calls (kube's {@code
 * FakePermitPlugin}).
 */
public final class FakePermitPlugin extends FakePlugin implements PermitPlugin {
  /** The reason of {@link #rejecting(String)}. */
  public static final String REASON_REJECTED = "rejected by the fake permit plugin";

  private final PermitResult result;

  /** Creates the plugin named {@code name} returning {@code result}. */
  public FakePermitPlugin(String name, PermitResult result) {
    super(name);
    this.result = Objects.requireNonNull(result, "result");
  }

  /** Returns a plugin that asks every pod to wait up to {@code timeout}. */
  public static FakePermitPlugin waiting(String name, Duration timeout) {
    return new FakePermitPlugin(name, PermitResult.waitFor(timeout));
  }

  /** Returns a plugin that allows every pod. */
  public static FakePermitPlugin allowing(String name) {
    return new FakePermitPlugin(name, PermitResult.allow());
  }

  /** Returns a plugin that rejects every pod as Unschedulable with {@link #REASON_REJECTED}. */
  public static FakePermitPlugin rejecting(String name) {
    return new FakePermitPlugin(name, PermitResult.of(Status.unschedulable(REASON_REJECTED)));
  }

  /** Returns the configured result. */
  @Override
  public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
    count();
    return result;
  }
}
