package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.FeatureGates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** {@code --feature-gates} on {@code simulate}, {@code run} and {@code extender}. */
final class FeatureGatesOptionTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  @ParameterizedTest
  @ValueSource(strings = {"simulate", "run", "extender"})
  void anUnknownGateIsRefusedWithKubesMessage(String command) throws Exception {
    Path config = dir.resolve("config.yaml");
    Files.writeString(
        config, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
    Path manifest = dir.resolve("cluster.yaml");
    Files.writeString(manifest, "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n");
    List<String> args =
        command.equals("simulate")
            ? List.of(command, "--feature-gates", "Foo=true", manifest.toString())
            : command.equals("run")
                ? List.of(command, "--config", config.toString(), "--feature-gates", "Foo=true")
                : List.of(
                    command,
                    "--config",
                    config.toString(),
                    "--port",
                    "0",
                    "--feature-gates",
                    "Foo=true");

    assertThat(run(args.toArray(String[]::new))).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "invalid argument \"Foo=true\" for \"--feature-gates\" flag: unrecognized feature"
                + " gate: Foo"
                + System.lineSeparator());
  }

  @Test
  void aLockedGateSetToFalseIsRefused() throws Exception {
    Path manifest = dir.resolve("cluster.yaml");
    Files.writeString(manifest, "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n");

    assertThat(
            run(
                "simulate",
                "--feature-gates",
                "DynamicResourceAllocation=true",
                "--feature-gates=SidecarContainers=false",
                manifest.toString()))
        .isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString())
        .contains(
            "for \"--feature-gates\" flag: cannot set feature gate SidecarContainers to false,"
                + " feature is locked to true");
  }

  @Test
  void validGatesAreAccepted() throws Exception {
    Path manifest = dir.resolve("cluster.yaml");
    Files.writeString(manifest, "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n");

    assertThat(
            run(
                "simulate",
                "--feature-gates",
                "DynamicResourceAllocation=true,SchedulerQueueingHints=false",
                manifest.toString()))
        .as(err.toString())
        .isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"simulate", "run", "extender"})
  void theHelpListsEveryGateWithItsStageAndDefault(String command) {
    CommandLine.Model.OptionSpec option =
        new CommandLine(new Main())
            .getSubcommands()
            .get(command)
            .getCommandSpec()
            .findOption("--feature-gates");
    List<String> lines = List.of(option.description()).subList(1, option.description().length);

    assertThat(lines)
        .containsExactlyElementsOf(
            FeatureGates.known().stream()
                .map(
                    s ->
                        "  "
                            + s.name()
                            + "=true|false ("
                            + s.stage()
                            + " - default="
                            + s.defaultValue()
                            + (s.lockedToDefault() ? ", locked" : "")
                            + ")")
                .toList());
  }
}
