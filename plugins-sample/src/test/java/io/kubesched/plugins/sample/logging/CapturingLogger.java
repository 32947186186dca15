package io.kubesched.plugins.sample.logging;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;
import org.slf4j.event.Level;
import org.slf4j.event.LoggingEvent;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.LoggingEventAware;
import org.slf4j.spi.LoggingEventBuilder;

/** Records into {@link LogCapture} (every level, while capturing) and forwards to slf4j-simple. */
final class CapturingLogger extends AbstractLogger implements LoggingEventAware {
  private final transient Logger delegate;

  CapturingLogger(String name, Logger delegate) {
    this.name = name;
    this.delegate = delegate;
  }

  @Override
  public void log(LoggingEvent event) {
    record(
        event.getLevel(),
        event.getMessage(),
        event.getArgumentArray(),
        event.getKeyValuePairs(),
        event.getThrowable());
  }

  @Override
  protected void handleNormalizedLoggingCall(
      Level level, Marker marker, String msg, Object[] args, Throwable throwable) {
    record(level, msg, args, null, throwable);
  }

  private void record(
      Level level, String msg, Object[] args, List<KeyValuePair> kvs, Throwable throwable) {
    String text = MessageFormatter.basicArrayFormat(msg, args);
    StringBuilder line = new StringBuilder(level + " " + name + " -");
    if (kvs != null) {
      for (KeyValuePair kv : kvs) {
        line.append(' ').append(kv.key).append('=').append(kv.value);
      }
    }
    line.append(' ').append(text);
    LogCapture.record(line.toString());
    if (delegate.isEnabledForLevel(level)) {
      LoggingEventBuilder b = delegate.atLevel(level).setMessage(text).setCause(throwable);
      if (kvs != null) {
        kvs.forEach(kv -> b.addKeyValue(kv.key, kv.value));
      }
      b.log();
    }
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  private boolean enabled(Level level) {
    return LogCapture.active() || delegate.isEnabledForLevel(level);
  }

  @Override
  public boolean isTraceEnabled() {
    return enabled(Level.TRACE);
  }

  @Override
  public boolean isTraceEnabled(Marker marker) {
    return isTraceEnabled();
  }

  @Override
  public boolean isDebugEnabled() {
    return enabled(Level.DEBUG);
  }

  @Override
  public boolean isDebugEnabled(Marker marker) {
    return isDebugEnabled();
  }

  @Override
  public boolean isInfoEnabled() {
    return enabled(Level.INFO);
  }

  @Override
  public boolean isInfoEnabled(Marker marker) {
    return isInfoEnabled();
  }

  @Override
  public boolean isWarnEnabled() {
    return enabled(Level.WARN);
  }

  @Override
  public boolean isWarnEnabled(Marker marker) {
    return isWarnEnabled();
  }

  @Override
  public boolean isErrorEnabled() {
    return enabled(Level.ERROR);
  }

  @Override
  public boolean isErrorEnabled(Marker marker) {
    return isErrorEnabled();
  }
}
