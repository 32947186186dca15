package io.kubesched.plugins.dynamicresources;

/**
 * Checks DRA CEL selector expressions as the API server does when it validates ResourceClaims and
 * DeviceClasses: in kube's device environment, and evaluating to bool.
 */
public final class CelCheck {
  private static final CelSelectors ENV = new CelSelectors();

  private CelCheck() {}

  /**
   * Returns why {@code expression} does not compile (kube's {@code compilation failed: ...}), or
   * {@code null} when it compiles.
   */
  public static String compileError(String expression) {
    return ENV.compile(expression).error();
  }
}
