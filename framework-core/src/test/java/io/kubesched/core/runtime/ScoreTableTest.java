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
 * A score table with changed nodes (opportunistic batching's later pods) reads exactly as the table
 * of the same scores written out in full.
 */
final class ScoreTableTest {
  private static final String[] PLUGINS = {"A", "B", "C"};
  private static final long[] WEIGHTS = {1, 2, 3};

  static Stream<Arguments> changes() {
    return Stream.of(
        Arguments.argumentSet("no node changed", new int[] {}),
        Arguments.argumentSet("the first node", new int[] {0}),
        Arguments.argumentSet("the last node", new int[] {4}),
        Arguments.argumentSet("three nodes", new int[] {1, 2, 4}),
        Arguments.argumentSet("every node", new int[] {0, 1, 2, 3, 4}));
  }

  @ParameterizedTest
  @MethodSource("changes")
  void aTableWithChangedNodesReadsAsTheFullTable(int[] at) {
    int n = 5;
    NodeInfo[] nodes = new NodeInfo[n];
    for (int i = 0; i < n; i++) {
      nodes[i] = NodeInfo.of(new V1Node().metadata(new V1ObjectMeta().name("node-" + i)));
    }
    byte[] base = new byte[PLUGINS.length * n];
    for (int k = 0; k < base.length; k++) {
      base[k] = (byte) (k * 7 % 101);
    }
    byte[] full = base.clone();
    int m = at.length;
    byte[] changedPacked = new byte[PLUGINS.length * m];
    long[] changedTotals = new long[m];
    for (int j = 0; j < m; j++) {
      for (int p = 0; p < PLUGINS.length; p++) {
        byte v = (byte) (100 - p * 10 - j);
        changedPacked[p * m + j] = v;
        full[p * n + at[j]] = v;
        changedTotals[j] += v * WEIGHTS[p];
      }
    }
    ScoreTable changed =
        new ScoreTable(
            nodes,
            PLUGINS,
            base,
            WEIGHTS,
            totals(base, n),
            new ScoreTable.Changed(at, changedPacked, changedTotals));
    ScoreTable written = new ScoreTable(nodes, PLUGINS, full, WEIGHTS);

    assertThat(rows(changed)).isEqualTo(rows(written));
    long[] a = new long[n];
    long[] b = new long[n];
    changed.totals(a);
    written.totals(b);
    assertThat(a).isEqualTo(b);
  }

  private static long[] totals(byte[] packed, int n) {
    long[] out = new long[n];
    for (int p = 0; p < PLUGINS.length; p++) {
      for (int i = 0; i < n; i++) {
        out[i] += packed[p * n + i] * WEIGHTS[p];
      }
    }
    return out;
  }

  private static List<String> rows(ScoreTable t) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < t.size(); i++) {
      NodePluginScores s = t.get(i);
      out.add(s.name() + " " + s.scores() + " " + s.totalScore() + " " + t.total(i));
    }
    return out;
  }
}
