package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

final class VerbosityTest {
  static Stream<Arguments> commandLines() {
    return Stream.of(
        Arguments.of("none", List.of(), Verbosity.ERROR),
        Arguments.of("-v", List.of("-v"), Verbosity.INFO),
        Arguments.of("-vv", List.of("-vv"), Verbosity.DEBUG),
        Arguments.of("-v -v", List.of("-v", "-v"), Verbosity.DEBUG),
        Arguments.of("--verbose", List.of("--verbose"), Verbosity.INFO),
        Arguments.of("--v=0", List.of("--v=0"), Verbosity.INFO),
        Arguments.of("--v=2", List.of("--v=2"), Verbosity.INFO),
        Arguments.of("--v=3", List.of("--v=3"), Verbosity.DEBUG),
        Arguments.of("-v=4", List.of("-v=4"), Verbosity.DEBUG),
        Arguments.of("--v=5", List.of("--v=5"), Verbosity.TRACE),
        Arguments.of("--v 10", List.of("--v", "10"), Verbosity.TRACE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commandLines")
  void levels(String name, List<String> args, int want) {
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs(args.toArray(String[]::new));
    assertThat(Verbosity.slf4jLevel(cmd.verbosity)).isEqualTo(want);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.kubesched.cli.VerbosityTest#bad")
  void aValueThatIsNoLevelIsRefused(String value) {
    assertThatThrownBy(() -> Verbosity.slf4jLevel(List.of(value)))
        .hasMessage(
            "invalid argument \""
                + value
                + "\" for \"-v, --v\" flag: strconv.ParseInt: parsing \""
                + value
                + "\": invalid syntax");
  }

  static Stream<String> bad() {
    return Stream.of("x", "-1", "2.5");
  }
}
