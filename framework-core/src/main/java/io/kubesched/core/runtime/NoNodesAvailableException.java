package io.kubesched.core.runtime;

import io.kubesched.framework.SchedulingException;

/**
 * The snapshot has no node at all (kube's {@code ErrNoNodesAvailable}); the scheduler turns it into
 * an UnschedulableAndUnresolvable status without running PostFilter.
 */
public final class NoNodesAvailableException extends SchedulingException {
  private static final long serialVersionUID = 1L;

  /** Kube's message. */
  public static final String MESSAGE = "no nodes available to schedule pods";

  /** Creates the exception. */
  public NoNodesAvailableException() {
    super(MESSAGE);
  }
}
