package io.kubesched.framework;

/**
 * One problem with a user-supplied value, with the path of the offending field, e.g. {@code
 * profiles[0].pluginConfig[1].args.scoringStrategy.type}.
 *
 * @param path the field's path, never {@code null}
 * @param message what is wrong, as a short lowercase sentence
 */
public record FieldError(String path, String message) {
  @Override
  public String toString() {
    return path + ": " + message;
  }
}
