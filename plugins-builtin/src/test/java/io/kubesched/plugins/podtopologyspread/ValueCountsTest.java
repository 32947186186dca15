package io.kubesched.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The copy-on-write counts map behind PodTopologySpread's states. */
final class ValueCountsTest {
  @Test
  void copiesAreIndependentInBothDirections() {
    ValueCounts original = new ValueCounts(2);
    for (int i = 0; i < 100; i++) {
      original.add("v" + i, i);
    }
    ValueCounts copy = original.copy();

    copy.add("v1", 10);
    copy.add("new", 1);
    original.add("v2", 5);

    assertThat(original.get("v1")).isEqualTo(1);
    assertThat(original.contains("new")).isFalse();
    assertThat(original.get("v2")).isEqualTo(7);
    assertThat(copy.get("v1")).isEqualTo(11);
    assertThat(copy.get("v2")).isEqualTo(2);
    assertThat(copy.size()).isEqualTo(101);
    assertThat(original.size()).isEqualTo(100);
  }

  @Test
  void zeroCountsStayDomains() {
    ValueCounts c = new ValueCounts(4);
    c.add("a", 1);
    c.add("a", -1);

    assertThat(c.contains("a")).isTrue();
    assertThat(c.get("a")).isZero();
    assertThat(c.size()).isEqualTo(1);
    assertThat(c.get("missing")).isZero();
  }
}
