package io.kubesched.plugins.sample.logging;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.simple.SimpleServiceProvider;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The tests' slf4j backend (chosen with the system property {@code slf4j.provider} in the pom):
 * slf4j-simple's output as before, plus the records of {@link LogCapture} while a test captures.
 */
public final class CapturingLoggerProvider implements SLF4JServiceProvider {
  private final SimpleServiceProvider simple = new SimpleServiceProvider();
  private final Map<String, Logger> loggers = new ConcurrentHashMap<>();
  private final ILoggerFactory factory =
      name ->
          loggers.computeIfAbsent(
              name, n -> new CapturingLogger(n, simple.getLoggerFactory().getLogger(n)));

  @Override
  public ILoggerFactory getLoggerFactory() {
    return factory;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return simple.getMarkerFactory();
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return simple.getMDCAdapter();
  }

  @Override
  public String getRequestedApiVersion() {
    return simple.getRequestedApiVersion();
  }

  @Override
  public void initialize() {
    simple.initialize();
  }
}
