package io.kubesched.plugins.sample.tracer;

import java.time.Duration;

/**
 * One call of an extension point, as seen by {@link ExtensionPointTracer}.
 *
 * @param extensionPoint the extension point, e.g. {@code Filter}
 * @param pod the pod, {@code namespace/name}
 * @param node the node, or {@code null} for pod-level points
 * @param status what the tracer answered (always a pass-through: Success, Skip or the like)
 * @param sinceCycleStart the time since the pod's PreFilter in this cycle ({@code ZERO} before)
 */
public record TraceEvent(
    String extensionPoint, String pod, String node, String status, Duration sinceCycleStart) {
  @Override
  public String toString() {
    return extensionPoint
        + " pod="
        + pod
        + (node == null ? "" : " node=" + node)
        + " status="
        + status
        + " +"
        + sinceCycleStart.toNanos() / 1000
        + "us";
  }
}
