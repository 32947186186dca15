package io.kubesched.core.cluster;

import java.time.Instant;

/**
 * A Kubernetes event recorded by the scheduler or a plugin ({@code events.k8s.io/v1} {@code Event},
 * reduced to what is observable in tests and the simulator).
 *
 * @param type {@code Normal} or {@code Warning}
 * @param reason the machine-readable reason, e.g. {@code FailedScheduling}
 * @param action what was done, e.g. {@code Scheduling}
 * @param message the human-readable message
 * @param regardingKind the kind of the object the event is about, e.g. {@code Pod}
 * @param regardingNamespace its namespace, {@code ""} for cluster-scoped objects
 * @param regardingName its name
 * @param timestamp when the event was recorded
 */
public record CoreEvent(
    String type,
    String reason,
    String action,
    String message,
    String regardingKind,
    String regardingNamespace,
    String regardingName,
    Instant timestamp) {}
