package io.kubesched.framework;

import java.util.Arrays;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The per-cycle scratch space that plugins share while one pod is scheduled, mirroring
 * kube-scheduler's {@code framework.CycleState}.
 *
 * <p>A plugin typically writes once (in PreFilter or PreScore) and reads many times (in Filter or
 * Score, from several threads); the state is thread-safe. {@link #clone()} copies every value with
 * {@link StateData#copy()} so that changes made through the clone never reach the original. The
 * sets of plugins to skip in Filter and Score are set by the framework after PreFilter and PreScore
 * (plugins only read them; the runtime writes them through {@link EngineHooks}) and are shared by
 * clones.
 */
public final class CycleState implements Cloneable {
  /**
   * The values: the first {@code size} keys and values of two arrays. A published {@code Entries}
   * never changes: a write makes a new one, whose arrays are the old ones when it only appends (a
   * cycle writes a dozen values, mostly in PreFilter, and reads them many times, from several
   * threads; an older {@code Entries} never reads past its own size) and copies otherwise. A clone
   * shares the arrays while its values all copy to themselves; then neither appends in place.
   */
  private record Entries(String[] keys, StateData[] values, int size) {
    static final Entries EMPTY = new Entries(new String[0], new StateData[0], 0);

    int indexOf(String key) {
      for (int i = 0; i < size; i++) {
        if (keys[i] == key) {
          return i;
        }
      }
      for (int i = 0; i < size; i++) {
        if (keys[i].equals(key)) {
          return i;
        }
      }
      return -1;
    }

    StateData get(String key) {
      int i = indexOf(key);
      return i < 0 ? null : values[i];
    }
  }

  /** The room a state's arrays get when they are first made or full. */
  private static final int INITIAL_CAPACITY = 16;

  private volatile Entries storage;
  // whether this state alone appends to storage's arrays (guarded by this)
  private boolean ownsArrays;
  private volatile Set<String> skipFilterPlugins = Set.of();
  private volatile Set<String> skipScorePlugins = Set.of();
  private volatile boolean recordPluginMetrics;
  // counts the writes and deletes of this state (not of its clones)
  private volatile long revision;
  // The runtime's per-cycle resolution of the plugins' state (see CycleBoundFilter); dropped by
  // every write and delete, never cloned.
  private volatile Object engineCache;

  /** Creates an empty state. */
  public CycleState() {
    this.storage = Entries.EMPTY;
  }

  private CycleState(Entries storage) {
    this.storage = storage;
  }

  /**
   * Returns the value under {@code key}, or empty when nothing was written.
   *
   * @throws IllegalStateException when the stored value has another type than the key's
   */
  public <T extends StateData> Optional<T> read(StateKey<T> key) {
    StateData value = storage.get(key.name());
    if (value == null) {
      return Optional.empty();
    }
    if (!key.type().isInstance(value)) {
      throw new IllegalStateException(
          "cycle state key "
              + key.name()
              + " holds a "
              + value.getClass().getName()
              + ", not a "
              + key.type().getName());
    }
    return Optional.of(key.type().cast(value));
  }

  /**
   * Returns the value under {@code key}.
   *
   * @throws StateNotFoundException when nothing was written under the key (kube's {@code
   *     ErrNotFound})
   */
  public <T extends StateData> T get(StateKey<T> key) {
    StateData value = storage.get(key.name());
    if (value == null) {
      throw new StateNotFoundException(key.name());
    }
    if (!key.type().isInstance(value)) {
      throw new IllegalStateException(
          "cycle state key "
              + key.name()
              + " holds a "
              + value.getClass().getName()
              + ", not a "
              + key.type().getName());
    }
    return key.type().cast(value);
  }

  /** Stores {@code value} under {@code key}, replacing any earlier value. */
  public <T extends StateData> void write(StateKey<T> key, T value) {
    Objects.requireNonNull(value, "value");
    synchronized (this) {
      Entries e = storage;
      int i = e.indexOf(key.name());
      int size = e.size();
      String[] keys = e.keys();
      StateData[] values = e.values();
      if (i < 0 && ownsArrays && size < keys.length) {
        // appended past what any published entries read
        i = size++;
        keys[i] = key.name();
      } else {
        // new arrays: a replaced value may be read through the published ones, and shared or full
        // arrays have no room of this state's own
        int capacity = Math.max(INITIAL_CAPACITY, size == keys.length ? size * 2 : keys.length);
        String[] k = new String[capacity];
        StateData[] v = new StateData[capacity];
        System.arraycopy(keys, 0, k, 0, size);
        System.arraycopy(values, 0, v, 0, size);
        keys = k;
        values = v;
        ownsArrays = true;
        if (i < 0) {
          i = size++;
          keys[i] = key.name();
        }
      }
      values[i] = value;
      storage = new Entries(keys, values, size);
      engineCache = null;
      revision++;
    }
  }

  /** Removes the value under {@code key}, if any. */
  public void delete(StateKey<?> key) {
    synchronized (this) {
      Entries e = storage;
      int i = e.indexOf(key.name());
      if (i >= 0) {
        int n = e.size();
        String[] keys = new String[Math.max(n - 1, INITIAL_CAPACITY)];
        StateData[] values = new StateData[keys.length];
        System.arraycopy(e.keys(), 0, keys, 0, i);
        System.arraycopy(e.keys(), i + 1, keys, i, n - i - 1);
        System.arraycopy(e.values(), 0, values, 0, i);
        System.arraycopy(e.values(), i + 1, values, i, n - i - 1);
        storage = new Entries(keys, values, n - 1);
        ownsArrays = true;
      }
      engineCache = null;
      revision++;
    }
  }

  /**
   * Returns a number that changes with every {@link #write} and {@link #delete} on this state
   * (changes made inside the stored values do not count), so that a caller that hands the state to
   * code expected only to read it can tell whether it was written. A clone starts from its
   * original's number.
   */
  public long revision() {
    return revision;
  }

  /**
   * Returns what the runtime cached for this state since its last write; via {@link EngineHooks}.
   */
  Object engineCache() {
    return engineCache;
  }

  /** Caches {@code value} for the runtime until the next write; via {@link EngineHooks}. */
  void setEngineCache(Object value) {
    this.engineCache = value;
  }

  /** Returns the plugins whose Filter is skipped this cycle (their PreFilter returned Skip). */
  public Set<String> skipFilterPlugins() {
    return skipFilterPlugins;
  }

  /** Sets the plugins whose Filter is skipped this cycle; via {@link EngineHooks}. */
  void setSkipFilterPlugins(Set<String> plugins) {
    this.skipFilterPlugins = Collections.unmodifiableSet(plugins);
  }

  /** Returns the plugins whose Score is skipped this cycle (their PreScore returned Skip). */
  public Set<String> skipScorePlugins() {
    return skipScorePlugins;
  }

  /** Sets the plugins whose Score is skipped this cycle; via {@link EngineHooks}. */
  void setSkipScorePlugins(Set<String> plugins) {
    this.skipScorePlugins = Collections.unmodifiableSet(plugins);
  }

  /** Returns whether per-plugin metrics are sampled in this cycle. */
  public boolean recordPluginMetrics() {
    return recordPluginMetrics;
  }

  /** Sets whether per-plugin metrics are sampled in this cycle; via {@link EngineHooks}. */
  void setRecordPluginMetrics(boolean record) {
    this.recordPluginMetrics = record;
  }

  /**
   * Returns a copy whose values are {@link StateData#copy() copies} of this state's values; the
   * skip sets and the metrics flag are shared.
   */
  @Override
  public CycleState clone() {
    Entries e;
    synchronized (this) {
      e = storage;
      // the clone may share these arrays: from now on this state copies before it appends
      ownsArrays = false;
    }
    StateData[] values = null;
    for (int i = 0; i < e.size(); i++) {
      StateData v = e.values()[i];
      StateData copied = v.copy();
      if (copied != v && values == null) {
        values = Arrays.copyOf(e.values(), e.size());
      }
      if (values != null) {
        values[i] = copied;
      }
    }
    // values that all copy to themselves are immutable: the clone shares them
    CycleState c =
        new CycleState(
            values == null ? e : new Entries(Arrays.copyOf(e.keys(), e.size()), values, e.size()));
    c.skipFilterPlugins = skipFilterPlugins;
    c.skipScorePlugins = skipScorePlugins;
    c.recordPluginMetrics = recordPluginMetrics;
    c.revision = revision;
    return c;
  }

  /** Thrown by {@link CycleState#get(StateKey)} when nothing is stored under the key. */
  public static final class StateNotFoundException extends SchedulingException {
    /** Creates the exception for key {@code key}. */
    public StateNotFoundException(String key) {
      super("not found: " + key);
    }
  }
}
