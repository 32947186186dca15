package io.kubesched.plugins.podtopologyspread;

import java.util.Arrays;

/**
 * Counts of matching pods by topology value for one constraint: an open-addressing hash map from
 * {@code String} to {@code int} that allocates nothing on lookups and copies cheaply.
 *
 * <p>A value once added stays (a domain with zero matching pods is still a domain). Not
 * thread-safe for writes.
 */
final class ValueCounts {
  private String[] keys;
  private int[] values;
  private int size;

  ValueCounts(int expected) {
    int cap = 8;
    while (cap < expected * 2) {
      cap <<= 1;
    }
    keys = new String[cap];
    values = new int[cap];
  }

  private ValueCounts(ValueCounts other) {
    keys = other.keys.clone();
    values = other.values.clone();
    size = other.size;
  }

  ValueCounts copy() {
    return new ValueCounts(this);
  }

  private int slot(String key) {
    int mask = keys.length - 1;
    int i = mix(key.hashCode()) & mask;
    while (true) {
      String k = keys[i];
      if (k == null || k.equals(key)) {
        return i;
      }
      i = (i + 1) & mask;
    }
  }

  private static int mix(int h) {
    h *= 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  /** Returns whether {@code key} is a known value. */
  boolean contains(String key) {
    return keys[slot(key)] != null;
  }

  /** Returns the count of {@code key}, 0 when unknown. */
  int get(String key) {
    int i = slot(key);
    return keys[i] == null ? 0 : values[i];
  }

  /** Returns the count of {@code key}, or {@code missing} when unknown. */
  int getOrDefault(String key, int missing) {
    int i = slot(key);
    return keys[i] == null ? missing : values[i];
  }

  /** Adds {@code delta} to the count of {@code key} (creating it) and returns the new count. */
  int add(String key, int delta) {
    int i = slot(key);
    if (keys[i] == null) {
      keys[i] = key;
      values[i] = delta;
      if (++size * 2 > keys.length) {
        grow();
      }
      return delta;
    }
    values[i] += delta;
    return values[i];
  }

  private void grow() {
    String[] oldKeys = keys;
    int[] oldValues = values;
    keys = new String[oldKeys.length * 2];
    values = new int[oldKeys.length * 2];
    for (int j = 0; j < oldKeys.length; j++) {
      if (oldKeys[j] != null) {
        int i = slot(oldKeys[j]);
        keys[i] = oldKeys[j];
        values[i] = oldValues[j];
      }
    }
  }

  /** Returns the number of known values (domains). */
  int size() {
    return size;
  }

  /** Returns the capacity; slots {@code [0, capacity)} may be read by {@link #keyAt}. */
  int capacity() {
    return keys.length;
  }

  /** Returns the key in slot {@code i}, or {@code null} when the slot is free. */
  String keyAt(int i) {
    return keys[i];
  }

  /** Returns the value in slot {@code i}. */
  int valueAt(int i) {
    return values[i];
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("{");
    String[] sorted = Arrays.stream(keys).filter(k -> k != null).sorted().toArray(String[]::new);
    for (String k : sorted) {
      if (b.length() > 1) {
        b.append(", ");
      }
      b.append(k).append('=').append(get(k));
    }
    return b.append('}').toString();
  }
}
