package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1Pod;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pods a plugin wants moved to the active queue at the end of the cycle (kube's {@code
 * PodsToActivate}), stored in the cycle state under {@link #KEY}.
 */
public final class PodsToActivate implements StateData {
  /** The cycle-state key, as in kube-scheduler. */
  public static final StateKey<PodsToActivate> KEY =
      StateKey.of("kubernetes.io/pods-to-activate", PodsToActivate.class);

  private final Map<String, V1Pod> pods = new ConcurrentHashMap<>();

  /** Returns the pods keyed {@code namespace/name}; the map is live and thread-safe. */
  public Map<String, V1Pod> pods() {
    return pods;
  }

  /** Shared, not copied: activation requests of clones go to the same cycle. */
  @Override
  public StateData copy() {
    return this;
  }
}
