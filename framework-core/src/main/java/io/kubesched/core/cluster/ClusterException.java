package io.kubesched.core.cluster;

import io.kubesched.framework.SchedulingException;

/**
 * A write to the cluster was refused, with the reason the API server would give and a message
 * worded like the API server's.
 */
public final class ClusterException extends SchedulingException {
  private static final long serialVersionUID = 1L;

  /** Why a write was refused (the API status reasons). */
  public enum Reason {
    /** The object does not exist ({@code 404 NotFound}). */
    NOT_FOUND,
    /** An object with that name exists ({@code 409 AlreadyExists}). */
    ALREADY_EXISTS,
    /** The object changed meanwhile or is in the wrong state ({@code 409 Conflict}). */
    CONFLICT,
    /** An admission check refused the object ({@code 403 Forbidden}). */
    FORBIDDEN,
    /** The object is malformed ({@code 422 Invalid}). */
    INVALID
  }

  private final Reason reason;

  /** Creates an exception with {@code reason} and the API-server-like {@code message}. */
  public ClusterException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  /** Returns why the write was refused. */
  public Reason reason() {
    return reason;
  }
}
