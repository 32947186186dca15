package io.kubesched.plugins.nodeports;

import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.HostPort;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.EventObjects;
import io.kubesched.plugins.helper.LastFragment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code NodePorts} is a plugin that checks that the host ports a pod asks for are free on the
 * node.
 */
public final class NodePorts
    implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.NODE_PORTS;

  /** The reason for a port conflict. */
  public static final String REASON = "node(s) didn't have free ports for the requested pod ports";

  static final StateKey<PreFilterState> PRE_FILTER_KEY =
      StateKey.of("PreFilter" + NAME, PreFilterState.class);

  private static final Status CONFLICT = Status.unschedulable(REASON);

  /**
   * The host ports the pod wants, computed in PreFilter.
   *
   * @param ports the wanted ports, never empty
   */
  record PreFilterState(List<HostPort> ports) implements StateData {}

  /** Creates the plugin. */
  public NodePorts() {}

  @Override
  public String name() {
    return NAME;
  }

  /** Skips pods without host ports; otherwise stores the wanted ports. */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    List<HostPort> ports = pod.hostPorts();
    if (ports.isEmpty()) {
      return PreFilterResult.skip();
    }
    state.write(PRE_FILTER_KEY, new PreFilterState(ports));
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    List<HostPort> wanted = state.get(PRE_FILTER_KEY).ports();
    for (int i = 0; i < wanted.size(); i++) {
      if (node.portConflicts(wanted.get(i))) {
        return CONFLICT;
      }
    }
    return Status.success();
  }

  /**
   * Registers deletions of pods (host ports are immutable, so updates never free one) and node
   * additions (always requeue).
   */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.POD, ActionType.DELETE, NodePorts::isSchedulableAfterPodDeleted),
        ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD));
  }

  static QueueingHint isSchedulableAfterPodDeleted(V1Pod pod, Object oldObj, Object newObj) {
    V1Pod deleted = EventObjects.required(V1Pod.class, oldObj);
    String nodeName = deleted.getSpec() == null ? null : deleted.getSpec().getNodeName();
    if (nodeName == null || nodeName.isEmpty()) {
      return QueueingHint.SKIP;
    }
    List<HostPort> freed = hostPorts(deleted);
    if (freed.isEmpty()) {
      return QueueingHint.SKIP;
    }
    for (HostPort wanted : hostPorts(pod)) {
      for (HostPort used : freed) {
        if (wanted.conflictsWith(used)) {
          return QueueingHint.QUEUE;
        }
      }
    }
    return QueueingHint.SKIP;
  }

  private static List<HostPort> hostPorts(V1Pod pod) {
    List<HostPort> out = new ArrayList<>();
    if (pod.getSpec() == null || pod.getSpec().getContainers() == null) {
      return out;
    }
    for (V1Container c : pod.getSpec().getContainers()) {
      if (c.getPorts() == null) {
        continue;
      }
      for (V1ContainerPort p : c.getPorts()) {
        if (p.getHostPort() != null && p.getHostPort() > 0) {
          out.add(new HostPort(p.getHostIP(), p.getProtocol(), p.getHostPort()));
        }
      }
    }
    return out;
  }

  /** Signs the pod by its host ports. */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    return portFragments.of(pod.hostPorts());
  }

  private final LastFragment<List<HostPort>> portFragments = new LastFragment<>(String::valueOf);
}
