package io.kubesched.plugins.sample.imageaffinity;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class ImageAffinityTest {
  private static final List<NodeInfo> NODES =
      List.of(
          MakeNode.node()
              .name("has-both")
              .image(100, "registry.io/build/base:1.0", "registry.io/build/base@sha256:abc")
              .image(100, "registry.io/build/tools:2")
              .info(),
          MakeNode.node().name("other-tag").image(100, "registry.io/build/base:0.9").info(),
          MakeNode.node().name("none").image(100, "nginx:1.25").info());

  private static final V1LabelSelector BUILD =
      new V1LabelSelector().matchLabels(Map.of("role", "image-build"));

  static Stream<Arguments> scoring() {
    PodInfo build =
        MakePod.pod()
            .name("b")
            .label("role", "image-build")
            .container("registry.io/build/base:1.0")
            .container("registry.io/build/tools:2")
            .info();
    return Stream.of(
        Arguments.argumentSet(
            "repository matching counts any tag",
            new ImageAffinityArgs(BUILD, "Repository", false),
            build,
            List.of(100L, 50L, 0L)),
        Arguments.argumentSet(
            "exact matching needs the same tag",
            new ImageAffinityArgs(BUILD, "Exact", false),
            build,
            List.of(100L, 0L, 0L)));
  }

  @ParameterizedTest
  @MethodSource("scoring")
  void scores(ImageAffinityArgs args, PodInfo pod, List<Long> want) {
    ImageAffinity plugin = new ImageAffinity(args);
    CycleState state = new CycleState();
    assertThat(plugin.preScore(state, pod, NODES)).isEqualTo(Status.success());
    List<Long> got = new ArrayList<>();
    for (NodeInfo n : NODES) {
      got.add(plugin.score(state, pod, n));
    }
    assertThat(got).isEqualTo(want);
  }

  @Test
  void podsOutsideTheSelectorAreSkipped() {
    ImageAffinity plugin = new ImageAffinity(new ImageAffinityArgs(BUILD, "Repository", true));
    PodInfo web = MakePod.pod().name("w").container("registry.io/build/base:1.0").info();
    assertThat(plugin.preScore(new CycleState(), web, NODES).isSkip()).isTrue();
    assertThat(plugin.preFilter(new CycleState(), web, NODES)).isEqualTo(PreFilterResult.skip());
  }

  @Test
  void requireImageFiltersNodesWithoutAnyImage() {
    ImageAffinity plugin = new ImageAffinity(new ImageAffinityArgs(BUILD, "Repository", true));
    PodInfo build =
        MakePod.pod()
            .name("b")
            .label("role", "image-build")
            .container("registry.io/build/base")
            .info();
    CycleState state = new CycleState();
    assertThat(plugin.preFilter(state, build, NODES).status().isSuccess()).isTrue();
    List<Status> got = new ArrayList<>();
    for (NodeInfo n : NODES) {
      got.add(plugin.filter(state, build, n));
    }
    assertThat(got)
        .isEqualTo(
            List.of(
                Status.success(),
                Status.success(),
                Status.unresolvable(ImageAffinity.REASON_NO_IMAGE)));
  }

  static Stream<Arguments> references() {
    return Stream.of(
        Arguments.argumentSet("tag", "nginx:1.25", "nginx", "nginx:1.25"),
        Arguments.argumentSet("no tag", "nginx", "nginx", "nginx:latest"),
        Arguments.argumentSet(
            "registry port", "host:5000/app", "host:5000/app", "host:5000/app:latest"),
        Arguments.argumentSet("digest", "app@sha256:00", "app", "app@sha256:00"));
  }

  @ParameterizedTest
  @MethodSource("references")
  void parsesReferences(String image, String repository, String normalized) {
    assertThat(ImageAffinity.repositoryOf(image)).isEqualTo(repository);
    assertThat(ImageAffinity.normalized(image)).isEqualTo(normalized);
  }

  @Test
  void validatesArgs() {
    assertThat(new ImageAffinityArgs(null, "Fuzzy", false).validate("args"))
        .extracting(Object::toString)
        .containsExactly("args.matchMode: must be Repository or Exact, got \"Fuzzy\"");
  }
}
