package io.kubesched.core.cluster;

import io.kubernetes.client.common.KubernetesObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The events an {@link InMemoryCluster} recorded, oldest first. Thread-safe. */
final class EventLog {
  private final List<CoreEvent> events = new ArrayList<>();

  /**
   * Records an event about {@code regarding} (a Kubernetes object, or anything else: then only its
   * class name is kept) at {@code time}.
   */
  void record(
      Object regarding, String type, String reason, String action, String message, Instant time) {
    String kind = "";
    String namespace = "";
    String name = "";
    if (regarding instanceof KubernetesObject o) {
      kind = o.getKind() != null ? o.getKind() : kindName(o.getClass());
      if (o.getMetadata() != null) {
        namespace = o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace();
        name = o.getMetadata().getName() == null ? "" : o.getMetadata().getName();
      }
    } else if (regarding != null) {
      kind = regarding.getClass().getSimpleName();
    }
    CoreEvent e = new CoreEvent(type, reason, action, message, kind, namespace, name, time);
    synchronized (events) {
      events.add(e);
    }
  }

  /** Returns the events recorded so far, oldest first. */
  List<CoreEvent> all() {
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  /** Returns the events about the object {@code kind} {@code namespace/name}, oldest first. */
  List<CoreEvent> about(String kind, String namespace, String name) {
    List<CoreEvent> out = new ArrayList<>();
    for (CoreEvent e : all()) {
      if (e.regardingKind().equals(kind)
          && e.regardingNamespace().equals(namespace == null ? "" : namespace)
          && e.regardingName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  /** Forgets the recorded events. */
  void clear() {
    synchronized (events) {
      events.clear();
    }
  }

  /** {@code V1PriorityClass} → {@code PriorityClass}. */
  private static String kindName(Class<?> type) {
    return type.getSimpleName().replaceFirst("^V\\d+((alpha|beta)\\d+)?", "");
  }
}
