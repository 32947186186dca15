package io.kubesched.framework;

/** A plugin informed after a pod was bound, to clean up; it cannot fail the binding. */
public interface PostBindPlugin extends Plugin {
  /** Called after {@code pod} was bound to {@code nodeName}. */
  void postBind(CycleState state, PodInfo pod, String nodeName);
}
