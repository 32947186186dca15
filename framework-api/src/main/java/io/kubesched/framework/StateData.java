package io.kubesched.framework;

/**
 * A value stored in a {@link CycleState}.
 *
 * <p>{@link #copy()} is called when the state is cloned (preemption dry runs and the nominated pods
 * pass clone the state and then call AddPod/RemovePod on the clone). Immutable values, such as
 * records, return {@code this} (the default). A mutable value returns a copy deep enough that
 * AddPod/RemovePod on the copy never change the original; it may share data they never modify.
 */
public interface StateData {
  /** Returns a copy independent of this value for AddPod/RemovePod; {@code this} if immutable. */
  default StateData copy() {
    return this;
  }
}
