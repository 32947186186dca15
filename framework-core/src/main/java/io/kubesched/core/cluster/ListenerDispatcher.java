package io.kubesched.core.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers an {@link InMemoryCluster}'s changes to its {@link ClusterListener}s in the order they
 * happened: changes are queued under the cluster's lock ({@link #notifyLocked}) and delivered by
 * {@link #dispatch()} outside it, one at a time; a change queued while another thread is delivering
 * is delivered by that thread. A listener that throws is logged and skipped.
 */
final class ListenerDispatcher {
  private static final Logger log = LoggerFactory.getLogger(InMemoryCluster.class);

  /** A pending notification: the listeners registered when it happened, and the call. */
  private record Notification(List<ClusterListener> targets, Consumer<ClusterListener> call) {}

  private final Object lock;
  private final ArrayDeque<Notification> pending = new ArrayDeque<>();
  private List<ClusterListener> listeners = List.of();
  private boolean dispatching;

  /** Creates a dispatcher guarded by the cluster's {@code lock}. */
  ListenerDispatcher(Object lock) {
    this.lock = lock;
  }

  /**
   * Registers {@code listener} and queues {@code replay} (the current objects as additions) for it
   * alone; caller holds the lock and then calls {@link #dispatch()}.
   */
  void addLocked(ClusterListener listener, List<Consumer<ClusterListener>> replay) {
    Objects.requireNonNull(listener, "listener must not be null");
    List<ClusterListener> next = new ArrayList<>(listeners);
    next.add(listener);
    listeners = List.copyOf(next);
    List<ClusterListener> only = List.of(listener);
    for (Consumer<ClusterListener> call : replay) {
      pending.add(new Notification(only, call));
    }
  }

  /** Unregisters {@code listener}; changes queued before still reach it. */
  void remove(ClusterListener listener) {
    synchronized (lock) {
      List<ClusterListener> next = new ArrayList<>(listeners);
      next.remove(listener);
      listeners = List.copyOf(next);
    }
  }

  /** Queues {@code call} for the registered listeners; caller holds the lock. */
  void notifyLocked(Consumer<ClusterListener> call) {
    if (!listeners.isEmpty()) {
      pending.add(new Notification(listeners, call));
    }
  }

  /** Delivers pending notifications unless another thread (or an outer frame) already does. */
  void dispatch() {
    synchronized (lock) {
      if (dispatching || pending.isEmpty()) {
        return;
      }
      dispatching = true;
    }
    boolean done = false;
    // what was pending at each take, taken under one lock and delivered in order outside it
    ArrayList<Notification> taken = new ArrayList<>();
    int next = 0;
    try {
      while (true) {
        synchronized (lock) {
          if (pending.isEmpty()) {
            dispatching = false;
            done = true;
            return;
          }
          taken.addAll(pending);
          pending.clear();
        }
        for (next = 0; next < taken.size(); ) {
          deliver(taken.get(next++));
        }
        taken.clear();
      }
    } finally {
      if (!done) {
        // a listener threw an Error: what was taken and not delivered waits for the next dispatch
        synchronized (lock) {
          for (int i = taken.size() - 1; i >= next; i--) {
            pending.addFirst(taken.get(i));
          }
          dispatching = false;
        }
      }
    }
  }

  private static void deliver(Notification n) {
    List<ClusterListener> targets = n.targets();
    for (int i = 0; i < targets.size(); i++) {
      try {
        n.call().accept(targets.get(i));
      } catch (RuntimeException e) {
        log.atWarn().setMessage("cluster listener failed").setCause(e).log();
      }
    }
  }
}
