package io.kubesched.framework;

import java.util.ArrayList;
import java.util.List;

/** The bits of a cluster event's action (kube's {@code framework.ActionType}). */
public final class ActionType {
  /** An object was added. */
  public static final int ADD = 1;

  /** An object was deleted. */
  public static final int DELETE = 1 << 1;

  /** A node's allocatable changed. */
  public static final int UPDATE_NODE_ALLOCATABLE = 1 << 2;

  /** A node's labels changed. */
  public static final int UPDATE_NODE_LABEL = 1 << 3;

  /** A node's taints (or {@code spec.unschedulable}) changed. */
  public static final int UPDATE_NODE_TAINT = 1 << 4;

  /** A node's conditions changed. */
  public static final int UPDATE_NODE_CONDITION = 1 << 5;

  /** A node's annotations changed. */
  public static final int UPDATE_NODE_ANNOTATION = 1 << 6;

  /** A pod's labels changed. */
  public static final int UPDATE_POD_LABEL = 1 << 7;

  /** A pod's resource requests were scaled down. */
  public static final int UPDATE_POD_SCALE_DOWN = 1 << 8;

  /** A pod's tolerations changed. */
  public static final int UPDATE_POD_TOLERATION = 1 << 9;

  /** A pod's scheduling gates were all removed. */
  public static final int UPDATE_POD_SCHEDULING_GATES_ELIMINATED = 1 << 10;

  /** A pod's generated resource claim changed. */
  public static final int UPDATE_POD_GENERATED_RESOURCE_CLAIM = 1 << 11;

  /** Any other pod update (internal). */
  public static final int UPDATE_POD_OTHER = 1 << 12;

  /** Every update. */
  public static final int UPDATE =
      UPDATE_NODE_ALLOCATABLE
          | UPDATE_NODE_LABEL
          | UPDATE_NODE_TAINT
          | UPDATE_NODE_CONDITION
          | UPDATE_NODE_ANNOTATION
          | UPDATE_POD_LABEL
          | UPDATE_POD_SCALE_DOWN
          | UPDATE_POD_TOLERATION
          | UPDATE_POD_SCHEDULING_GATES_ELIMINATED
          | UPDATE_POD_GENERATED_RESOURCE_CLAIM
          | UPDATE_POD_OTHER;

  /** Every action. */
  public static final int ALL = ADD | DELETE | UPDATE;

  private static final String[] NAMES = {
    "Add",
    "Delete",
    "UpdateNodeAllocatable",
    "UpdateNodeLabel",
    "UpdateNodeTaint",
    "UpdateNodeCondition",
    "UpdateNodeAnnotation",
    "UpdatePodLabel",
    "UpdatePodScaleDown",
    "UpdatePodToleration",
    "UpdatePodSchedulingGatesEliminated",
    "UpdatePodGeneratedResourceClaim",
    "updatePodOther"
  };

  private ActionType() {}

  /** Returns kube's name of the action bits, e.g. {@code Add|UpdateNodeLabel} or {@code All}. */
  public static String toString(int action) {
    if (action == ALL) {
      return "All";
    }
    if (action == UPDATE) {
      return "Update";
    }
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < NAMES.length; i++) {
      if ((action & (1 << i)) != 0) {
        parts.add(NAMES[i]);
      }
    }
    return String.join("|", parts);
  }
}
