package io.kubesched.core.runtime;

import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Status;

/**
 * The working arrays of the Filter phase on one thread, reused from block to block and cycle to
 * cycle: fresh arrays per block of nodes cost more in cold memory than the filtering itself. Each
 * user fills what it reads before reading it. The node slots are cleared after each block, so no
 * node info outlives its cycle here; a status slot keeps its last status until it is written again.
 */
final class FilterScratch {
  /** The most nodes a block holds. */
  static final int BLOCK = 128;

  // Framework.runFilterPlugins(block): the surviving nodes' positions, the nodes, one plugin's
  // statuses
  final int[] alive = new int[BLOCK];
  final NodeInfo[] remaining = new NodeInfo[BLOCK];
  final Status[] result = new Status[BLOCK];
  final int[] remainingRows = new int[BLOCK];

  // SchedulingAlgorithm.filterBlock: the nodes without nominated pods, their positions in the
  // block, their statuses; and the block's statuses for the walk
  final NodeInfo[] plain = new NodeInfo[BLOCK];
  final int[] at = new int[BLOCK];
  final int[] rows = new int[BLOCK];
  final Status[] statuses = new Status[BLOCK];
  final Status[] block = new Status[BLOCK];
  // each block position's node row (list position), set by filterBlock
  final int[] blockRows = new int[BLOCK];

  // Framework.runFilterPlugins(block): per position in the cycle's plugin array, the last
  // rejection a plugin returned and the same carrying its name, so that the nodes a plugin rejects
  // with one status object share one named status (statuses are immutable)
  private FilterPlugin[] namedBy = new FilterPlugin[0];
  private Status[] unnamed = new Status[0];
  private Status[] named = new Status[0];

  /** Returns {@code s.withPlugin(plugin.name())}, the same object as last time for the same s. */
  Status named(int position, FilterPlugin plugin, Status s) {
    if (position >= namedBy.length) {
      int n = Math.max(position + 1, 16);
      namedBy = java.util.Arrays.copyOf(namedBy, n);
      unnamed = java.util.Arrays.copyOf(unnamed, n);
      named = java.util.Arrays.copyOf(named, n);
    }
    if (namedBy[position] == plugin && unnamed[position] == s) {
      return named[position];
    }
    Status out = s.withPlugin(plugin.name());
    namedBy[position] = plugin;
    unnamed[position] = s;
    named[position] = out;
    return out;
  }
}
