package io.kubesched.plugins.sample.randomscore;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class RandomScoreTest {
  private static List<Long> scores(long seed, PodInfo pod, List<NodeInfo> nodes) {
    RandomScore plugin = new RandomScore(new RandomScoreArgs(seed));
    List<Long> out = new ArrayList<>();
    for (NodeInfo n : nodes) {
      out.add(plugin.score(new CycleState(), pod, n));
    }
    return out;
  }

  private static List<NodeInfo> nodes(int n) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nodes.add(MakeNode.node().name("node-" + i).info());
    }
    return nodes;
  }

  @Test
  void sameSeedSameScoresInRangeAndSpread() {
    PodInfo pod = MakePod.pod().name("p").info();
    List<NodeInfo> nodes = nodes(50);
    List<Long> a = scores(7, pod, nodes);
    assertThat(scores(7, pod, nodes)).isEqualTo(a);
    assertThat(a).allSatisfy(s -> assertThat(s).isBetween(0L, 100L));
    Set<Long> distinct = new HashSet<>(a);
    assertThat(distinct.size()).isGreaterThan(20);
  }

  @Test
  void otherSeedOrPodGivesOtherScores() {
    List<NodeInfo> nodes = nodes(20);
    PodInfo p = MakePod.pod().name("p").info();
    assertThat(scores(1, p, nodes)).isNotEqualTo(scores(2, p, nodes));
    assertThat(scores(1, p, nodes)).isNotEqualTo(scores(1, MakePod.pod().name("q").info(), nodes));
  }
}
