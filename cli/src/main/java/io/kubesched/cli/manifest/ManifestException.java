package io.kubesched.cli.manifest;

import java.util.List;

/**
 * Thrown when manifests cannot be loaded; carries one message per problem, each naming the file,
 * the line where known, the object and the field.
 */
public final class ManifestException extends RuntimeException {
  private final List<String> problems;

  /** Creates the exception for {@code problems} (at least one). */
  public ManifestException(List<String> problems) {
    super(String.join("\n", problems));
    this.problems = List.copyOf(problems);
  }

  /** Returns the problems, one message each. */
  public List<String> problems() {
    return problems;
  }
}
