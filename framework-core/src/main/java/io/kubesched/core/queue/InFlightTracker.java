package io.kubesched.core.queue;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ClusterEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods between pop and done and the cluster events received meanwhile (kube's {@code
 * inFlightPods} / {@code inFlightEvents}): one list holding pod markers and events in arrival
 * order, so a failed pod sees exactly the events after its own marker. Events older than the oldest
 * marker are dropped. Not thread-safe; the scheduling queue guards it.
 */
final class InFlightTracker {
  /** A cluster event recorded while pods were in flight. */
  record Event(ClusterEvent event, Object oldObj, Object newObj) {}

  /** A list node: a popped pod ({@link V1Pod}) or an {@link Event}. */
  private static final class Link {
    final Object value;
    Link prev;
    Link next;

    Link(Object value) {
      this.value = value;
    }
  }

  private final Map<String, Link> pods = new LinkedHashMap<>();
  private Link head;
  private Link tail;
  private int eventCount;

  boolean isInFlight(String uid) {
    return pods.containsKey(uid);
  }

  /** Marks the pod in flight; returns {@code false} when it already was. */
  boolean markPopped(String uid, V1Pod pod) {
    if (pods.containsKey(uid)) {
      return false;
    }
    pods.put(uid, append(pod));
    return true;
  }

  /** Returns the events received since the pod was popped, or {@code null} if not in flight. */
  List<Event> eventsSince(String uid) {
    Link marker = pods.get(uid);
    if (marker == null) {
      return null;
    }
    List<Event> out = new ArrayList<>();
    for (Link l = marker.next; l != null; l = l.next) {
      if (l.value instanceof Event e) {
        out.add(e);
      }
    }
    return out;
  }

  /** Records {@code events} if the pod with {@code uid} is in flight; returns whether it is. */
  boolean addIfPodInFlight(String uid, Object oldObj, Object newObj, List<ClusterEvent> events) {
    if (!pods.containsKey(uid)) {
      return false;
    }
    for (ClusterEvent e : events) {
      append(new Event(e, oldObj, newObj));
    }
    return true;
  }

  /** Records the event if any pod is in flight. */
  void addIfAnyInFlight(Object oldObj, Object newObj, ClusterEvent event) {
    if (!pods.isEmpty()) {
      append(new Event(event, oldObj, newObj));
    }
  }

  /** Drops the pod's marker and the events no remaining pod can see. */
  void done(String uid) {
    Link marker = pods.remove(uid);
    if (marker == null) {
      return;
    }
    unlink(marker);
    while (head != null && head.value instanceof Event) {
      unlink(head);
    }
  }

  int eventCount() {
    return eventCount;
  }

  /** Returns the pods in flight, in pop order. */
  List<V1Pod> pods() {
    List<V1Pod> out = new ArrayList<>(pods.size());
    for (Link l : pods.values()) {
      out.add((V1Pod) l.value);
    }
    return out;
  }

  private Link append(Object value) {
    Link l = new Link(value);
    if (tail == null) {
      head = l;
    } else {
      tail.next = l;
      l.prev = tail;
    }
    tail = l;
    if (value instanceof Event) {
      eventCount++;
    }
    return l;
  }

  private void unlink(Link l) {
    if (l.prev != null) {
      l.prev.next = l.next;
    } else {
      head = l.next;
    }
    if (l.next != null) {
      l.next.prev = l.prev;
    } else {
      tail = l.prev;
    }
    l.prev = null;
    l.next = null;
    if (l.value instanceof Event) {
      eventCount--;
    }
  }
}
