package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.node;
import static io.kubesched.core.runtime.Fixtures.pod;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Framework#runFilterPlugins(CycleState, PodInfo, NodeInfo[], int, NodeColumns, int[],
 * Status[], FilterScratch)}: a block of nodes filtered plugin after plugin gets the statuses
 * node-by-node filtering gives, each plugin sees only the nodes the earlier ones passed, an Error
 * stops the later nodes, and a cycle that records plugin metrics goes node by node.
 */
final class FrameworkFilterBlockTest {
  /** Rejects the named nodes, throws on {@code boom}; journals each call. */
  static final class Rejecting implements CycleBoundFilter {
    final String name;
    final Set<String> rejected;
    final boolean bulkThrows;
    final List<String> journal;
    final boolean claimsAllRows;

    Rejecting(String name, Set<String> rejected, boolean bulkThrows, List<String> journal) {
      this(name, rejected, bulkThrows, journal, false);
    }

    Rejecting(
        String name,
        Set<String> rejected,
        boolean bulkThrows,
        List<String> journal,
        boolean claimsAllRows) {
      this.name = name;
      this.rejected = rejected;
      this.bulkThrows = bulkThrows;
      this.journal = journal;
      this.claimsAllRows = claimsAllRows;
    }

    @Override
    public String name() {
      return name;
    }

    private Status check(NodeInfo node) {
      journal.add(name + " " + node.name());
      if (node.name().equals("boom")) {
        throw new IllegalStateException("boom");
      }
      return rejected.contains(node.name()) ? Status.unschedulable(name + " says no") : null;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return check(node);
    }

    @Override
    public NodeCheck bindFilter(CycleState state, PodInfo pod) {
      return new NodeCheck() {
        @Override
        public Status filter(NodeInfo node) {
          return check(node);
        }

        @Override
        public void filterAll(
            NodeInfo[] nodes,
            int count,
            io.kubesched.framework.NodeColumns columns,
            int[] rows,
            Status[] out) {
          List<String> names = new ArrayList<>();
          for (int k = 0; k < count; k++) {
            names.add(nodes[k].name());
          }
          journal.add(name + " all " + names);
          if (bulkThrows) {
            throw new IllegalStateException("bulk");
          }
          for (int k = 0; k < count; k++) {
            out[k] =
                rejected.contains(nodes[k].name())
                    ? Status.unschedulable(name + " says no")
                    : Status.success();
          }
        }

        @Override
        public boolean passesAllRows(io.kubesched.framework.NodeColumns columns) {
          journal.add(name + " passesAllRows " + claimsAllRows);
          return claimsAllRows;
        }
      };
    }
  }

  static Stream<Arguments> cases() {
    Status aNo = Status.unschedulable("A says no").withPlugin("A");
    Status bNo = Status.unschedulable("B says no").withPlugin("B");
    Status ok = Status.success();
    return Stream.of(
        argumentSet(
            "each plugin filters the survivors of the ones before it at once",
            List.of("n1", "n2", "n3", "n4"),
            false,
            false,
            List.of(aNo, ok, bNo, ok),
            List.of("A all [n1, n2, n3, n4]", "B all [n2, n3, n4]")),
        argumentSet(
            "a block call that throws is redone node by node",
            List.of("n1", "n2", "n3"),
            true,
            false,
            List.of(aNo, ok, bNo),
            List.of("A all [n1, n2, n3]", "A n1", "A n2", "A n3", "B all [n2, n3]")),
        argumentSet(
            "an Error stops the later nodes, which carry it",
            List.of("n2", "boom", "n3", "n4"),
            true,
            false,
            Arrays.asList(
                ok,
                Status.error(
                        new io.kubesched.framework.SchedulingException(
                            "running \"A\" filter plugin: boom"))
                    .withPlugin("A"),
                null,
                null),
            List.of("A all [n2, boom, n3, n4]", "A n2", "A boom", "B all [n2]")),
        argumentSet(
            "a cycle that records plugin metrics goes node by node",
            List.of("n1", "n2", "n3"),
            false,
            true,
            List.of(aNo, ok, bNo),
            List.of("A n1", "A n2", "B n2", "A n3", "B n3")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void filtersABlockAsNodeByNode(
      List<String> names,
      boolean bulkThrows,
      boolean recordMetrics,
      List<Status> expected,
      List<String> calls) {
    List<String> journal = Collections.synchronizedList(new ArrayList<>());
    Framework f =
        Framework.create(
            basePlugins().enable("filter", "A").enable("filter", "B").profile(),
            0,
            Fake.registry(
                new Rejecting("A", Set.of("n1"), bulkThrows, journal),
                new Rejecting("B", Set.of("n3"), false, journal),
                queueSort(),
                binder()),
            Fixtures.context());
    CycleState state = new CycleState();
    EngineAccess.setRecordPluginMetrics(state, recordMetrics);
    NodeInfo[] nodes = names.stream().map(Fixtures::node).toArray(NodeInfo[]::new);
    Status[] out = new Status[nodes.length];

    f.runFilterPlugins(state, pod("p"), nodes, nodes.length, null, null, out, new FilterScratch());

    List<Status> got = new ArrayList<>(Arrays.asList(out));
    List<Status> want = new ArrayList<>(expected);
    for (int k = 0; k < want.size(); k++) {
      if (want.get(k) == null) {
        // after an Error: the Error again
        want.set(k, want.get(k - 1));
      }
    }
    assertThat(got.toString()).isEqualTo(want.toString());
    assertThat(journal).isEqualTo(calls);
  }

  static Stream<Arguments> rowCases() {
    return Stream.of(
        argumentSet(
            "a check that passes every row is not called on rows",
            true,
            List.of("A passesAllRows true", "B passesAllRows false", "B all [n1, n2, n3]")),
        argumentSet(
            "nor is it asked about nodes that are not rows",
            false,
            List.of("A all [n1, n2, n3]", "B all [n2, n3]")));
  }

  @ParameterizedTest
  @MethodSource("rowCases")
  void aCheckThatPassesEveryRowIsSkippedOnRows(boolean rows, List<String> calls) {
    List<String> journal = Collections.synchronizedList(new ArrayList<>());
    Framework f =
        Framework.create(
            basePlugins().enable("filter", "A").enable("filter", "B").profile(),
            0,
            Fake.registry(
                // A would reject n1 but claims to pass every row: the claim is taken at its word
                new Rejecting("A", Set.of("n1"), false, journal, true),
                new Rejecting("B", Set.of("n3"), false, journal),
                queueSort(),
                binder()),
            Fixtures.context());
    NodeInfo[] nodes = Stream.of("n1", "n2", "n3").map(Fixtures::node).toArray(NodeInfo[]::new);
    io.kubesched.framework.NodeColumns columns = new io.kubesched.framework.NodeColumns();
    columns.resize(nodes.length);
    for (int r = 0; r < nodes.length; r++) {
      columns.set(r, nodes[r]);
    }
    Status[] out = new Status[nodes.length];

    f.runFilterPlugins(
        new CycleState(),
        pod("p"),
        nodes,
        nodes.length,
        rows ? columns : null,
        rows ? new int[] {0, 1, 2} : null,
        out,
        new FilterScratch());

    assertThat(journal).isEqualTo(calls);
  }

  /** Rejects nodes whose name starts with "s" with one shared status, "f" with a fresh one each. */
  static final class SharedRejection implements io.kubesched.framework.FilterPlugin {
    static final Status SHARED = Status.unschedulable("shared reason");

    @Override
    public String name() {
      return "S";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      if (node.name().startsWith("s")) {
        return SHARED;
      }
      return node.name().startsWith("f") ? Status.unschedulable("fresh reason") : null;
    }
  }

  static Stream<Arguments> namedCases() {
    return Stream.of(
        argumentSet("one shared status, twice", List.of("s1", "s2"), List.of(0, 0)),
        argumentSet(
            "a fresh status in between starts another named copy (the last one is kept)",
            List.of("s1", "f1", "s2"),
            List.of(0, 1, 2)),
        argumentSet("fresh statuses stay apart", List.of("f1", "f2"), List.of(0, 1)),
        argumentSet(
            "passing nodes in between", List.of("s1", "ok", "s2", "f1"), List.of(0, -1, 0, 2)));
  }

  /**
   * {@link Framework#runFilterPlugins(CycleState, PodInfo, NodeInfo)} names a rejection with its
   * plugin once per status object, as the blocks do: the nodes a plugin rejects with one status
   * object get one named status; {@code groups[k]} is the node whose status node k's is (-1:
   * success).
   */
  @ParameterizedTest
  @MethodSource("namedCases")
  void nodeByNodeRejectionsShareTheirNamedStatus(List<String> names, List<Integer> groups) {
    Framework f =
        Framework.create(
            basePlugins().enable("filter", "S").profile(),
            0,
            Fake.registry(new SharedRejection(), queueSort(), binder()),
            Fixtures.context());
    CycleState state = new CycleState();
    List<Status> got = new ArrayList<>();
    for (String name : names) {
      got.add(f.runFilterPlugins(state, pod("p"), Fixtures.node(name)));
    }
    for (int k = 0; k < names.size(); k++) {
      Status s = got.get(k);
      int group = groups.get(k);
      if (group < 0) {
        assertThat(s.isSuccess()).isTrue();
        continue;
      }
      assertThat(s.plugin()).isEqualTo("S");
      assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
      assertThat(s.reasons())
          .containsExactly(names.get(k).startsWith("s") ? "shared reason" : "fresh reason");
      for (int j = 0; j < k; j++) {
        if (groups.get(j) == group) {
          assertThat(s).as("node %d shares node %d's status", k, j).isSameAs(got.get(j));
        } else {
          assertThat(s).as("node %d and node %d", k, j).isNotSameAs(got.get(j));
        }
      }
    }
  }
}
