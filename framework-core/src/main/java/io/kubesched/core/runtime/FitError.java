package io.kubesched.core.runtime;

import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    StringBuilder m = new StringBuilder("0/").append(numAllNodes).append(" nodes are available:");
    String preFilterMsg = diagnosis.preFilterMsg();
    if (!preFilterMsg.isEmpty()) {
      m.append(' ').append(preFilterMsg).append('.');
    } else {
      Map<String, Integer> histogram = new HashMap<>();
      NodeToStatus statuses = diagnosis.nodeToStatus();
      statuses.forEachExplicitNode(
          (node, status) -> {
            for (String r : status.allReasons()) {
              histogram.merge(r, 1, Integer::sum);
            }
          });
      if (statuses.size() < numAllNodes) {
        int absent = numAllNodes - statuses.size();
        for (String r : statuses.absentNodesStatus().allReasons()) {
          histogram.merge(r, absent, Integer::sum);
        }
      }
      List<String> items = new ArrayList<>(histogram.size());
      histogram.forEach((reason, count) -> items.add(count + " " + reason));
      // Go's sort.Strings compares bytes; for valid UTF-8 this is code-point order.
      items.sort(FitError::compareUtf8);
      if (!items.isEmpty()) {
        m.append(' ').append(String.join(", ", items)).append('.');
      }
    }
    String postFilterMsg = diagnosis.postFilterMsg();
    if (!postFilterMsg.isEmpty()) {
      m.append(' ').append(postFilterMsg);
    }
    return m.toString();
  }

  /** Compares by Unicode code points, which equals Go's byte-wise comparison of UTF-8 strings. */
  static int compareUtf8(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /** Returns a status for this error: Unschedulable with the message as its cause. */
  public Status asStatus() {
    return new Status(Status.Code.UNSCHEDULABLE, List.of(), this, null);
  }
}
