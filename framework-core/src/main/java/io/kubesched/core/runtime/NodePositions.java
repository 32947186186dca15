package io.kubesched.core.runtime;

/**
 * The position of a node in a snapshot's node list, so that a few named nodes can be put in list
 * order without walking the whole list.
 */
public interface NodePositions {
  /**
   * Returns the index of {@code nodeName} in the snapshot's {@code list()}, or {@code -1} when the
   * list holds no node of that name.
   */
  int indexOf(String nodeName);
}
