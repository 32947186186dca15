package io.kubesched.core.runtime;

/** Thrown when a plugin cannot be registered, for instance because its name is taken. */
public class PluginRegistrationException extends RuntimeException {
  /** Creates the exception. */
  public PluginRegistrationException(String message) {
    super(message);
  }
}
