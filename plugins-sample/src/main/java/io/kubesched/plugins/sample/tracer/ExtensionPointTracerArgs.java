package io.kubesched.plugins.sample.tracer;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import java.util.List;
import java.util.Set;

/**
 * The arguments of {@link ExtensionPointTracer}.
 *
 * @param logLevel the slf4j level of the trace lines: {@code TRACE}, {@code DEBUG} or {@code INFO}
 */
public record ExtensionPointTracerArgs(String logLevel) implements PluginArgs {
  private static final Set<String> LEVELS = Set.of("TRACE", "DEBUG", "INFO");

  /** Returns the default arguments (level INFO). */
  public static ExtensionPointTracerArgs defaults() {
    return new ExtensionPointTracerArgs("INFO");
  }

  @Override
  public List<FieldError> validate(String path) {
    if (logLevel == null || !LEVELS.contains(logLevel)) {
      return List.of(
          new FieldError(
              path + ".logLevel", "must be one of TRACE, DEBUG, INFO, got \"" + logLevel + "\""));
    }
    return List.of();
  }
}
