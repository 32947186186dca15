package io.kubesched.core.queue;

import io.kubesched.framework.KeyedQueueSort;
import io.kubesched.framework.QueueSortKey;
import io.kubesched.framework.QueuedPodInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A binary heap of queued pods keyed by {@code namespace/name} (kube's {@code heap.Heap}), with
 * O(log n) add, update, delete and pop. Entries that compare equal keep their insertion order. The
 * key of every entry added, replaced or removed is reported to the listener given at construction.
 * Not thread-safe.
 */
final class PodHeap {
  private static final class Entry {
    final String key;
    QueuedPodInfo value;
    final long seq;
    int index;
    // the order's key of value, when the heap has a keyed order
    long first;
    long second;
    long third;

    Entry(String key, QueuedPodInfo value, long seq) {
      this.key = key;
      this.value = value;
      this.seq = seq;
    }
  }

  private final Comparator<QueuedPodInfo> order;
  private final @Nullable KeyedQueueSort keys;
  private final ArrayList<Entry> heap = new ArrayList<>();
  private final Map<String, Entry> byKey = new HashMap<>();
  private final Consumer<String> changed;
  private long nextSeq;

  PodHeap(Comparator<QueuedPodInfo> order) {
    this(order, key -> {});
  }

  /**
   * Creates a heap that reports the key of each entry added, replaced or removed to {@code
   * changed}.
   */
  PodHeap(Comparator<QueuedPodInfo> order, Consumer<String> changed) {
    this(order, null, changed);
  }

  /**
   * Creates a heap ordered by {@code keys}' keys when given (which {@code order} must agree with),
   * otherwise by {@code order}, reporting each changed entry's key to {@code changed}.
   */
  PodHeap(
      Comparator<QueuedPodInfo> order, @Nullable KeyedQueueSort keys, Consumer<String> changed) {
    this.order = order;
    this.keys = keys;
    this.changed = changed;
  }

  static String key(QueuedPodInfo p) {
    return p.podInfo().key();
  }

  private boolean less(Entry a, Entry b) {
    if (keys != null) {
      // the keys were computed when the entries were set: no pointer chasing per comparison
      if (a.first != b.first) {
        return a.first < b.first;
      }
      if (a.second != b.second) {
        return a.second < b.second;
      }
      if (a.third != b.third) {
        return a.third < b.third;
      }
      return a.seq < b.seq;
    }
    int c = order.compare(a.value, b.value);
    return c != 0 ? c < 0 : a.seq < b.seq;
  }

  private void setValue(Entry e, QueuedPodInfo p) {
    e.value = p;
    if (keys != null) {
      QueueSortKey k = keys.sortKey(p);
      e.first = k.first();
      e.second = k.second();
      e.third = k.third();
    }
  }

  /** Adds {@code p}, or replaces the entry with the same key and restores the order. */
  void addOrUpdate(QueuedPodInfo p) {
    String k = key(p);
    Entry e = byKey.get(k);
    changed.accept(k);
    if (e != null) {
      setValue(e, p);
      fix(e.index);
      return;
    }
    e = new Entry(k, p, nextSeq++);
    setValue(e, p);
    e.index = heap.size();
    heap.add(e);
    byKey.put(k, e);
    up(e.index);
  }

  /** Returns the entry with {@code key}, or {@code null}. */
  QueuedPodInfo get(String key) {
    Entry e = byKey.get(key);
    return e == null ? null : e.value;
  }

  boolean has(String key) {
    return byKey.containsKey(key);
  }

  /** Removes the entry with {@code key}; returns whether it was present. */
  boolean delete(String key) {
    Entry e = byKey.remove(key);
    if (e == null) {
      return false;
    }
    changed.accept(key);
    int i = e.index;
    int last = heap.size() - 1;
    if (i != last) {
      swap(i, last);
      heap.remove(last);
      fix(i);
    } else {
      heap.remove(last);
    }
    return true;
  }

  /** Returns the head without removing it, or {@code null} when empty. */
  QueuedPodInfo peek() {
    return heap.isEmpty() ? null : heap.get(0).value;
  }

  /** Removes and returns the head, or {@code null} when empty. */
  QueuedPodInfo pop() {
    if (heap.isEmpty()) {
      return null;
    }
    Entry top = heap.get(0);
    byKey.remove(top.key);
    changed.accept(top.key);
    Entry last = heap.remove(heap.size() - 1);
    if (last != top) {
      // the hole left by the head sinks along the smaller children (one comparison per level),
      // then the last entry fills it and rises to its place: the same order as a swap with the
      // last entry and a sift down, with about half the comparisons
      int n = heap.size();
      int hole = 0;
      while (true) {
        int child = 2 * hole + 1;
        if (child >= n) {
          break;
        }
        if (child + 1 < n && less(heap.get(child + 1), heap.get(child))) {
          child++;
        }
        Entry moved = heap.get(child);
        heap.set(hole, moved);
        moved.index = hole;
        hole = child;
      }
      heap.set(hole, last);
      last.index = hole;
      up(hole);
    }
    return top.value;
  }

  int size() {
    return heap.size();
  }

  boolean isEmpty() {
    return heap.isEmpty();
  }

  /** Returns the entries in pop order (a sorted copy; the heap is unchanged). */
  List<QueuedPodInfo> sorted() {
    List<Entry> copy = new ArrayList<>(heap);
    copy.sort((a, b) -> less(a, b) ? -1 : less(b, a) ? 1 : 0);
    List<QueuedPodInfo> out = new ArrayList<>(copy.size());
    for (Entry e : copy) {
      out.add(e.value);
    }
    return out;
  }

  private void fix(int i) {
    if (!up(i)) {
      down(i);
    }
  }

  private boolean up(int i) {
    int start = i;
    while (i > 0) {
      int parent = (i - 1) / 2;
      if (!less(heap.get(i), heap.get(parent))) {
        break;
      }
      swap(i, parent);
      i = parent;
    }
    return i != start;
  }

  private void down(int i) {
    int n = heap.size();
    while (true) {
      int l = 2 * i + 1;
      if (l >= n) {
        return;
      }
      int smallest = l;
      int r = l + 1;
      if (r < n && less(heap.get(r), heap.get(l))) {
        smallest = r;
      }
      if (!less(heap.get(smallest), heap.get(i))) {
        return;
      }
      swap(i, smallest);
      i = smallest;
    }
  }

  private void swap(int i, int j) {
    Entry a = heap.get(i);
    Entry b = heap.get(j);
    heap.set(i, b);
    heap.set(j, a);
    a.index = j;
    b.index = i;
  }
}
