package io.kubesched.core;

import java.util.Random;

/**
 * The scheduler's default random source: the very sequence of {@link Random} with the same seed,
 * without its atomic update on every draw. The scheduling thread draws once per tied node in
 * selectHost, thousands of times per pod on a uniform cluster, and is the only thread that draws;
 * not thread-safe.
 */
final class SchedulingRandom extends Random {
  private static final long serialVersionUID = 1L;
  private static final long MULTIPLIER = 0x5DEECE66DL;
  private static final long ADDEND = 0xBL;
  private static final long MASK = (1L << 48) - 1;

  // no initialiser: Random's constructor sets it through setSeed before this class's fields run
  private long state;

  SchedulingRandom(long seed) {
    super(seed);
  }

  @Override
  public synchronized void setSeed(long seed) {
    super.setSeed(seed);
    state = (seed ^ MULTIPLIER) & MASK;
  }

  @Override
  protected int next(int bits) {
    long s = (state * MULTIPLIER + ADDEND) & MASK;
    state = s;
    return (int) (s >>> (48 - bits));
  }
}
