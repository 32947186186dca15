package io.kubesched.preemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubesched.framework.PodInfo;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PodImportance#sortAsKube} orders pods exactly as {@link GoSort#slice} with {@link
 * PodImportance#moreImportantAsKube} called at every comparison (kube's {@code sort.Slice(pods,
 * MoreImportantPod)}), including the quirky order of equal pods that have not started.
 */
final class PodImportanceSortTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * Random pods: {@code priorities} distinct priorities, a start among {@code starts} distinct
   * times (some in the same second, some later than now), and one pod in {@code unstarted} that has
   * not started.
   */
  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet("two pods, equal and not started", 2, 1, 1, 1, 1L),
        argumentSet("four pods as on a benchmark node", 4, 2, 3, 3, 2L),
        argumentSet("twelve pods, insertion sort's limit", 12, 3, 4, 2, 3L),
        argumentSet("thirteen pods, past insertion sort", 13, 3, 4, 2, 4L),
        argumentSet("fifty pods, many equal keys", 50, 2, 2, 2, 5L),
        argumentSet("two hundred pods, all started", 200, 5, 50, 1000, 6L),
        argumentSet("two hundred pods, none started", 200, 4, 1, 1, 7L));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void sortsAsGoSortWithTheKubePredicate(
      int count, int priorities, int starts, int unstarted, long seed) {
    for (int round = 0; round < 20; round++) {
      Random random = new Random(seed * 1000 + round);
      List<PodInfo> pods = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        Instant start =
            random.nextInt(unstarted) == 0 && unstarted > 1
                ? null
                : NOW.plusSeconds(random.nextInt(starts) - starts / 2)
                    .plusNanos(random.nextInt(2) * 500_000_000L);
        if (unstarted == 1) {
          start = null;
        }
        pods.add(pod("p" + i, random.nextInt(priorities) * 100, start));
      }
      List<PodInfo> want = new ArrayList<>(pods);
      GoSort.slice(want, (a, b) -> PodImportance.moreImportantAsKube(a, b, NOW));
      List<PodInfo> got = new ArrayList<>(pods);

      PodImportance.sortAsKube(got, NOW);

      assertThat(names(got)).as("round %d", round).isEqualTo(names(want));
    }
  }

  private static List<String> names(List<PodInfo> pods) {
    return pods.stream().map(PodInfo::name).toList();
  }

  private static PodInfo pod(String name, int priority, Instant start) {
    V1PodStatus status = new V1PodStatus();
    if (start != null) {
      status.startTime(OffsetDateTime.ofInstant(start, ZoneOffset.ofHours(2)));
    }
    return PodInfo.of(
        new V1Pod()
            .metadata(new V1ObjectMeta().name(name).namespace("default").uid(name))
            .spec(new V1PodSpec().priority(priority))
            .status(status));
  }
}
