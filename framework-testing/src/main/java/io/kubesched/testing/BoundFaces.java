package io.kubesched.testing;

import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeRows;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Checks that a plugin's cycle-bound faces ({@link CycleBoundFilter}, {@link CycleBoundScore})
 * answer what its plain Filter and Score answer, node by node and in their bulk calls ({@code
 * filterAll}, {@code scoreAll}, with and without the snapshot's {@link NodeColumns}) — the
 * framework's hot path uses the bound faces. Call it from a plugin's table tests with the state the
 * plain call was given.
 */
public final class BoundFaces {
  private BoundFaces() {}

  /**
   * Asserts that {@code plugin}'s bound Filter gives every node of {@code nodes} the status its
   * {@link FilterPlugin#filter} gives, one by one and all at once, and that it claims to pass all
   * of them ({@code passesAllRows}) only when it does; nothing when the plugin has no bound face.
   *
   * @return the plain statuses, in node order
   * @throws AssertionError naming the first node whose statuses differ
   */
  public static List<Status> assertFilterFaces(
      FilterPlugin plugin, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    List<Status> plain = new ArrayList<>();
    for (NodeInfo n : nodes) {
      plain.add(orSuccess(plugin.filter(state, pod, n)));
    }
    if (!(plugin instanceof CycleBoundFilter b)) {
      return plain;
    }
    CycleBoundFilter.NodeCheck check = b.bindFilter(state, pod);
    NodeInfo[] array = nodes.toArray(new NodeInfo[0]);
    Status[] all = new Status[array.length];
    check.filterAll(array, array.length, null, null, all);
    // the same nodes as rows of flat columns, in reverse order (rows need not follow the nodes)
    NodeColumns columns = columns(nodes);
    int[] rows = new int[array.length];
    NodeInfo[] reversed = new NodeInfo[array.length];
    for (int i = 0; i < array.length; i++) {
      reversed[i] = array[array.length - 1 - i];
      rows[i] = array.length - 1 - i;
    }
    Status[] fromColumns = new Status[array.length];
    check.filterAll(reversed, array.length, columns, rows, fromColumns);
    if (check.passesAllRows(columns)) {
      for (int i = 0; i < array.length; i++) {
        if (!plain.get(i).isSuccess()) {
          throw new AssertionError(
              "node "
                  + array[i].name()
                  + ": passesAllRows answered true, but filter gives "
                  + plain.get(i));
        }
      }
    }
    for (int i = 0; i < array.length; i++) {
      Status one = orSuccess(check.filter(array[i]));
      Status col = orSuccess(fromColumns[array.length - 1 - i]);
      if (!one.equals(plain.get(i))
          || !orSuccess(all[i]).equals(plain.get(i))
          || !col.equals(plain.get(i))) {
        throw new AssertionError(
            "node "
                + array[i].name()
                + ": filter "
                + plain.get(i)
                + ", bound filter "
                + one
                + ", filterAll "
                + all[i]
                + ", filterAll from columns "
                + col);
      }
    }
    return plain;
  }

  /**
   * Asserts that {@code plugin}'s bound Score gives every node of {@code nodes} the score its
   * {@link ScorePlugin#score} gives, one by one and over every slice; nothing when the plugin has
   * no bound face.
   *
   * @return the plain scores, in node order
   * @throws AssertionError naming the first node whose scores differ
   */
  public static long[] assertScoreFaces(
      ScorePlugin plugin, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    int n = nodes.size();
    long[] plain = new long[n];
    for (int i = 0; i < n; i++) {
      plain[i] = plugin.score(state, pod, nodes.get(i));
    }
    if (!(plugin instanceof CycleBoundScore b)) {
      return plain;
    }
    CycleBoundScore.NodeScorer scorer = b.bindScore(state, pod);
    // the nodes as rows of flat columns, in reverse order (rows need not follow the nodes)
    List<NodeInfo> reversedNodes = new ArrayList<>(nodes);
    java.util.Collections.reverse(reversedNodes);
    NodeColumns columns = columns(reversedNodes);
    int[] rows = new int[n];
    for (int i = 0; i < n; i++) {
      rows[i] = n - 1 - i;
    }
    List<int[]> slices = new ArrayList<>();
    if (n <= 12) {
      for (int from = 0; from <= n; from++) {
        for (int to = from; to <= n; to++) {
          slices.add(new int[] {from, to});
        }
      }
    } else {
      slices.add(new int[] {0, n});
      slices.add(new int[] {0, n / 2});
      slices.add(new int[] {n / 2, n});
      slices.add(new int[] {1, n - 1});
    }
    for (int[] slice : slices) {
      int from = slice[0];
      int to = slice[1];
      {
        long[] out = new long[n];
        java.util.Arrays.fill(out, Long.MIN_VALUE);
        scorer.scoreAll(nodes, from, to, null, null, out);
        long[] fromColumns = new long[n];
        java.util.Arrays.fill(fromColumns, Long.MIN_VALUE);
        scorer.scoreAll(nodes, from, to, columns, rows, fromColumns);
        for (int i = 0; i < n; i++) {
          long want = i >= from && i < to ? plain[i] : Long.MIN_VALUE;
          if (out[i] != want || fromColumns[i] != want) {
            throw new AssertionError(
                "node "
                    + nodes.get(i).name()
                    + ": score "
                    + plain[i]
                    + ", scoreAll["
                    + from
                    + ", "
                    + to
                    + ") wrote "
                    + out[i]
                    + ", from columns "
                    + fromColumns[i]);
          }
        }
      }
    }
    for (int i = 0; i < n; i++) {
      long one = scorer.score(nodes.get(i));
      if (one != plain[i]) {
        throw new AssertionError(
            "node " + nodes.get(i).name() + ": score " + plain[i] + ", bound score " + one);
      }
    }
    return plain;
  }

  /**
   * Returns {@code nodes} as a list that also knows its rows ({@link NodeRows}), in flat columns
   * that hold the nodes in reverse order: what the framework hands to PreScore after Filter walked
   * the snapshot. A PreScore given it must write the state it writes for the plain list.
   */
  public static List<NodeInfo> withRows(List<NodeInfo> nodes) {
    List<NodeInfo> reversed = new ArrayList<>(nodes);
    java.util.Collections.reverse(reversed);
    NodeColumns columns = columns(reversed);
    int n = nodes.size();
    int[] rows = new int[n];
    for (int i = 0; i < n; i++) {
      rows[i] = n - 1 - i;
    }
    return new RowedList(List.copyOf(nodes), columns, rows);
  }

  private static final class RowedList extends java.util.AbstractList<NodeInfo>
      implements NodeRows, java.util.RandomAccess {
    private final List<NodeInfo> nodes;
    private final NodeColumns columns;
    private final int[] rows;

    RowedList(List<NodeInfo> nodes, NodeColumns columns, int[] rows) {
      this.nodes = nodes;
      this.columns = columns;
      this.rows = rows;
    }

    @Override
    public NodeInfo get(int index) {
      return nodes.get(index);
    }

    @Override
    public int size() {
      return nodes.size();
    }

    @Override
    public NodeColumns columns() {
      return columns;
    }

    @Override
    public int[] rows() {
      return rows;
    }
  }

  /** Returns columns whose row {@code i} holds {@code nodes.get(i)}. */
  private static NodeColumns columns(List<NodeInfo> nodes) {
    NodeColumns columns = new NodeColumns();
    columns.resize(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      columns.set(i, nodes.get(i));
    }
    return columns;
  }

  private static Status orSuccess(Status s) {
    return Objects.requireNonNullElseGet(s, Status::success);
  }
}
