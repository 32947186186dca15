package io.kubesched.core.runtime;

import io.kubesched.framework.Status;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * Why a pod found no node in one cycle (kube's {@code framework.Diagnosis}): the node statuses, the
 * plugins that rejected the pod or left it pending, and the PreFilter and PostFilter messages. Not
 * thread-safe.
 */
public final class Diagnosis {
  private final NodeToStatus nodeToStatus;
  private final Set<String> unschedulablePlugins = new TreeSet<>();
  private final Set<String> pendingPlugins = new TreeSet<>();
  private String preFilterMsg = "";
  private String postFilterMsg = "";

  /** Creates an empty diagnosis with a fresh {@link NodeToStatus}. */
  public Diagnosis() {
    this(new NodeToStatus());
  }

  /** Creates an empty diagnosis over {@code nodeToStatus}. */
  public Diagnosis(NodeToStatus nodeToStatus) {
    this.nodeToStatus = nodeToStatus;
  }

  /** Returns the node statuses. */
  public NodeToStatus nodeToStatus() {
    return nodeToStatus;
  }

  /** Returns the plugins that returned Unschedulable, UnschedulableAndUnresolvable or Pending. */
  public Set<String> unschedulablePlugins() {
    return Collections.unmodifiableSet(unschedulablePlugins);
  }

  /** Returns the plugins that returned Pending. */
  public Set<String> pendingPlugins() {
    return Collections.unmodifiableSet(pendingPlugins);
  }

  /** Returns the PreFilter rejection message, or {@code ""}. */
  public String preFilterMsg() {
    return preFilterMsg;
  }

  /** Sets the PreFilter rejection message. */
  public void setPreFilterMsg(String msg) {
    this.preFilterMsg = msg == null ? "" : msg;
  }

  /** Returns the PostFilter message, or {@code ""}. */
  public String postFilterMsg() {
    return postFilterMsg;
  }

  /** Sets the PostFilter message. */
  public void setPostFilterMsg(String msg) {
    this.postFilterMsg = msg == null ? "" : msg;
  }

  /** Adds {@code plugin} to the unschedulable plugins. */
  public void addUnschedulablePlugin(String plugin) {
    unschedulablePlugins.add(plugin);
  }

  /** Adds every plugin of {@code plugins} to the unschedulable plugins. */
  public void addUnschedulablePlugins(Set<String> plugins) {
    unschedulablePlugins.addAll(plugins);
  }

  /**
   * Records the plugin of {@code status} (when set): as unschedulable if the status is rejected,
   * and also as pending if it is Pending (kube's {@code AddPluginStatus}).
   */
  public void addPluginStatus(Status status) {
    if (status.plugin() == null || status.plugin().isEmpty()) {
      return;
    }
    if (status.isRejected()) {
      unschedulablePlugins.add(status.plugin());
    }
    if (status.code() == Status.Code.PENDING) {
      pendingPlugins.add(status.plugin());
    }
  }

  @Override
  public String toString() {
    return "Diagnosis{"
        + nodeToStatus
        + ", unschedulable="
        + unschedulablePlugins
        + ", pending="
        + pendingPlugins
        + ", preFilterMsg="
        + preFilterMsg
        + ", postFilterMsg="
        + postFilterMsg
        + "}";
  }
}
