package io.kubesched.core;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.PodInfo;

/** Null-safe reads of the pod fields the scheduler's handlers and cycles look at. */
final class Pods {
  private Pods() {}

  /** Returns the pod's UID as {@code PodInfo.uid()} does (the key when the UID is unset). */
  static String uid(V1Pod pod) {
    String uid = pod.getMetadata().getUid();
    return isEmpty(uid) ? key(pod) : uid;
  }

  /** Returns {@code namespace/name}. */
  static String key(V1Pod pod) {
    return PodInfo.key(
        String.valueOf(pod.getMetadata().getNamespace()),
        String.valueOf(pod.getMetadata().getName()));
  }

  /** Returns {@code spec.nodeName}, or null. */
  static String nodeName(V1Pod pod) {
    return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
  }

  /** Returns whether the pod is bound (has a node name). */
  static boolean assigned(V1Pod pod) {
    return !isEmpty(nodeName(pod));
  }

  /** Returns whether the pod is Succeeded or Failed. */
  static boolean terminal(V1Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** Returns {@code spec.priority}, 0 when unset. */
  static int priority(V1Pod pod) {
    Integer p = pod.getSpec() == null ? null : pod.getSpec().getPriority();
    return p == null ? 0 : p;
  }

  /** Returns {@code status.nominatedNodeName}, or null. */
  static String nominatedNodeName(V1Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
  }

  /** Returns whether {@code s} is null or empty. */
  static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
