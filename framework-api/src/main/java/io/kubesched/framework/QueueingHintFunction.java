package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1Pod;

/**
 * Decides whether a cluster event may make a pod rejected by the registering plugin schedulable. An
 * exception counts as {@link QueueingHint#QUEUE}.
 */
@FunctionalInterface
public interface QueueingHintFunction {
  /**
   * Returns the hint for {@code pod} given the event's old and new objects (either may be {@code
   * null}: no old object on add, no new object on delete).
   */
  QueueingHint hint(V1Pod pod, Object oldObj, Object newObj) throws Exception;
}
