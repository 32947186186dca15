package io.kubesched.core.runtime;

import io.kubesched.framework.FitErrorMessage;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.util.List;

/**
 * The pod fits no node (kube's {@code framework.FitError}); its message is kube's {@code "0/N nodes
 * are available: ..."} text, byte for byte.
 */
public final class FitError extends SchedulingException {
  private static final long serialVersionUID = 1L;

  private final transient PodInfo pod;
  private final int numAllNodes;
  private final transient Diagnosis diagnosis;

  /**
   * Creates the error.
   *
   * @param pod the pod
   * @param numAllNodes the number of nodes in the snapshot
   * @param diagnosis why the nodes were rejected
   */
  public FitError(PodInfo pod, int numAllNodes, Diagnosis diagnosis) {
    super("0/" + numAllNodes + " nodes are available");
    this.pod = pod;
    this.numAllNodes = numAllNodes;
    this.diagnosis = diagnosis;
  }

  /** Returns the pod. */
  public PodInfo pod() {
    return pod;
  }

  /** Returns the number of nodes in the snapshot. */
  public int numAllNodes() {
    return numAllNodes;
  }

  /** Returns the diagnosis; mutable (the scheduler sets the PostFilter message). */
  public Diagnosis diagnosis() {
    return diagnosis;
  }

  /**
   * Returns kube's message: {@code "0/N nodes are available:"}, then the PreFilter message or the
   * sorted reason histogram (each followed by a period), then the PostFilter message.
   */
  @Override
  public String getMessage() {
    NodeToStatus statuses = diagnosis.nodeToStatus();
    return FitErrorMessage.format(
        numAllNodes,
        diagnosis.preFilterMsg(),
        statuses.explicit(),
        statuses.absentNodesStatus(),
        diagnosis.postFilterMsg());
  }

  /** Returns a status for this error: Unschedulable with the message as its cause. */
  public Status asStatus() {
    return new Status(Status.Code.UNSCHEDULABLE, List.of(), this, null);
  }
}
