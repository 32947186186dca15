package io.kubesched.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
}
