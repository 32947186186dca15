package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Removing pods from a node holding many of them (where NodeInfo indexes its pods by UID) leaves
 * the same pods, in the same order, with the same requests, as the plain linear search with swap
 * removal does.
 */
final class NodeInfoManyPodsTest {

  static Stream<Arguments> orders() {
    return Stream.of(
        Arguments.argumentSet("oldest first, 200 pods", 200, "ascending"),
        Arguments.argumentSet("newest first, 200 pods", 200, "descending"),
        Arguments.argumentSet("random order with re-adds, 300 pods", 300, "random"),
        Arguments.argumentSet("below the index threshold, 20 pods", 20, "random"));
  }

  @ParameterizedTest
  @MethodSource("orders")
  void removesLikeTheLinearSearch(int count, String order) {
    NodeInfo node = new NodeInfo();
    List<PodInfo> expected = new ArrayList<>();
    List<PodInfo> all = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      PodInfo p = Pods.pod("p" + i).req("cpu", (i + 1) + "m").info();
      all.add(p);
      node.addPod(p);
      expected.add(p);
    }
    Random random = new Random(1);
    List<PodInfo> toRemove = new ArrayList<>(all);
    if (order.equals("descending")) {
      java.util.Collections.reverse(toRemove);
    } else if (order.equals("random")) {
      java.util.Collections.shuffle(toRemove, random);
    }
    for (int k = 0; k < toRemove.size(); k++) {
      PodInfo p = toRemove.get(k);
      assertThat(node.removePod(p)).isTrue();
      swapRemove(expected, p.uid());
      if (order.equals("random") && k % 7 == 0) {
        PodInfo again = Pods.pod("again" + k).req("cpu", "1m").info();
        node.addPod(again);
        expected.add(again);
      }
      assertThat(node.removePod(p)).isFalse();
    }

    assertThat(node.pods()).containsExactlyElementsOf(expected);
    long cpu = expected.stream().mapToLong(p -> p.requests().milliCpu()).sum();
    assertThat(node.requested().milliCpu()).isEqualTo(cpu);
  }

  private static void swapRemove(List<PodInfo> list, String uid) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).uid().equals(uid)) {
        list.set(i, list.get(list.size() - 1));
        list.remove(list.size() - 1);
        return;
      }
    }
  }
}
