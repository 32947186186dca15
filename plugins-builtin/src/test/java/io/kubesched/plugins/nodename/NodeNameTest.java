package io.kubesched.plugins.nodename;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports {@code TestNodeName}. */
final class NodeNameTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet("no host specified", MakePod.pod().name("p").info(), "foo", Status.success()),
        argumentSet(
            "host matches", MakePod.pod().name("p").node("foo").info(), "foo", Status.success()),
        argumentSet(
            "host doesn't match",
            MakePod.pod().name("p").node("bar").info(),
            "foo",
            Status.unresolvable("node(s) didn't match the requested node name")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void filter(PodInfo pod, String node, Status want) {
    assertThat(
            BoundFaces.assertFilterFaces(
                new NodeName(), new CycleState(), pod, List.of(MakeNode.node().name(node).info())))
        .containsExactly(want);
  }

  @Test
  void registersNodeAddWithoutHint() {
    assertThat(new NodeName().eventsToRegister())
        .isEqualTo(List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD)));
  }
}
