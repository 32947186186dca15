package io.kubesched.plugins.imagelocality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.kubernetes.client.openapi.models.V1ContainerImage;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.ImageStateSummary;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports {@code TestImageLocalityPriority} and {@code TestNormalizedImageName}. */
final class ImageLocalityTest {
  private static final long MB = 1024L * 1024L;

  private static MakeNode node403002000(String name) {
    return MakeNode.node()
        .name(name)
        .image(40 * MB, "gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1")
        .image(300 * MB, "gcr.io/300:latest", "gcr.io/300:v1")
        .image(2000 * MB, "gcr.io/2000:latest");
  }

  private static MakeNode node25010(String name) {
    return MakeNode.node()
        .name(name)
        .image(250 * MB, "gcr.io/250:latest")
        .image(10 * MB, "gcr.io/10:latest", "gcr.io/10:v1");
  }

  private static MakeNode node60040900(String name) {
    return MakeNode.node()
        .name(name)
        .image(600 * MB, "gcr.io/600:latest")
        .image(40 * MB, "gcr.io/40:latest")
        .image(900 * MB, "gcr.io/900:latest");
  }

  private static MakeNode node300600900(String name) {
    return MakeNode.node()
        .name(name)
        .image(300 * MB, "gcr.io/300:latest")
        .image(600 * MB, "gcr.io/600:latest")
        .image(900 * MB, "gcr.io/900:latest");
  }

  private static MakeNode node400030(String name) {
    return MakeNode.node()
        .name(name)
        .image(4000 * MB, "gcr.io/4000:latest")
        .image(30 * MB, "gcr.io/30:latest");
  }

  private static MakeNode node203040(String name) {
    return MakeNode.node()
        .name(name)
        .image(20 * MB, "gcr.io/20:latest")
        .image(30 * MB, "gcr.io/30:latest")
        .image(40 * MB, "gcr.io/40:latest");
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "two images spread on two nodes, prefer the larger image one",
            MakePod.pod().container("gcr.io/40").container("gcr.io/250").info(),
            List.of(node403002000("node1"), node25010("node2")),
            List.of(new NodeScore("node1", 0), new NodeScore("node2", 5))),
        argumentSet(
            "two images on one node, prefer this node",
            MakePod.pod().container("gcr.io/40").container("gcr.io/300").info(),
            List.of(node403002000("node1"), node25010("node2")),
            List.of(new NodeScore("node1", 7), new NodeScore("node2", 0))),
        argumentSet(
            "if exceed limit, use limit",
            MakePod.pod().container("gcr.io/10").container("gcr.io/4000").info(),
            List.of(node400030("node1"), node25010("node2")),
            List.of(new NodeScore("node1", 100), new NodeScore("node2", 0))),
        argumentSet(
            "if exceed limit, use limit (with node which has no images present)",
            MakePod.pod().container("gcr.io/10").container("gcr.io/4000").info(),
            List.of(node400030("node1"), node25010("node2"), MakeNode.node().name("node3")),
            List.of(
                new NodeScore("node1", 66), new NodeScore("node2", 0), new NodeScore("node3", 0))),
        argumentSet(
            "pod with multiple large images, node2 is preferred",
            MakePod.pod()
                .container("gcr.io/300")
                .container("gcr.io/600")
                .container("gcr.io/900")
                .info(),
            List.of(node60040900("node1"), node300600900("node2"), MakeNode.node().name("node3")),
            List.of(
                new NodeScore("node1", 32), new NodeScore("node2", 36), new NodeScore("node3", 0))),
        argumentSet(
            "pod with multiple small images",
            MakePod.pod().container("gcr.io/30").container("gcr.io/40").info(),
            List.of(node203040("node1"), node400030("node2")),
            List.of(new NodeScore("node1", 1), new NodeScore("node2", 0))),
        argumentSet(
            "include InitContainers: two images spread on two nodes, prefer the larger image one",
            PodInfo.of(withInit(MakePod.pod().container("gcr.io/30").obj(), "gcr.io/300")),
            List.of(node403002000("node1"), node203040("node2")),
            List.of(new NodeScore("node1", 6), new NodeScore("node2", 0))));
  }

  private static io.kubernetes.client.openapi.models.V1Pod withInit(
      io.kubernetes.client.openapi.models.V1Pod pod, String image) {
    pod.getSpec()
        .addInitContainersItem(
            new io.kubernetes.client.openapi.models.V1Container().name("init").image(image));
    return pod;
  }

  /** Builds node infos with image states counted across the nodes, as the cache does. */
  static List<NodeInfo> snapshot(List<MakeNode> makers) {
    List<V1Node> nodes = new ArrayList<>();
    for (MakeNode m : makers) {
      nodes.add(m.obj());
    }
    Map<String, Set<String>> existence = new HashMap<>();
    for (V1Node n : nodes) {
      for (V1ContainerImage img : images(n)) {
        for (String name : img.getNames()) {
          existence
              .computeIfAbsent(ImageLocality.normalizedImageName(name), k -> new HashSet<>())
              .add(n.getMetadata().getName());
        }
      }
    }
    List<NodeInfo> infos = new ArrayList<>();
    for (V1Node n : nodes) {
      NodeInfo info = NodeInfo.of(n);
      Map<String, ImageStateSummary> states = new HashMap<>();
      for (V1ContainerImage img : images(n)) {
        for (String name : img.getNames()) {
          String key = ImageLocality.normalizedImageName(name);
          states.put(key, new ImageStateSummary(img.getSizeBytes(), existence.get(key).size()));
        }
      }
      info.setImageStates(states);
      infos.add(info);
    }
    return infos;
  }

  private static List<V1ContainerImage> images(V1Node n) {
    return n.getStatus() == null || n.getStatus().getImages() == null
        ? List.of()
        : n.getStatus().getImages();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void score(PodInfo pod, List<MakeNode> nodes, List<NodeScore> want) {
    List<NodeInfo> infos = snapshot(nodes);
    NodeInfoLister lister = mock(NodeInfoLister.class);
    when(lister.list()).thenReturn(infos);
    FrameworkHandle handle = mock(FrameworkHandle.class);
    when(handle.snapshot()).thenReturn(lister);
    ImageLocality plugin = new ImageLocality(handle);

    List<NodeScore> withoutPreScore = new ArrayList<>();
    List<NodeScore> boundWithoutPreScore = new ArrayList<>();
    for (NodeInfo n : infos) {
      withoutPreScore.add(new NodeScore(n.name(), plugin.score(new CycleState(), pod, n)));
      boundWithoutPreScore.add(
          new NodeScore(n.name(), plugin.bindScore(new CycleState(), pod).score(n)));
    }
    assertThat(withoutPreScore).isEqualTo(want);
    assertThat(boundWithoutPreScore).isEqualTo(want);

    CycleState state = new CycleState();
    assertThat(plugin.preScore(state, pod, infos)).isEqualTo(Status.success());
    List<NodeScore> withPreScore = new ArrayList<>();
    List<NodeScore> boundWithPreScore = new ArrayList<>();
    for (NodeInfo n : infos) {
      withPreScore.add(new NodeScore(n.name(), plugin.score(state, pod, n)));
      boundWithPreScore.add(new NodeScore(n.name(), plugin.bindScore(state, pod).score(n)));
    }
    assertThat(withPreScore).isEqualTo(want);
    assertThat(boundWithPreScore).isEqualTo(want);
    BoundFaces.assertScoreFaces(plugin, state, pod, infos);
    BoundFaces.assertScoreFaces(plugin, new CycleState(), pod, infos);
  }

  @ParameterizedTest
  @CsvSource({
    "root, root:latest",
    "gcr.io:5000/root, gcr.io:5000/root:latest",
    "root:tag, root:tag",
    "root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2,"
        + " root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2"
  })
  void normalizedImageName(String input, String want) {
    assertThat(ImageLocality.normalizedImageName(input)).isEqualTo(want);
  }
}
