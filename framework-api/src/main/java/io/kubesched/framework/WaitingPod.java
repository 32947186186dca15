package io.kubesched.framework;

import java.util.List;

/** A pod held at Permit, waiting for its plugins to allow it. */
public interface WaitingPod {
  /** Returns the pod. */
  PodInfo pod();

  /** Returns the node the pod is reserved on. */
  String nodeName();

  /** Returns the plugins that still have to allow the pod. */
  List<String> pendingPlugins();

  /**
   * Records that {@code pluginName} allows the pod; when no plugin is left, the pod goes on to
   * binding.
   */
  void allow(String pluginName);

  /**
   * Rejects the pod: its binding is abandoned with an Unschedulable status carrying {@code
   * message}, attributed to {@code pluginName}.
   */
  void reject(String pluginName, String message);
}
