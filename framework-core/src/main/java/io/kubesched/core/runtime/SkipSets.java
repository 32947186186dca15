package io.kubesched.core.runtime;

import io.kubesched.framework.Plugin;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The skip sets of one extension point (the plugins whose PreFilter or PreScore returned Skip this
 * cycle), made once per distinct set: pods alike skip the same plugins, and a set that is the same
 * object from cycle to cycle also keeps {@link Framework}'s per-set caches (the active Filter
 * plugins, the active PreFilter extensions) valid.
 *
 * <p>A set is asked for by its mask: bit {@code i} for the point's plugin {@code i}. Points of more
 * than 64 plugins get a new set each time. Safe for concurrent use (the last set is published
 * whole).
 */
final class SkipSets {
  private final String[] names;
  private volatile Interned last;

  private record Interned(long mask, Set<String> set) {}

  SkipSets(List<? extends Plugin> plugins) {
    names = new String[plugins.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = plugins.get(i).name();
    }
    last = new Interned(0, Collections.unmodifiableSet(new HashSet<>()));
  }

  /** Returns whether masks can name every plugin of the point. */
  boolean masks() {
    return names.length <= Long.SIZE;
  }

  /** Returns the read-only set of the plugins whose bits are set in {@code mask}. */
  Set<String> of(long mask) {
    Interned l = last;
    if (l.mask() == mask) {
      return l.set();
    }
    Set<String> set = new HashSet<>();
    for (int i = 0; i < names.length && i < Long.SIZE; i++) {
      if ((mask & (1L << i)) != 0) {
        set.add(names[i]);
      }
    }
    Set<String> out = Collections.unmodifiableSet(set);
    last = new Interned(mask, out);
    return out;
  }

  /** Returns a new collector of one cycle's skipped plugins of this point. */
  Collector collector() {
    return new Collector(this);
  }

  /**
   * The plugins of the point that returned Skip in one cycle: a mask while they fit in one (the set
   * then comes from {@link #of}), else the names. Used by one thread.
   */
  static final class Collector {
    private final SkipSets sets;
    private long mask;
    private final Set<String> names;

    private Collector(SkipSets sets) {
      this.sets = sets;
      this.names = sets.masks() ? null : new HashSet<>();
    }

    /** Notes that the point's plugin {@code index}, named {@code name}, returned Skip. */
    void add(int index, String name) {
      if (names == null) {
        mask |= 1L << index;
      } else {
        names.add(name);
      }
    }

    /** Returns the skipped plugins' names. */
    Set<String> set() {
      return names == null ? sets.of(mask) : names;
    }
  }
}
