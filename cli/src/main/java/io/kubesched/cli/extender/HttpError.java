package io.kubesched.cli.extender;

/** An HTTP error answer to a request that cannot be handled: its status and message. */
final class HttpError extends Exception {
  private static final long serialVersionUID = 1L;

  /** The status code. */
  final int status;

  HttpError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }
}
