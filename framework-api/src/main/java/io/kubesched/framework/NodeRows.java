package io.kubesched.framework;

import org.jspecify.annotations.Nullable;

/**
 * A list of nodes that knows where each of its nodes sits in the snapshot's {@link NodeColumns}:
 * element {@code i} of the list is {@code columns().node(rows()[i])}. The feasible nodes the
 * framework hands to {@link PreScorePlugin#preScore} implement it when Filter walked the snapshot's
 * own list, so that a plugin can read the columns (label values, say) instead of each node:
 *
 * <pre>{@code
 * if (nodes instanceof NodeRows r && r.columns() != null) { ... r.rows()[i] ... }
 * }</pre>
 *
 * <p>Both are valid for the cycle the list was handed to, and read-only.
 */
public interface NodeRows {
  /** Returns the snapshot's columns, or {@code null} when the rows are unknown. */
  @Nullable NodeColumns columns();

  /** Returns each element's row in {@link #columns()}; {@code null} with {@link #columns()}. */
  int @Nullable [] rows();
}
