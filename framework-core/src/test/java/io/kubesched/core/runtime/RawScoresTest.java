package io.kubesched.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubesched.framework.NodeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Opportunistic batching's weighed scores: a base plus changed nodes, folded now and then, read
 * exactly as the scores written out in full after the same changes.
 */
final class RawScoresTest {
  private static final String[] PLUGINS = {"A", "B", "C"};
  private static final long[] WEIGHTS = {1, 2, 3};

  static Stream<Arguments> changes() {
    return Stream.of(
        Arguments.argumentSet("no change", 5, new int[] {}),
        Arguments.argumentSet("one node", 5, new int[] {3}),
        Arguments.argumentSet("the same node again", 5, new int[] {2, 2, 2}),
        Arguments.argumentSet("descending positions", 6, new int[] {5, 4, 1, 0}),
        Arguments.argumentSet("every node twice", 4, new int[] {0, 1, 2, 3, 3, 2, 1, 0}),
        Arguments.argumentSet(
            "past the fold limit", 100, new int[] {7, 3, 99, 0, 50, 51, 52, 8, 9, 10, 3, 11, 12}));
  }

  @ParameterizedTest
  @MethodSource("changes")
  void theBaseWithItsChangesReadsAsTheFullScores(int n, int[] changes) {
    NodeInfo[] nodes = new NodeInfo[n];
    for (int i = 0; i < n; i++) {
      nodes[i] = NodeInfo.of(new V1Node().metadata(new V1ObjectMeta().name("node-" + i)));
    }
    byte[] full = new byte[PLUGINS.length * n];
    for (int k = 0; k < full.length; k++) {
      full[k] = (byte) (k * 7 % 101);
    }
    RawScores raw = new RawScores();
    raw.weighed(new ScoreTable(nodes, PLUGINS, full.clone(), WEIGHTS), n);
    for (int c = 0; c < changes.length; c++) {
      int i = changes[c];
      byte[] row = new byte[1 + PLUGINS.length];
      long total = 0;
      for (int p = 0; p < PLUGINS.length; p++) {
        row[1 + p] = (byte) ((c * 13 + p * 5) % 101);
        full[p * n + i] = row[1 + p];
        total += row[1 + p] * WEIGHTS[p];
      }
      raw.change(i, row, 1, total);
      if (raw.foldDue(n)) {
        raw.fold();
      }
      for (int p = 0; p < PLUGINS.length; p++) {
        assertThat(raw.score(p, i)).isEqualTo(row[1 + p]);
      }
    }
    ScoreTable expected = new ScoreTable(nodes, PLUGINS, full, WEIGHTS);
    assertThat(new ArrayList<>(raw.table(nodes))).isEqualTo(new ArrayList<>(expected));
    raw.fold();
    assertThat(new ArrayList<>(raw.table(nodes))).isEqualTo(new ArrayList<>(expected));
  }

  @ParameterizedTest
  @MethodSource("changes")
  void takingOverTheScoresLeavesThePreviousWithoutChanges(int n, int[] changes) {
    NodeInfo[] nodes = new NodeInfo[n];
    for (int i = 0; i < n; i++) {
      nodes[i] = NodeInfo.of(new V1Node().metadata(new V1ObjectMeta().name("node-" + i)));
    }
    RawScores previous = new RawScores();
    previous.weighed(new ScoreTable(nodes, PLUGINS, new byte[PLUGINS.length * n], WEIGHTS), n);
    for (int i : changes) {
      previous.change(i, new byte[] {1, 2, 3}, 0, 14);
    }
    List<NodePluginScores> before = new ArrayList<>(previous.table(nodes));
    RawScores next = new RawScores();
    next.takeWeighed(previous);
    assertThat(new ArrayList<>(next.table(nodes))).isEqualTo(before);
    assertThat(previous.changedCount).isZero();
  }
}
