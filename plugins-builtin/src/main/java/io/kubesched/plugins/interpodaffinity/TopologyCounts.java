package io.kubesched.plugins.interpodaffinity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts (or score sums) by topology pair {@code (key, value)} (kube's {@code
 * topologyToMatchedTermCount} and {@code scoreMap}): a few topology keys, each with an
 * open-addressing map from value to {@code long}. Lookups allocate nothing; {@link #copy()} is
 * deep. Not thread-safe for writes.
 */
final class TopologyCounts {
  private String[] keys = new String[0];
  private ValueMap[] maps = new ValueMap[0];

  /** The number of pairs whose count is not zero (kube deletes pairs that drop to zero). */
  private int nonZero;

  /** The number of pairs ever created (kube's score map keeps entries that sum to zero). */
  private int created;

  TopologyCounts copy() {
    TopologyCounts c = new TopologyCounts();
    c.keys = keys.clone();
    c.maps = new ValueMap[maps.length];
    for (int i = 0; i < maps.length; i++) {
      c.maps[i] = maps[i].copy();
    }
    c.nonZero = nonZero;
    c.created = created;
    return c;
  }

  /**
   * Returns a deep copy that reports {@code created} pairs ever created (for a sum kept
   * incrementally, whose pairs left by removed contributions are not counted).
   */
  TopologyCounts copyWithCreated(int created) {
    TopologyCounts c = copy();
    c.created = created;
    return c;
  }

  /** Returns the number of pairs whose count is not zero. */
  int nonZeroCount() {
    return nonZero;
  }

  /**
   * Adds {@code sign} times every pair of {@code other} into this, counting pairs into {@code
   * refs}.
   */
  void addAll(TopologyCounts other, int sign, TopologyCounts refs) {
    for (int k = 0; k < other.keys.length; k++) {
      ValueMap m = other.maps[k];
      for (int s = 0; s < m.keys.length; s++) {
        if (m.keys[s] != null) {
          add(other.keys[k], m.keys[s], sign * m.values[s]);
          refs.add(other.keys[k], m.keys[s], sign);
        }
      }
    }
  }

  private int indexOf(String key) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  /** Adds {@code delta} to the pair {@code (key, value)}. */
  void add(String key, String value, long delta) {
    int k = indexOf(key);
    if (k < 0) {
      k = keys.length;
      keys = java.util.Arrays.copyOf(keys, k + 1);
      maps = java.util.Arrays.copyOf(maps, k + 1);
      keys[k] = key;
      maps[k] = new ValueMap();
    }
    ValueMap m = maps[k];
    m.own();
    int slot = m.slot(value);
    if (m.keys[slot] == null) {
      created++;
      if (delta != 0) {
        nonZero++;
      }
      m.put(slot, value, delta);
      return;
    }
    long before = m.values[slot];
    long after = before + delta;
    m.values[slot] = after;
    if (before == 0 && after != 0) {
      nonZero++;
    } else if (before != 0 && after == 0) {
      nonZero--;
    }
  }

  /** Adds {@code delta} to {@code (key, node's value of key)} if the node has the key. */
  void addForNode(Map<String, String> nodeLabels, String key, long delta) {
    String v = nodeLabels.get(key);
    if (v != null) {
      add(key, v, delta);
    }
  }

  /** Returns the count of {@code (key, value)}, 0 when absent. */
  long get(String key, String value) {
    int k = indexOf(key);
    return k < 0 ? 0 : maps[k].get(value);
  }

  /**
   * Returns the values of {@code key} as a read view, or {@code null} when no pair of that key was
   * ever created (every count is then 0). The view follows later writes to this object but not keys
   * created later, so resolve it again after writes.
   */
  ValueMap valuesOf(String key) {
    int k = indexOf(key);
    return k < 0 ? null : maps[k];
  }

  /** Returns the number of topology keys with pairs ever created. */
  int keyCount() {
    return keys.length;
  }

  /** Returns the topology key number {@code k} (insertion order). */
  String keyAt(int k) {
    return keys[k];
  }

  /** Returns the values of key number {@code k} as a read view (see {@link #valuesOf}). */
  ValueMap valuesAt(int k) {
    return maps[k];
  }

  /** Returns whether every pair is zero (kube's {@code len(m) == 0}). */
  boolean isEmpty() {
    return nonZero == 0;
  }

  /** Returns whether no pair was ever created. */
  boolean neverWritten() {
    return created == 0;
  }

  /** Returns whether any pair formed by a node label has a count above zero. */
  boolean anyPositiveOnNode(Map<String, String> nodeLabels) {
    for (int k = 0; k < keys.length; k++) {
      String v = nodeLabels.get(keys[k]);
      if (v != null && maps[k].get(v) > 0) {
        return true;
      }
    }
    return false;
  }

  /** Returns the sum of the counts of the pairs formed by the node's labels. */
  long sumOnNode(Map<String, String> nodeLabels) {
    long sum = 0;
    for (int k = 0; k < keys.length; k++) {
      String v = nodeLabels.get(keys[k]);
      if (v != null) {
        sum += maps[k].get(v);
      }
    }
    return sum;
  }

  /** Adds every pair of {@code other} into this. */
  void merge(TopologyCounts other) {
    for (int k = 0; k < other.keys.length; k++) {
      ValueMap m = other.maps[k];
      for (int s = 0; s < m.keys.length; s++) {
        if (m.keys[s] != null) {
          add(other.keys[k], m.keys[s], m.values[s]);
        }
      }
    }
  }

  /** Returns the non-zero pairs as {@code key=value -> count}, sorted (for tests and logs). */
  Map<String, Long> asMap() {
    Map<String, Long> out = new TreeMap<>();
    for (int k = 0; k < keys.length; k++) {
      ValueMap m = maps[k];
      for (int s = 0; s < m.keys.length; s++) {
        if (m.keys[s] != null && m.values[s] != 0) {
          out.put(keys[k] + "=" + m.keys[s], m.values[s]);
        }
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return asMap().toString();
  }

  /** The topology keys, in insertion order. */
  List<String> keys() {
    return new ArrayList<>(List.of(keys));
  }

  /**
   * An open-addressing map from a topology value to a {@code long}; {@link #copy()} is
   * copy-on-write (arrays are shared until either side writes).
   */
  static final class ValueMap {
    private String[] keys = new String[8];
    private long[] values = new long[8];
    private int size;
    private boolean owned = true;

    ValueMap copy() {
      owned = false;
      ValueMap c = new ValueMap();
      c.keys = keys;
      c.values = values;
      c.size = size;
      c.owned = false;
      return c;
    }

    /** Makes the arrays private to this map before a write. */
    void own() {
      if (!owned) {
        keys = keys.clone();
        values = values.clone();
        owned = true;
      }
    }

    int slot(String key) {
      int mask = keys.length - 1;
      int h = key.hashCode() * 0x9E3779B9;
      int i = (h ^ (h >>> 16)) & mask;
      while (true) {
        String k = keys[i];
        if (k == null || k.equals(key)) {
          return i;
        }
        i = (i + 1) & mask;
      }
    }

    /** Returns the count of {@code key}, 0 when absent. */
    long get(String key) {
      int i = slot(key);
      return keys[i] == null ? 0 : values[i];
    }

    void put(int slot, String key, long value) {
      keys[slot] = key;
      values[slot] = value;
      if (++size * 2 > keys.length) {
        String[] oldKeys = keys;
        long[] oldValues = values;
        keys = new String[oldKeys.length * 2];
        values = new long[oldKeys.length * 2];
        for (int j = 0; j < oldKeys.length; j++) {
          if (oldKeys[j] != null) {
            int i = slot(oldKeys[j]);
            keys[i] = oldKeys[j];
            values[i] = oldValues[j];
          }
        }
      }
    }
  }
}
