package io.kubesched.testing;

import io.kubesched.framework.Plugin;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The base of the fake plugins: a name given in the constructor and a call counter owned by the
 * instance (no static state, so tests running in parallel do not see each other's calls).
 */
public abstract class FakePlugin implements Plugin {
  private final String name;
  private final AtomicInteger calls = new AtomicInteger();

  /** Creates a fake plugin called {@code name}. */
  protected FakePlugin(String name) {
    this.name = Objects.requireNonNull(name, "name");
  }

  /** Returns the name given in the constructor. */
  @Override
  public final String name() {
    return name;
  }

  /** Returns how many times the plugin was called, over all its extension points. */
  public final int calls() {
    return calls.get();
  }

  /** Resets the call count to zero. */
  public void reset() {
    calls.set(0);
  }

  /** Counts one call; subclasses call it first in every extension point method. */
  protected final void count() {
    calls.incrementAndGet();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + name + ", calls=" + calls.get() + "]";
  }
}
