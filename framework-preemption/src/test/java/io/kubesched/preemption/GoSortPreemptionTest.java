package io.kubesched.preemption;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;

/**
 * {@link GoSort} against the orders Go's {@code sort.Slice} produced for the same inputs (golden
 * file made with {@code gosort-golden.go.txt}, Go 1.19, whose {@code breakPatterns} uses the
 * xorshift shifts 13/17/5), with a strict order and with a predicate that says "less" for every
 * pair of equal keys, like kube's {@code MoreImportantPod} for pods that have not started.
 */
final class GoSortPreemptionTest {
  private static final int[] GO_1_19_XORSHIFT = {13, 17, 5};

  private record Item(int key, int id) {}

  @Test
  void ordersEqualElementsAsGoDoes() throws IOException {
    List<String> golden = golden();
    long[] seed = {42};
    List<String> got = new ArrayList<>();
    for (int n : new int[] {5, 12, 13, 20, 33, 50, 64, 100, 130, 257}) {
      for (int m : new int[] {2, 3, 7, 1000}) {
        for (String mode : new String[] {"strict", "tiesTrue"}) {
          List<Item> items = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            seed[0] = seed[0] * 6364136223846793005L + 1442695040888963407L;
            items.add(new Item((int) ((seed[0] >>> 33) % m), i));
          }
          BiPredicate<Item, Item> less =
              mode.equals("strict")
                  ? (a, b) -> a.key() < b.key()
                  : (a, b) -> a.key() == b.key() || a.key() < b.key();
          GoSort.slice(items, less, GO_1_19_XORSHIFT);
          got.add(
              n
                  + " "
                  + m
                  + " "
                  + mode
                  + " "
                  + String.join(",", items.stream().map(it -> String.valueOf(it.id())).toList()));
        }
      }
    }

    assertThat(got).isEqualTo(golden);
  }

  private static List<String> golden() throws IOException {
    try (InputStream in = GoSortPreemptionTest.class.getResourceAsStream("gosort-golden.txt")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return Arrays.stream(text.split("\n")).filter(l -> !l.startsWith("#")).toList();
    }
  }
}
