package io.kubesched.framework;

import java.util.List;

/**
 * A plugin called once per cycle with the feasible nodes, before Score.
 *
 * <h2>Contract</h2>
 *
 * {@code Skip} disables this plugin's Score for the cycle; any other non-success status fails the
 * cycle with an Error. Not called when only one node is feasible (it is taken without scoring).
 */
public interface PreScorePlugin extends Plugin {
  /** Prepares scoring of {@code pod} on {@code nodes}; never returns {@code null}. */
  Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes);
}
