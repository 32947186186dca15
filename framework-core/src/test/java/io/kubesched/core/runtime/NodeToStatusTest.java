package io.kubesched.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Filter phase's batch of rejections reads as the entries {@code set} one by one would make.
 */
final class NodeToStatusTest {
  private static final Status FIT = Status.unschedulable("Insufficient cpu").withPlugin("Fit");
  private static final Status TAINT =
      Status.unresolvable("node(s) had untolerated taint").withPlugin("TaintToleration");

  private static List<NodeInfo> nodes(int n) {
    List<NodeInfo> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Fixtures.node("n" + i));
    }
    return out;
  }

  static Stream<Arguments> batches() {
    return Stream.of(
        argumentSet("no rejection", 0, new Status[] {null, null, null}, Map.of()),
        argumentSet("start 0", 0, new Status[] {FIT, null, TAINT}, linked("n0", FIT, "n2", TAINT)),
        argumentSet(
            "rotating start wraps around, in filter order",
            2,
            new Status[] {TAINT, FIT, null},
            linked("n2", TAINT, "n0", FIT)),
        argumentSet(
            "start past the end (a shorter node list)",
            4,
            new Status[] {FIT, FIT, FIT},
            linked("n1", FIT, "n2", FIT, "n0", FIT)));
  }

  private static Map<String, Status> linked(Object... kv) {
    Map<String, Status> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (Status) kv[i + 1]);
    }
    return m;
  }

  @ParameterizedTest
  @MethodSource("batches")
  void setAllReadsAsEntries(int start, Status[] failures, Map<String, Status> expected) {
    NodeToStatus m = new NodeToStatus();

    m.setAll(nodes(3), start, failures);

    assertThat(m.size()).isEqualTo(expected.size());
    assertThat(m.explicit()).containsExactlyEntriesOf(expected);
    assertThat(m).isEqualTo(new NodeToStatus(expected, m.absentNodesStatus()));
  }

  @ParameterizedTest
  @MethodSource("batches")
  void setAfterSetAllKeepsTheBatchFirst(int start, Status[] failures, Map<String, Status> batch) {
    NodeToStatus m = new NodeToStatus();
    Map<String, Status> expected = new LinkedHashMap<>(batch);
    expected.put("extender-rejected", TAINT);

    m.setAll(nodes(3), start, failures);
    m.set("extender-rejected", TAINT);

    assertThat(m.explicit()).containsExactlyEntriesOf(expected);
    assertThat(m.get("n1")).isEqualTo(expected.getOrDefault("n1", m.absentNodesStatus()));
  }

  private static final Status OTHER = Status.unschedulable("other").withPlugin("Other");

  /** One operation on the map under test and on its model (a LinkedHashMap of set entries). */
  private record Op(String what, BiConsumer<NodeToStatus, Map<String, Status>> apply) {
    @Override
    public String toString() {
      return what;
    }
  }

  private static Op set(String name, Status s) {
    return new Op(
        "set " + name,
        (m, model) -> {
          m.set(name, s);
          model.put(name, s);
        });
  }

  /** setAll over nodes n0..n3 from {@code start}. */
  private static Op setAll(int start, Status... failures) {
    return new Op(
        "setAll from " + start,
        (m, model) -> {
          List<NodeInfo> nodes = nodes(4);
          m.setAll(nodes, start, failures);
          for (int i = 0; i < failures.length; i++) {
            if (failures[i] != null) {
              model.put(nodes.get((start + i) % nodes.size()).name(), failures[i]);
            }
          }
        });
  }

  /** A lookup only (the first scans, the second builds the index): the model does not change. */
  private static Op get(String name) {
    return new Op("get " + name, (m, model) -> m.get(name));
  }

  static Stream<Arguments> operations() {
    return Stream.of(
        argumentSet(
            "a set on an existing name replaces its status in place",
            List.of(set("a", FIT), set("b", TAINT), set("a", OTHER))),
        argumentSet(
            "a batch, then sets of a batch node and a new one, then lookups",
            List.of(
                setAll(1, FIT, null, TAINT, FIT),
                set("n3", OTHER),
                set("x", TAINT),
                get("n1"),
                get("n2"),
                set("n1", OTHER))),
        argumentSet(
            "a batch on top of entries replaces theirs in place and appends the others",
            List.of(set("n2", OTHER), set("y", FIT), setAll(0, FIT, TAINT, FIT, null))),
        argumentSet(
            "lookups on the empty map, then entries",
            List.of(get("a"), get("b"), set("a", FIT), setAll(3, TAINT, TAINT))),
        argumentSet(
            "a second batch overrides the first one's entries",
            List.of(setAll(0, FIT, FIT, null, null), setAll(2, TAINT, TAINT, TAINT, null))));
  }

  @ParameterizedTest
  @MethodSource("operations")
  void readsAsTheEntriesSetInOrder(List<Op> ops) {
    NodeToStatus m = new NodeToStatus();
    Map<String, Status> model = new LinkedHashMap<>();
    List<String> names = List.of("a", "b", "x", "y", "n0", "n1", "n2", "n3", "absent");
    for (Op op : ops) {
      op.apply().accept(m, model);
      assertThat(m.size()).as(op.what()).isEqualTo(model.size());
      assertThat(m.explicit()).as(op.what()).containsExactlyEntriesOf(model);
      assertThat(new ArrayList<>(m.explicit().values()))
          .as(op.what())
          .containsExactlyElementsOf(model.values());
      for (String name : names) {
        assertThat(m.get(name))
            .as(op.what() + ": " + name)
            .isSameAs(model.getOrDefault(name, m.absentNodesStatus()));
        assertThat(m.explicit().get(name)).as(op.what() + ": " + name).isSameAs(model.get(name));
      }
      List<String> visited = new ArrayList<>();
      m.forEachExplicitNode((name, s) -> visited.add(name));
      assertThat(visited).as(op.what()).containsExactlyElementsOf(model.keySet());
      List<String> unschedulable = new ArrayList<>();
      model.forEach(
          (name, s) -> {
            if (s.code() == Status.Code.UNSCHEDULABLE && name.startsWith("n")) {
              unschedulable.add(name);
            }
          });
      assertThat(m.nodesForStatusCode(new Fixtures.Lister(nodes(4)), Status.Code.UNSCHEDULABLE))
          .extracting(NodeInfo::name)
          .as(op.what())
          .containsExactlyElementsOf(unschedulable);
      assertThat(m).isEqualTo(new NodeToStatus(model, m.absentNodesStatus()));
    }
  }
}
