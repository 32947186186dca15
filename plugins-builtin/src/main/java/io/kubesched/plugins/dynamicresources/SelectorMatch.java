package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.V1DeviceSelector;
import io.kubesched.plugins.dynamicresources.Allocator.AllocationException;
import java.util.List;

/** Evaluates a class's or a request's CEL selectors against one candidate device. */
final class SelectorMatch {
  private SelectorMatch() {}

  /**
   * Whether {@code c} matches every selector; {@code owner} ("class NAME" or "claim NS/NAME")
   * starts the error message, as in kube's allocator.
   *
   * @throws AllocationException when a selector is empty, does not compile or fails at runtime
   */
  static boolean matches(
      CelSelectors cel, String owner, Candidate c, List<V1DeviceSelector> selectors)
      throws AllocationException {
    for (int i = 0; i < selectors.size(); i++) {
      V1DeviceSelector s = selectors.get(i);
      if (s.getCel() == null || s.getCel().getExpression() == null) {
        throw new AllocationException(
            owner + ": selector #" + i + ": CEL expression empty (unsupported selector type?)");
      }
      CelSelectors.Compiled compiled = cel.compile(s.getCel().getExpression());
      if (compiled.error() != null) {
        throw new AllocationException(
            owner + ": selector #" + i + ": CEL compile error: " + compiled.error());
      }
      boolean m;
      try {
        m =
            cel.matches(
                compiled, c.id().driver(), c.device().getAttributes(), c.device().getCapacity());
      } catch (CelSelectors.EvalException e) {
        throw new AllocationException(
            owner + ": selector #" + i + ": CEL runtime error: " + e.getMessage());
      }
      if (!m) {
        return false;
      }
    }
    return true;
  }
}
