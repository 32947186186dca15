package io.kubesched.framework;

/**
 * Receives the preemption metrics ({@code scheduler_preemption_attempts_total} and {@code
 * scheduler_preemption_victims}). Preemption plugins get the scheduler's from {@link
 * FrameworkHandle#preemptionObserver()}; implementations must be thread-safe.
 */
public interface PreemptionObserver {
  /** Called once per PostFilter run of a preemption plugin. */
  void attempt();

  /** Called with the number of victims each time a node is chosen for preemption. */
  void victims(int count);

  /** Returns an observer that records nothing. */
  static PreemptionObserver none() {
    return NoopObserver.INSTANCE;
  }

  /** The observer that records nothing. */
  enum NoopObserver implements PreemptionObserver {
    INSTANCE;

    @Override
    public void attempt() {}

    @Override
    public void victims(int count) {}
  }
}
