package io.kubesched.framework;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What changed in a {@link NodeInfoLister}'s node list since an earlier moment, for plugins that
 * keep per-node results from one scheduling cycle to the next and would otherwise compare every
 * node of the cluster each cycle to find the few that changed.
 *
 * <p>Contract: while {@link #structuralChanges()} keeps its value the list holds the same nodes at
 * the same positions, and a node whose name {@link #changedSince} does not return is, at its
 * position, the very same {@link NodeInfo} object as at the earlier {@link #position()}, with the
 * same content. Read it from the scheduling thread during a cycle, like the lister.
 */
public interface NodeJournal {
  /**
   * Returns a count that changes whenever nodes are added to, removed from or moved in the list.
   */
  long structuralChanges();

  /** Returns the journal's current position. */
  long position();

  /**
   * Returns the names of the nodes whose node info was replaced since {@code position} (repeats
   * possible), or {@code null} when the journal no longer reaches back that far.
   */
  @Nullable List<String> changedSince(long position);

  /** Returns the position of {@code nodeName} in the lister's {@code list()}, or {@code -1}. */
  int indexOf(String nodeName);
}
