package io.kubesched.framework;

import java.util.function.IntConsumer;

/** Runs work over many pieces on the scheduler's worker pool. */
public interface Parallelizer {
  /** Returns the number of workers. */
  int parallelism();

  /**
   * Runs {@code work} for every index in {@code [0, pieces)}, in parallel, and returns when all
   * have run. An exception thrown by {@code work} is rethrown after the others stopped.
   */
  void until(int pieces, IntConsumer work);
}
