package io.kubesched.plugins.queuesort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.testing.MakePod;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports {@code TestLess}. */
final class PrioritySortTest {
  private static final Instant T1 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T2 = T1.plusSeconds(1);

  private static QueuedPodInfo queued(Integer priority, Instant t) {
    MakePod p = MakePod.pod().name("p" + priority + t.getEpochSecond());
    if (priority != null) {
      p.priority(priority);
    }
    return new QueuedPodInfo(p.info(), t);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet("p1.priority less than p2.priority", queued(100, T1), queued(200, T1), false),
        argumentSet("p1.priority greater than p2.priority", queued(200, T1), queued(100, T1), true),
        argumentSet(
            "equal priority. p1 is added to schedulingQ earlier than p2",
            queued(100, T1),
            queued(100, T2),
            true),
        argumentSet(
            "equal priority. p2 is added to schedulingQ earlier than p1",
            queued(100, T2),
            queued(100, T1),
            false),
        argumentSet("an unset priority counts as 0", queued(null, T1), queued(-1, T1), true),
        argumentSet(
            "equal priority, a nanosecond earlier",
            queued(100, T1),
            queued(100, T1.plusNanos(1)),
            true),
        argumentSet("equal priority and time", queued(100, T1), queued(100, T1), false),
        argumentSet(
            "the lowest priority against the highest",
            queued(Integer.MIN_VALUE, T1),
            queued(Integer.MAX_VALUE, T2),
            false),
        argumentSet(
            "the highest priority against the lowest",
            queued(Integer.MAX_VALUE, T2),
            queued(Integer.MIN_VALUE, T1),
            true));
  }

  /** The keys order the pods as {@link PrioritySort#less} does, case by case. */
  @ParameterizedTest
  @MethodSource("cases")
  void sortKeyAgreesWithLess(QueuedPodInfo a, QueuedPodInfo b, boolean want) {
    PrioritySort sort = new PrioritySort();
    assertThat(sort.sortKey(a).isBefore(sort.sortKey(b))).isEqualTo(want);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void less(QueuedPodInfo a, QueuedPodInfo b, boolean want) {
    assertThat(new PrioritySort().less(a, b)).isEqualTo(want);
  }
}
