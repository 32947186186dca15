package io.kubesched.framework;

/** Records Kubernetes events (kube's {@code events.EventRecorder}). */
public interface EventRecorder {
  /** Type of events that report normal operation. */
  String NORMAL = "Normal";

  /** Type of events that report a problem. */
  String WARNING = "Warning";

  /**
   * Records an event about {@code regarding} (a {@code V1Pod}, {@code V1Node}, ...).
   *
   * @param type {@link #NORMAL} or {@link #WARNING}
   * @param reason a short machine-readable reason, e.g. {@code FailedScheduling}
   * @param action what was done, e.g. {@code Scheduling}
   * @param message the human-readable message
   */
  void event(Object regarding, String type, String reason, String action, String message);
}
