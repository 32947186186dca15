package io.kubesched.core.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.kubesched.framework.KeyedQueueSort;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueueSortKey;
import io.kubesched.framework.QueuedPodInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whatever the mix of adds, updates, deletes and pops, {@link PodHeap} pops what a list sorted by
 * the order (ties in insertion order) would give first.
 */
final class PodHeapTest {
  private static final Comparator<QueuedPodInfo> ORDER =
      Comparator.comparingInt((QueuedPodInfo q) -> -q.podInfo().priority())
          .thenComparing(QueuedPodInfo::timestamp);

  // the same order as keys, as a keyed QueueSort plugin gives them
  private static final KeyedQueueSort KEYS =
      new KeyedQueueSort() {
        @Override
        public String name() {
          return "Keyed";
        }

        @Override
        public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
          return ORDER.compare(a, b) < 0;
        }

        @Override
        public QueueSortKey sortKey(QueuedPodInfo p) {
          return new QueueSortKey(
              -p.podInfo().priority(), p.timestamp().getEpochSecond(), p.timestamp().getNano());
        }
      };

  static Stream<Arguments> seeds() {
    return LongStream.range(1, 31)
        .boxed()
        .flatMap(s -> Stream.of(arguments(s, "comparator"), arguments(s, "keys")));
  }

  @ParameterizedTest(name = "seed {0}, {1}")
  @MethodSource("seeds")
  void popsInOrderThroughAnyMixOfChanges(long seed, String ordering) {
    Random random = new Random(seed);
    PodHeap heap =
        ordering.equals("keys") ? new PodHeap(ORDER, KEYS, key -> {}) : new PodHeap(ORDER);
    // the model: entries in insertion order of their key; a stable sort gives the pop order
    List<QueuedPodInfo> model = new ArrayList<>();
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    for (int step = 0; step < 2000; step++) {
      int op = random.nextInt(10);
      if (op < 5 || model.isEmpty()) {
        String name = "p" + random.nextInt(300);
        QueuedPodInfo q =
            new QueuedPodInfo(
                PodInfo.of(QueueFixtures.pod(name, random.nextInt(4))),
                t0.plusSeconds(random.nextInt(50)).plusNanos(random.nextInt(3)));
        int at = indexOf(model, PodHeap.key(q));
        if (at >= 0) {
          model.set(at, q);
        } else {
          model.add(q);
        }
        heap.addOrUpdate(q);
      } else if (op < 7) {
        QueuedPodInfo gone = model.remove(random.nextInt(model.size()));
        assertThat(heap.delete(PodHeap.key(gone))).isTrue();
      } else {
        List<QueuedPodInfo> sorted = new ArrayList<>(model);
        sorted.sort(ORDER);
        QueuedPodInfo want = sorted.get(0);
        model.remove(want);
        assertThat(PodHeap.key(heap.pop())).as("pop at step %d", step).isEqualTo(PodHeap.key(want));
      }
      assertThat(heap.size()).isEqualTo(model.size());
    }
    List<String> rest = new ArrayList<>();
    for (QueuedPodInfo q; (q = heap.pop()) != null; ) {
      rest.add(PodHeap.key(q));
    }
    model.sort(ORDER);
    assertThat(rest).isEqualTo(model.stream().map(PodHeap::key).toList());
  }

  private static int indexOf(List<QueuedPodInfo> model, String key) {
    for (int i = 0; i < model.size(); i++) {
      if (PodHeap.key(model.get(i)).equals(key)) {
        return i;
      }
    }
    return -1;
  }
}
