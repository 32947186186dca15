package io.kubesched.framework;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The scores of one plugin over the feasible nodes, as a primitive array so that scoring and
 * normalising allocate nothing per node.
 */
public final class NodeScores {
  private final List<NodeInfo> nodes;
  private final long[] scores;

  /** Creates zero scores for {@code nodes}. */
  public NodeScores(List<NodeInfo> nodes) {
    this.nodes = Objects.requireNonNull(nodes);
    this.scores = new long[nodes.size()];
  }

  /** Creates scores for {@code nodes} with the given values (copied). */
  public NodeScores(List<NodeInfo> nodes, long[] scores) {
    this(nodes, scores, true);
  }

  private NodeScores(List<NodeInfo> nodes, long[] scores, boolean copy) {
    if (nodes.size() != scores.length) {
      throw new IllegalArgumentException("one score per node is needed");
    }
    this.nodes = nodes;
    this.scores = copy ? scores.clone() : scores;
  }

  /**
   * Returns scores for {@code nodes} backed by {@code scores} itself, not a copy: writes go through
   * both ways. The framework scores into arrays it reuses from cycle to cycle, so a plugin must not
   * keep a {@code NodeScores} past the call it was given in.
   *
   * @throws IllegalArgumentException when the lengths differ
   */
  public static NodeScores wrap(List<NodeInfo> nodes, long[] scores) {
    return new NodeScores(Objects.requireNonNull(nodes), scores, false);
  }

  /** Returns the number of nodes. */
  public int size() {
    return scores.length;
  }

  /** Returns the node at index {@code i}. */
  public NodeInfo node(int i) {
    return nodes.get(i);
  }

  /** Returns the name of the node at index {@code i}. */
  public String name(int i) {
    return nodes.get(i).name();
  }

  /** Returns the score at index {@code i}. */
  public long score(int i) {
    return scores[i];
  }

  /** Sets the score at index {@code i}. */
  public void set(int i, long score) {
    scores[i] = score;
  }

  /** Returns the highest score, or 0 when empty. */
  public long max() {
    long m = scores.length == 0 ? 0 : Long.MIN_VALUE;
    for (long s : scores) {
      m = Math.max(m, s);
    }
    return m;
  }

  /** Returns the lowest score, or 0 when empty. */
  public long min() {
    long m = scores.length == 0 ? 0 : Long.MAX_VALUE;
    for (long s : scores) {
      m = Math.min(m, s);
    }
    return m;
  }

  /** Returns the backing array; writes go through. */
  public long[] array() {
    return scores;
  }

  /** Returns the scores as a list of name and score, in node order. */
  public List<NodeScore> toList() {
    List<NodeScore> out = new ArrayList<>(scores.length);
    for (int i = 0; i < scores.length; i++) {
      out.add(new NodeScore(name(i), scores[i]));
    }
    return out;
  }

  @Override
  public String toString() {
    return toList().toString();
  }
}
