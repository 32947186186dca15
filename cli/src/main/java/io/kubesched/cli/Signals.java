package io.kubesched.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Turns SIGTERM and SIGINT into a call of {@code onStop} instead of the JVM's shutdown (whose exit
 * code would be 143 or 130), so that {@code kubesched run} drains and exits 0 as kube-scheduler
 * does. {@link #restore()} puts the previous handlers back.
 */
final class Signals {
  private final SignalHandler term;
  private final SignalHandler interrupt;

  private Signals(SignalHandler term, SignalHandler interrupt) {
    this.term = term;
    this.interrupt = interrupt;
  }

  /** Installs the handlers; a signal the platform does not know is left alone. */
  static Signals install(Runnable onStop) {
    SignalHandler h = sig -> onStop.run();
    return new Signals(handle("TERM", h), handle("INT", h));
  }

  private static SignalHandler handle(String name, SignalHandler h) {
    try {
      return Signal.handle(new Signal(name), h);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Puts back the handlers found at {@link #install}. */
  void restore() {
    if (term != null) {
      handle("TERM", term);
    }
    if (interrupt != null) {
      handle("INT", interrupt);
    }
  }
}
