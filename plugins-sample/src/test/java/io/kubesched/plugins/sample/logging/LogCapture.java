package io.kubesched.plugins.sample.logging;

import java.util.ArrayList;
import java.util.List;

/**
 * The log lines of every level that the loggers of {@link CapturingLoggerProvider} record while a
 * capture is open, as {@code LEVEL logger - key=value ... message}. One capture at a time (the
 * tests of this module run one after the other); a capture that is not closed records until the
 * next one opens.
 */
public final class LogCapture implements AutoCloseable {
  private static final Object LOCK = new Object();
  private static LogCapture current;

  private final List<String> lines = new ArrayList<>();

  private LogCapture() {}

  /** Opens a capture: from now on every log line, of any level, is recorded in it. */
  public static LogCapture start() {
    synchronized (LOCK) {
      current = new LogCapture();
      return current;
    }
  }

  static boolean active() {
    synchronized (LOCK) {
      return current != null;
    }
  }

  static void record(String line) {
    synchronized (LOCK) {
      if (current != null) {
        current.lines.add(line);
      }
    }
  }

  /** Returns the lines recorded so far. */
  public List<String> lines() {
    synchronized (LOCK) {
      return List.copyOf(lines);
    }
  }

  @Override
  public void close() {
    synchronized (LOCK) {
      if (current == this) {
        current = null;
      }
    }
  }
}
