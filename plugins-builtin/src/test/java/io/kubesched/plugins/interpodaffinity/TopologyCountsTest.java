package io.kubesched.plugins.interpodaffinity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The copy-on-write pair counters behind InterPodAffinity's states. */
final class TopologyCountsTest {
  @Test
  void copiesAreIndependentInBothDirections() {
    TopologyCounts original = new TopologyCounts();
    for (int i = 0; i < 50; i++) {
      original.add("host", "h" + i, 1);
    }
    TopologyCounts copy = original.copy();

    copy.add("host", "h1", -1);
    copy.add("zone", "z1", 2);
    original.add("host", "h2", 3);

    assertThat(original.get("host", "h1")).isEqualTo(1);
    assertThat(original.get("zone", "z1")).isZero();
    assertThat(original.get("host", "h2")).isEqualTo(4);
    assertThat(copy.get("host", "h1")).isZero();
    assertThat(copy.get("host", "h2")).isEqualTo(1);
    assertThat(copy.get("zone", "z1")).isEqualTo(2);
  }

  @Test
  void emptinessCountsOnlyNonZeroPairsLikeKubesDeletion() {
    TopologyCounts c = new TopologyCounts();
    assertThat(c.isEmpty()).isTrue();
    c.add("zone", "z1", 1);
    assertThat(c.isEmpty()).isFalse();
    c.add("zone", "z1", -1);
    assertThat(c.isEmpty()).isTrue();
    assertThat(c.neverWritten()).isFalse();
    c.add("zone", "z2", -1);
    assertThat(c.isEmpty()).isFalse();
    assertThat(c.asMap()).isEqualTo(Map.of("zone=z2", -1L));
  }

  @Test
  void nodeLookups() {
    TopologyCounts c = new TopologyCounts();
    c.add("zone", "z1", 2);
    c.add("rack", "r1", -5);

    assertThat(c.anyPositiveOnNode(Map.of("zone", "z1"))).isTrue();
    assertThat(c.anyPositiveOnNode(Map.of("zone", "z2", "rack", "r1"))).isFalse();
    assertThat(c.sumOnNode(Map.of("zone", "z1", "rack", "r1"))).isEqualTo(-3);
    assertThat(c.sumOnNode(Map.of("other", "x"))).isZero();
  }
}
