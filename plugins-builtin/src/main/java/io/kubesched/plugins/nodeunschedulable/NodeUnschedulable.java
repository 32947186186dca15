package io.kubesched.plugins.nodeunschedulable;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.Status;
import io.kubesched.framework.Taint;
import io.kubesched.framework.Toleration;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.EventObjects;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code NodeUnschedulable} is a plugin that filters out nodes with {@code spec.unschedulable}
 * unless the pod tolerates the {@code node.kubernetes.io/unschedulable:NoSchedule} taint.
 */
public final class NodeUnschedulable
    implements FilterPlugin, CycleBoundFilter, EnqueueExtensions, SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.NODE_UNSCHEDULABLE;

  /** The reason for a node marked unschedulable. */
  public static final String REASON_UNSCHEDULABLE = "node(s) were unschedulable";

  /** The reason for a node info without a node. */
  public static final String REASON_UNKNOWN_CONDITION = "node(s) had unknown conditions";

  /** The taint a pod must tolerate to land on an unschedulable node. */
  public static final Taint UNSCHEDULABLE_TAINT =
      new Taint("node.kubernetes.io/unschedulable", "", Taint.NO_SCHEDULE);

  private static final Status UNSCHEDULABLE = Status.unresolvable(REASON_UNSCHEDULABLE);
  private static final Status UNKNOWN = Status.unresolvable(REASON_UNKNOWN_CONDITION);

  /** Creates the plugin. */
  public NodeUnschedulable() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (node.node() == null) {
      return UNKNOWN;
    }
    if (!node.unschedulable()) {
      return Status.success();
    }
    if (Toleration.anyTolerates(pod.tolerations(), UNSCHEDULABLE_TAINT)) {
      return Status.success();
    }
    return UNSCHEDULABLE;
  }

  /** The Filter of one cycle; {@link NodeCheck#filterAll} runs one loop over the nodes. */
  @Override
  public NodeCheck bindFilter(CycleState state, PodInfo pod) {
    return new NodeCheck() {
      @Override
      public Status filter(NodeInfo node) {
        return NodeUnschedulable.this.filter(state, pod, node);
      }

      @Override
      public void filterAll(
          NodeInfo[] nodes, int count, NodeColumns columns, int[] rows, Status[] out) {
        Status success = Status.success();
        for (int k = 0; k < count; k++) {
          boolean schedulable =
              columns != null
                  ? columns.hasNode(rows[k]) && !columns.unschedulable(rows[k])
                  : nodes[k].node() != null && !nodes[k].unschedulable();
          out[k] = schedulable ? success : NodeUnschedulable.this.filter(state, pod, nodes[k]);
        }
      }

      @Override
      public boolean passesAllRows(NodeColumns columns) {
        return columns.rowsNotSchedulable() == 0;
      }
    };
  }

  /**
   * Registers node additions and taint changes (which include {@code spec.unschedulable}) and
   * changes of the pod's own tolerations.
   */
  @Override
  public List<ClusterEventWithHint> eventsToRegister() {
    return List.of(
        ClusterEventWithHint.of(
            EventResource.NODE,
            ActionType.ADD | ActionType.UPDATE_NODE_TAINT,
            NodeUnschedulable::isSchedulableAfterNodeChange),
        ClusterEventWithHint.of(
            EventResource.POD,
            ActionType.UPDATE_POD_TOLERATION,
            NodeUnschedulable::isSchedulableAfterPodTolerationChange));
  }

  static QueueingHint isSchedulableAfterNodeChange(V1Pod pod, Object oldObj, Object newObj) {
    V1Node original = EventObjects.as(V1Node.class, oldObj);
    V1Node modified = EventObjects.required(V1Node.class, newObj);
    boolean nowSchedulable = !unschedulable(modified);
    if ((original != null && unschedulable(original) && nowSchedulable)
        || (original == null && nowSchedulable)) {
      return QueueingHint.QUEUE;
    }
    return QueueingHint.SKIP;
  }

  static QueueingHint isSchedulableAfterPodTolerationChange(
      V1Pod pod, Object oldObj, Object newObj) {
    V1Pod original = EventObjects.required(V1Pod.class, oldObj);
    V1Pod modified = EventObjects.required(V1Pod.class, newObj);
    if (Objects.equals(uid(pod), uid(modified)) && !tolerates(original) && tolerates(modified)) {
      return QueueingHint.QUEUE;
    }
    return QueueingHint.SKIP;
  }

  private static boolean unschedulable(V1Node n) {
    return n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
  }

  private static boolean tolerates(V1Pod p) {
    if (p.getSpec() == null || p.getSpec().getTolerations() == null) {
      return false;
    }
    for (V1Toleration t : p.getSpec().getTolerations()) {
      if (Toleration.of(t).tolerates(UNSCHEDULABLE_TAINT)) {
        return true;
      }
    }
    return false;
  }

  private static String uid(V1Pod p) {
    return p.getMetadata() == null ? null : p.getMetadata().getUid();
  }

  /**
   * Signs the pod by whether it tolerates the unschedulable taint: the only thing of the pod its
   * Filter reads.
   */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    return Optional.of(
        Toleration.anyTolerates(pod.tolerations(), UNSCHEDULABLE_TAINT) ? "tolerates" : "");
  }
}
