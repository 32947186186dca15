package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.NodeScore;
import io.kubesched.testing.FrameworkHarness;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubernetes.client.openapi.models.V1Node;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ${pluginName}} run through a real framework with the test kit. */
class ${pluginName}Test {
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "labelled node scores 100",
            List.of(
                MakeNode.node().name("a").label("example.com/preferred", "").obj(),
                MakeNode.node().name("b").obj()),
            List.of(new NodeScore("a", 100), new NodeScore("b", 0))),
        Arguments.of(
            "the label's value does not matter",
            List.of(
                MakeNode.node().name("a").label("example.com/preferred", "no").obj(),
                MakeNode.node().name("b").label("other", "x").obj()),
            List.of(new NodeScore("a", 100), new NodeScore("b", 0))),
        Arguments.of(
            "no node labelled",
            List.of(MakeNode.node().name("a").obj(), MakeNode.node().name("b").obj()),
            List.of(new NodeScore("a", 0), new NodeScore("b", 0))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scores(String name, List<V1Node> nodes, List<NodeScore> want) {
    FrameworkHarness.Result r =
        FrameworkHarness.builder()
            .plugin(new ${pluginName}(${pluginName}Args.defaults()))
            .nodes(nodes)
            .build()
            .run(MakePod.pod().name("p").obj());

    assertThat(r.scores(${pluginName}.NAME)).isEqualTo(want);
  }

  static Stream<Arguments> args() {
    return Stream.of(
        Arguments.of("defaults are valid", ${pluginName}Args.defaults(), List.of()),
        Arguments.of(
            "empty label key",
            new ${pluginName}Args(""),
            List.of(new FieldError("args.labelKey", "Required value: can not be empty"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("args")
  void validatesItsArgs(String name, ${pluginName}Args args, List<FieldError> want) {
    assertThat(args.validate("args")).isEqualTo(want);
  }
}
