package io.kubesched.framework;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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
  private final Map<String, StateData> storage;
  private volatile Set<String> skipFilterPlugins = Set.of();
  private volatile Set<String> skipScorePlugins = Set.of();
  private volatile boolean recordPluginMetrics;
  // The runtime's per-cycle resolution of the plugins' state (see CycleBoundFilter); dropped by
  // every write and delete, never cloned.
  private volatile Object engineCache;

  /** Creates an empty state. */
  public CycleState() {
    this.storage = new ConcurrentHashMap<>();
  }

  private CycleState(Map<String, StateData> storage) {
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
    storage.put(key.name(), value);
    engineCache = null;
  }

  /** Removes the value under {@code key}, if any. */
  public void delete(StateKey<?> key) {
    storage.remove(key.name());
    engineCache = null;
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
    Map<String, StateData> copy = new ConcurrentHashMap<>(Math.max(16, storage.size() * 2));
    storage.forEach((k, v) -> copy.put(k, v.copy()));
    CycleState c = new CycleState(copy);
    c.skipFilterPlugins = skipFilterPlugins;
    c.skipScorePlugins = skipScorePlugins;
    c.recordPluginMetrics = recordPluginMetrics;
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
