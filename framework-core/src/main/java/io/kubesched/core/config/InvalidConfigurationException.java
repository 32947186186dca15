package io.kubesched.core.config;

import io.kubesched.framework.FieldError;
import java.util.List;

/**
 * Thrown when a scheduler configuration cannot be used: every problem found, each with the path of
 * the offending field (e.g. {@code profiles[0].pluginConfig[1].args.scoringStrategy.type}), listed
 * one per line in the message.
 */
public final class InvalidConfigurationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<FieldError> errors;

  /**
   * Creates the exception.
   *
   * @param source what was being loaded, e.g. a file name; used in the first line of the message
   * @param errors the problems, at least one
   */
  public InvalidConfigurationException(String source, List<FieldError> errors) {
    super(message(source, errors));
    this.errors = List.copyOf(errors);
  }

  /** Creates the exception for configuration that does not come from a file. */
  public InvalidConfigurationException(List<FieldError> errors) {
    this("", errors);
  }

  /** Returns every problem found, in the order found; never empty. */
  public List<FieldError> errors() {
    return errors;
  }

  private static String message(String source, List<FieldError> errors) {
    StringBuilder sb = new StringBuilder("invalid scheduler configuration");
    if (source != null && !source.isEmpty()) {
      sb.append(' ').append(source);
    }
    sb.append(':');
    for (FieldError e : errors) {
      sb.append('\n').append(e);
    }
    return sb.toString();
  }
}
