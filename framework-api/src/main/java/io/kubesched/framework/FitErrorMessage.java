package io.kubesched.framework;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * kube's {@code FitError.Error()} text, {@code "0/N nodes are available: ..."}, byte for byte: the
 * engine's fit error and preemption plugins (when no node can be made to fit) both print it.
 */
public final class FitErrorMessage {
  private FitErrorMessage() {}

  /**
   * Returns {@code "0/N nodes are available:"}, then {@code preFilterMsg} or the sorted reason
   * histogram (each followed by a period), then {@code postFilterMsg}. The histogram counts every
   * reason of every explicit status once per node, and the reasons of {@code absentNodesStatus}
   * once for each of the {@code numAllNodes} nodes without an explicit status; each entry reads
   * {@code "<count> <reason>"}, sorted as Go's {@code sort.Strings} sorts, joined by {@code ", "}.
   *
   * @param numAllNodes the number of nodes in the snapshot
   * @param preFilterMsg the PreFilter rejection message, or empty
   * @param nodeStatuses the explicit status of each filtered node
   * @param absentNodesStatus the status of the nodes without an explicit one
   * @param postFilterMsg the PostFilter message, or empty
   */
  public static String format(
      int numAllNodes,
      String preFilterMsg,
      Map<String, Status> nodeStatuses,
      Status absentNodesStatus,
      String postFilterMsg) {
    StringBuilder m = new StringBuilder("0/").append(numAllNodes).append(" nodes are available:");
    if (!preFilterMsg.isEmpty()) {
      m.append(' ').append(preFilterMsg).append('.');
    } else {
      // nodes rejected for one reason often share one status object, one after the other: each
      // run of the same object adds its reasons once
      Map<String, Integer> histogram = new HashMap<>();
      @Nullable Status run = null;
      int length = 0;
      for (Status status : nodeStatuses.values()) {
        if (status != run) {
          addReasons(histogram, run, length);
          run = status;
          length = 0;
        }
        length++;
      }
      addReasons(histogram, run, length);
      if (nodeStatuses.size() < numAllNodes) {
        int absent = numAllNodes - nodeStatuses.size();
        for (String r : absentNodesStatus.allReasons()) {
          histogram.merge(r, absent, Integer::sum);
        }
      }
      List<String> items = new ArrayList<>(histogram.size());
      histogram.forEach((reason, count) -> items.add(count + " " + reason));
      // Go's sort.Strings compares bytes; for valid UTF-8 this is code-point order.
      items.sort(FitErrorMessage::compareUtf8);
      if (!items.isEmpty()) {
        m.append(' ').append(String.join(", ", items)).append('.');
      }
    }
    if (!postFilterMsg.isEmpty()) {
      m.append(' ').append(postFilterMsg);
    }
    return m.toString();
  }

  private static void addReasons(
      Map<String, Integer> histogram, @Nullable Status status, int count) {
    if (status == null) {
      return;
    }
    for (String r : status.allReasons()) {
      histogram.merge(r, count, Integer::sum);
    }
  }

  /** Compares by Unicode code points, which equals Go's byte-wise comparison of UTF-8 strings. */
  public static int compareUtf8(String a, String b) {
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
}
