package io.kubesched.core.runtime;

import java.util.List;

/**
 * What changed in a snapshot between two scheduling cycles, for opportunistic batching: a journal
 * of the nodes whose {@code NodeInfo} was replaced, and a count of the changes to the node list.
 */
public interface NodeChanges {
  /** Returns how many times the node list itself (nodes added, removed, reordered) changed. */
  long structuralChanges();

  /** Returns the journal's current position. */
  long position();

  /**
   * Returns the names of the nodes replaced since {@code position} (repeats possible), or {@code
   * null} when the journal no longer reaches back that far.
   */
  List<String> changedSince(long position);
}
