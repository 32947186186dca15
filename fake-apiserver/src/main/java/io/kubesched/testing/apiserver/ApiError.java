package io.kubesched.testing.apiserver;

/** An error answered as a {@code v1.Status} of {@code code} and {@code reason}. */
final class ApiError extends Exception {
  private static final long serialVersionUID = 1L;
  final int code;
  final String reason;

  ApiError(int code, String reason, String message) {
    super(message, null, false, false);
    this.code = code;
    this.reason = reason;
  }

  /** A 404 for a path the server does not serve. */
  static ApiError notServed() {
    return new ApiError(404, "NotFound", "the server could not find the requested resource");
  }

  /** The 409 of an update, patch or delete whose resourceVersion is stale. */
  static ApiError conflict(Resource r, String name) {
    return new ApiError(
        409,
        "Conflict",
        "Operation cannot be fulfilled on "
            + r.plural()
            + (r.group().isEmpty() ? "" : "." + r.group())
            + " \""
            + name
            + "\": the object has been modified; please apply your changes to the latest version"
            + " and try again");
  }

  /** The 409 of a refused {@code pods/NAME/binding}. */
  static ApiError bindingConflict(String name, String detail) {
    return new ApiError(
        409,
        "Conflict",
        "Operation cannot be fulfilled on pods/binding \"" + name + "\": " + detail);
  }
}
