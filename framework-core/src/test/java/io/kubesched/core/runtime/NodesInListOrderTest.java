package io.kubesched.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SchedulingAlgorithm#nodesInListOrder}: the nodes a PreFilter result names, in the
 * snapshot's order, whether looked up by position (few names) or found by walking the list.
 */
class NodesInListOrderTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("one name, looked up", List.of("n-37"), List.of("n-37")),
        Arguments.of(
            "names out of order come back in list order",
            List.of("n-90", "n-3", "n-41"),
            List.of("n-3", "n-41", "n-90")),
        Arguments.of("unknown names are dropped", List.of("nope", "n-5", "n-"), List.of("n-5")),
        Arguments.of("no name known", List.of("x", "y"), List.of()),
        Arguments.of(
            "many names: the list is walked",
            names(0, 60, 2),
            names(0, 60, 2).stream().sorted(NodesInListOrderTest::byIndex).toList()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void nodesInListOrder(String name, List<String> wanted, List<String> want) {
    List<V1Node> nodes = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      nodes.add(new V1Node().metadata(new V1ObjectMeta().name("n-" + i)));
    }
    Snapshot snapshot = Snapshot.of(nodes, List.of());
    Set<String> set = new LinkedHashSet<>(wanted);
    List<String> viaSnapshot =
        names(SchedulingAlgorithm.nodesInListOrder(snapshot, snapshot.list(), set));
    // the same through a lister that cannot tell positions: the whole list is walked
    NodeInfoLister plain = plainLister(snapshot);
    List<String> viaWalk = names(SchedulingAlgorithm.nodesInListOrder(plain, plain.list(), set));
    List<String> order = names(snapshot.list());
    List<String> expected =
        want.stream().sorted((a, b) -> order.indexOf(a) - order.indexOf(b)).toList();
    assertThat(viaSnapshot).isEqualTo(expected);
    assertThat(viaWalk).isEqualTo(expected);
  }

  private static int byIndex(String a, String b) {
    return Integer.compare(Integer.parseInt(a.substring(2)), Integer.parseInt(b.substring(2)));
  }

  private static List<String> names(int from, int to, int step) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i += step) {
      out.add("n-" + i);
    }
    return out;
  }

  private static List<String> names(List<NodeInfo> nodes) {
    return nodes.stream().map(NodeInfo::name).toList();
  }

  private static NodeInfoLister plainLister(Snapshot s) {
    return new NodeInfoLister() {
      @Override
      public List<NodeInfo> list() {
        return s.list();
      }

      @Override
      public List<NodeInfo> havePodsWithAffinityList() {
        return s.havePodsWithAffinityList();
      }

      @Override
      public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
        return s.havePodsWithRequiredAntiAffinityList();
      }

      @Override
      public NodeInfo get(String nodeName) {
        return s.get(nodeName);
      }

      @Override
      public NodeInfo find(String nodeName) {
        return s.find(nodeName);
      }
    };
  }
}
